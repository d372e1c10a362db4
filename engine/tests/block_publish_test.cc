// Blocks the cache publishes in a segment's array for lock-free point reads (BlockSlot): published
// by a lookup or an insert only with an epoch, never over a segment's own descriptor, unpublished
// when evicted or erased, freed only once the readers that may hold them are gone, kept cached by
// reads through the slot; a segment's Get reads them with no cache lookup, and right.
#include <gtest/gtest.h>

#include <map>

#include "dbx/options.h"
#include "src/block.h"
#include "src/block_cache.h"
#include "src/epoch.h"
#include "src/hash.h"
#include "src/mem_table.h"
#include "src/segment_reader.h"
#include "src/segment_writer.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

std::string Key(int salt, int i) { return "k" + std::to_string(salt) + "_" + std::to_string(1000 + i); }

// A decoded block of `entries` keys (hashed from 16 on), each with one version.
std::shared_ptr<const Block> MakeBlock(int salt, int entries = 20) {
  BlockBuilder bb;
  for (int i = 0; i < entries; ++i) bb.Add(Key(salt, i), PackTag(7, ValueType::kPut), "v" + std::to_string(i));
  std::shared_ptr<const Block> b;
  EXPECT_TRUE(Block::Parse(bb.Finish(), &b).ok());
  return b;
}

// What a point read finds for Key(salt, i) through a published slot value.
bool FindsThroughSlot(uintptr_t v, int salt, int i) {
  if (!(v & kSlotPublished)) return false;
  BlockEntry e;
  bool corrupt = false;
  const std::string k = Key(salt, i);
  return Block::FindNewest(SlotBlock(v), SlotCells(v), k, Hash64(k), &e, &corrupt) &&
         e.value == "v" + std::to_string(i);
}

TEST(BlockPublish, OnlyACacheWithAnEpochPublishesAndNeverOverADescriptor) {
  BlockSlot slot{kSlotEmpty};
  BlockCache plain(1 << 20);
  plain.Insert(1, 0, MakeBlock(1), &slot);
  ASSERT_NE(plain.Lookup(1, 0, &slot), nullptr);
  EXPECT_EQ(slot.load(), kSlotEmpty);

  BlockCache cache(1 << 20, std::make_shared<Epoch>());
  auto b = MakeBlock(1);
  cache.Insert(1, 0, b, &slot);
  const uintptr_t v = slot.load();
  ASSERT_TRUE(v & kSlotPublished);
  EXPECT_EQ(SlotBlock(v), b.get());
  EXPECT_EQ(SlotCells(v), b->num_cells());
  EXPECT_NE(b->num_cells(), 0u);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(FindsThroughSlot(v, 1, i)) << i;

  // Cached without a home (as a flush warms the cache), published by the first lookup that has one.
  BlockSlot compressed{kSlotCompressed};
  cache.Insert(1, 4096, MakeBlock(2));
  EXPECT_EQ(compressed.load(), kSlotCompressed);
  ASSERT_NE(cache.Lookup(1, 4096, &compressed), nullptr);
  EXPECT_TRUE(FindsThroughSlot(compressed.load(), 2, 3));

  // A segment's own descriptor stays.
  Block descriptor;
  const auto own = reinterpret_cast<uintptr_t>(&descriptor);
  BlockSlot described{own};
  cache.Insert(1, 8192, MakeBlock(3), &described);
  ASSERT_NE(cache.Lookup(1, 8192, &described), nullptr);
  EXPECT_EQ(described.load(), own);
  cache.EraseFile(1);
  EXPECT_EQ(described.load(), own);
}

TEST(BlockPublish, AnErasedBlockIsUnpublishedAndFreedOnlyAfterTheReadersBeforeIt) {
  auto epoch = std::make_shared<Epoch>();
  BlockCache cache(1 << 20, epoch);
  BlockSlot empty{kSlotEmpty}, compressed{kSlotCompressed};
  auto b1 = MakeBlock(1), b2 = MakeBlock(2);
  std::weak_ptr<const Block> w1 = b1, w2 = b2;
  cache.Insert(1, 0, std::move(b1), &empty);
  cache.Insert(1, 4096, std::move(b2), &compressed);
  {
    Epoch::Guard reader(epoch.get());
    const uintptr_t v = empty.load();  // what a Get loads before the erase
    cache.EraseFile(1);
    EXPECT_EQ(empty.load(), kSlotEmpty);  // each slot gets back what it held
    EXPECT_EQ(compressed.load(), kSlotCompressed);
    EXPECT_EQ(cache.usage(), 0u);  // no longer charged
    EXPECT_EQ(cache.retired_blocks(), 2u);
    cache.SweepRetired();
    EXPECT_FALSE(w1.expired());  // the reader may still be reading it
    EXPECT_TRUE(FindsThroughSlot(v, 1, 5));
  }
  {
    Epoch::Guard later(epoch.get());  // entered after the unpublish: cannot hold the blocks
    cache.SweepRetired();
  }
  EXPECT_TRUE(w1.expired());
  EXPECT_TRUE(w2.expired());
  EXPECT_EQ(cache.retired_blocks(), 0u);
}

// Every slot is published exactly while its block is cached: evictions unpublish what they drop,
// and a block evicted under a reader is freed by a later insert once that reader is gone.
TEST(BlockPublish, EvictionUnpublishes) {
  auto epoch = std::make_shared<Epoch>();
  const size_t charge = MakeBlock(0)->charge();
  BlockCache cache(16 * 4 * charge, epoch);
  constexpr int kBlocks = 400;
  std::vector<BlockSlot> slots(kBlocks);
  std::vector<std::weak_ptr<const Block>> weak(kBlocks);
  std::unique_ptr<Epoch::Guard> reader = std::make_unique<Epoch::Guard>(epoch.get());
  for (int i = 0; i < kBlocks; ++i) {
    slots[i].store(kSlotEmpty);
    auto b = MakeBlock(i);
    weak[i] = b;
    cache.Insert(1, i * 4096ull, std::move(b), &slots[i]);
  }
  size_t cached = 0;
  for (int i = 0; i < kBlocks; ++i) {
    const bool present = cache.Peek(1, i * 4096ull) != nullptr;
    cached += present;
    ASSERT_EQ(present, (slots[i].load() & kSlotPublished) != 0) << i;
    if (present) {
      ASSERT_TRUE(FindsThroughSlot(slots[i].load(), i, 0)) << i;
    }
    ASSERT_FALSE(weak[i].expired()) << i;  // evicted under the reader: not freed
  }
  EXPECT_LT(cached, static_cast<size_t>(kBlocks) / 2);
  EXPECT_GE(cache.retired_blocks(), kBlocks - cached);
  reader.reset();
  cache.Insert(2, 0, MakeBlock(kBlocks), nullptr);  // sweeps its shard
  cache.SweepRetired();
  EXPECT_EQ(cache.retired_blocks(), 0u);
  for (int i = 0; i < kBlocks; ++i) {
    if (!(slots[i].load() & kSlotPublished)) {
      EXPECT_TRUE(weak[i].expired()) << i;
    }
  }
}

// The CLOCK hand gives a block read only through its slot the second chance a cache hit gives:
// read before every insert, it stays cached while the inserts evict everything else.
TEST(BlockPublish, ReadsThroughTheSlotKeepTheBlockCached) {
  const size_t charge = MakeBlock(0)->charge();
  BlockCache cache(16 * 4 * charge, std::make_shared<Epoch>());
  BlockSlot hot{kSlotEmpty}, cold{kSlotEmpty};
  cache.Insert(1, 0, MakeBlock(1), &hot);
  cache.Insert(1, 4096, MakeBlock(2), &cold);
  for (uint64_t i = 0; i < 2000; ++i) {
    const uintptr_t v = hot.load();
    ASSERT_TRUE(v & kSlotPublished) << i;
    SlotBlock(v)->MarkUsed();  // as SegmentReader::Get does
    cache.Insert(2, i * 4096, MakeBlock(3));
  }
  EXPECT_NE(cache.Peek(1, 0), nullptr);
  EXPECT_EQ(cache.Peek(1, 4096), nullptr);
  EXPECT_EQ(cold.load(), kSlotEmpty);
}

// A segment whose blocks are stored compressed: a Get publishes the block it decoded, the next
// Gets of that block make no cache lookup, every read (at every snapshot) stays right, and after
// the segment's blocks are dropped its reads go through the cache again.
TEST(BlockPublish, SegmentGetReadsPublishedBlocksWithoutACacheLookup) {
  test::TempDir dir;
  const std::string path = dir.path() + "/000001.seg";
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> model;  // versions newest first
  uint64_t seq = 100000;
  for (int i = 0; i < 2000; ++i) {
    const int versions = 1 + i % 3;
    for (int v = 0; v < versions; ++v)
      model[Key(9, i)].emplace_back(seq--, "value-" + std::to_string(i) + "-" + std::to_string(v) + "-filler");
  }
  Options o;
  o.compression = Compression::kLz4;
  o.block_size = 4096;
  {
    std::unique_ptr<WritableFile> f;
    ASSERT_TRUE(WritableFile::Create(path, &f).ok());
    SegmentWriter w(o, std::move(f));
    for (const auto& [k, versions] : model)
      for (const auto& [s, v] : versions) w.Add(k, PackTag(s, ValueType::kPut), v);
    ASSERT_TRUE(w.Finish().ok());
  }
  auto epoch = std::make_shared<Epoch>();
  auto cache = std::make_shared<BlockCache>(8 << 20, epoch);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, cache, &r).ok());
  ASSERT_GT(r->num_blocks(), 10u);
  auto read_all = [&] {
    Epoch::Guard guard(epoch.get());
    for (const auto& [k, versions] : model) {
      for (const auto& [s, v] : versions) {
        Lookup res;
        std::string value;
        uint64_t got = 0;
        ASSERT_TRUE(r->Get(k, Hash64(k), s, &res, &value, &got).ok());
        ASSERT_EQ(res, Lookup::kValue) << k;
        ASSERT_EQ(value, v) << k << "@" << s;
        ASSERT_EQ(got, s);
      }
      Lookup res;
      ASSERT_TRUE(r->Get(k, Hash64(k), versions.back().first - 1, &res, nullptr, nullptr).ok());
      ASSERT_EQ(res, Lookup::kAbsent) << k;
    }
  };
  auto lookups = [&] { return cache->hits() + cache->misses(); };
  read_all();
  const uint64_t first = lookups();
  EXPECT_GE(first, r->num_blocks());
  read_all();
  EXPECT_EQ(lookups(), first);  // every block was published
  r->DropCachedBlocks();
  read_all();
  EXPECT_GE(lookups(), first + r->num_blocks());  // unpublished: through the cache, then published
  const uint64_t again = lookups();
  read_all();
  EXPECT_EQ(lookups(), again);
  r.reset();  // blocks published after DropCachedBlocks: the destructor erases them
  cache->SweepRetired();
  EXPECT_EQ(cache->usage(), 0u);
  EXPECT_EQ(cache->retired_blocks(), 0u);
}

// The segment's Get marks the blocks it reads through its slots: reading one key before every
// insert of another file's block keeps that key's block cached (no new cache miss for it).
TEST(BlockPublish, SegmentGetKeepsItsBlockCached) {
  test::TempDir dir;
  const std::string path = dir.path() + "/000001.seg";
  Options o;
  o.compression = Compression::kLz4;
  {
    std::unique_ptr<WritableFile> f;
    ASSERT_TRUE(WritableFile::Create(path, &f).ok());
    SegmentWriter w(o, std::move(f));
    for (int i = 0; i < 500; ++i) w.Add(Key(5, i), PackTag(3, ValueType::kPut), "value-" + std::to_string(i));
    ASSERT_TRUE(w.Finish().ok());
  }
  auto epoch = std::make_shared<Epoch>();
  // Room for a few of the segment's blocks per shard, or for about 50 of the small ones.
  auto cache = std::make_shared<BlockCache>(16 * 32 << 10, epoch);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, cache, &r).ok());
  const std::string k = Key(5, 17);
  auto get = [&] {
    Epoch::Guard guard(epoch.get());
    Lookup res;
    std::string value;
    ASSERT_TRUE(r->Get(k, Hash64(k), ~0ull, &res, &value, nullptr).ok());
    ASSERT_EQ(value, "value-17");
  };
  get();
  const uint64_t misses = cache->misses();
  for (uint64_t i = 0; i < 10000; ++i) {
    get();
    cache->Insert(BlockCache::NewFileId(), 0, MakeBlock(6));
  }
  EXPECT_EQ(cache->misses(), misses);
  EXPECT_LT(cache->usage(), 10000 * MakeBlock(6)->charge() / 2);  // the inserts did evict
}

}  // namespace
}  // namespace dbx
