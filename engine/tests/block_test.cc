// Blocks (owned and in place, their search and malformed input), the block cache (charges,
// reservations, eviction, per-file erase) and the merging iterator's error path.
#include "src/block.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "dbx/options.h"
#include "src/block_cache.h"
#include "src/hash.h"
#include "src/mem_table.h"
#include "src/merging_iterator.h"
#include "src/random.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

// A child over sorted keys that fails (Corruption, no longer Valid) when stepped past `fail_at`.
class FailingIterator final : public InternalIterator {
 public:
  FailingIterator(std::vector<std::string> keys, size_t fail_at) : keys_(std::move(keys)), fail_at_(fail_at) {}
  bool Valid() const override { return status_.ok() && i_ < keys_.size(); }
  void SeekToFirst() override { i_ = 0; }
  void Seek(std::string_view t) override {
    for (i_ = 0; i_ < keys_.size() && keys_[i_] < t;) ++i_;
  }
  void Next() override {
    if (++i_ > fail_at_) status_ = Status::Corruption("child");
  }
  std::string_view key() const override { return keys_[i_]; }
  uint64_t tag() const override { return PackTag(i_ + 1, ValueType::kPut); }
  std::string_view value() const override { return {}; }
  Status status() const override { return status_; }

 private:
  std::vector<std::string> keys_;
  size_t fail_at_;
  size_t i_ = 0;
  Status status_;
};

TEST(MergingIterator, StopsWhenAChildFails) {
  std::vector<std::unique_ptr<InternalIterator>> children;
  children.push_back(std::make_unique<FailingIterator>(std::vector<std::string>{"a", "c", "e"}, 0));
  children.push_back(std::make_unique<FailingIterator>(std::vector<std::string>{"b", "d", "f"}, 99));
  auto it = NewMergingIterator(std::move(children));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "a");
  it->Next();  // the first child fails: "b" must not be returned as if "c" and "e" did not exist
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

TEST(BlockCache, EvictsByCharge) {
  BlockCache cache(16 * 4096);
  for (uint64_t i = 0; i < 200; ++i) {
    std::shared_ptr<const Block> b;
    std::string raw(4000, 'x');
    raw += std::string("\0\0\0\0\1\0\0\0", 8);
    ASSERT_TRUE(Block::Parse(raw, &b).ok());
    cache.Insert(1, i * 4096, b);
  }
  int present = 0;
  for (uint64_t i = 0; i < 200; ++i) present += cache.Lookup(1, i * 4096) != nullptr;
  EXPECT_LT(present, 40);
  EXPECT_GT(present, 0);
  EXPECT_NE(cache.Lookup(1, 199 * 4096), nullptr);  // the most recent survives
}

TEST(BlockCache, BlockReadBetweenInsertsStays) {
  BlockCache cache(16 * 8 * 4096);  // about 8 blocks per shard
  auto make = [] {
    std::shared_ptr<const Block> b;
    std::string raw(4000, 'x');
    raw += std::string("\0\0\0\0\1\0\0\0", 8);
    EXPECT_TRUE(Block::Parse(raw, &b).ok());
    return b;
  };
  cache.Insert(1, 0, make());
  for (uint64_t i = 1; i < 2000; ++i) {
    cache.Insert(1, i * 4096, make());
    ASSERT_NE(cache.Lookup(1, 0), nullptr) << "evicted after insert " << i;
  }
  int present = 0;
  for (uint64_t i = 1; i < 2000; ++i) present += cache.Lookup(1, i * 4096) != nullptr;
  EXPECT_LT(present, 16 * 8 + 16);
  EXPECT_LE(cache.usage(), cache.capacity() + 16 * 4096 + 16);
}

// Reservations (a segment's in-place descriptors) count in usage, take at most half the capacity,
// evict cached blocks to make room (or, without may_evict, only take room that is free) and are
// given back by Release.
TEST(BlockCache, ReservationsAreChargedAndBounded) {
  BlockCache cache(16 * 8 * 4096);
  for (uint64_t i = 0; i < 2000; ++i) {
    std::shared_ptr<const Block> b;
    std::string raw(4000, 'x');
    raw += std::string("\0\0\0\0\1\0\0\0", 8);
    ASSERT_TRUE(Block::Parse(raw, &b).ok());
    cache.Insert(1, i * 4096, b);
  }
  const size_t full = cache.usage();
  EXPECT_GT(full, cache.capacity() - 16 * 4096);
  EXPECT_FALSE(cache.Reserve(64 << 10, /*may_evict=*/false));  // no free room
  EXPECT_EQ(cache.usage(), full);
  EXPECT_FALSE(cache.Reserve(cache.capacity() / 2 + 1, /*may_evict=*/true));
  ASSERT_TRUE(cache.Reserve(cache.capacity() / 2, /*may_evict=*/true));
  EXPECT_LE(cache.usage(), cache.capacity() + 16 * 4096 + 16);  // blocks were evicted for it
  EXPECT_GE(cache.usage(), cache.capacity() / 2);
  EXPECT_FALSE(cache.Reserve(1, /*may_evict=*/true));  // half is the most
  cache.Release(cache.capacity() / 2);
  EXPECT_LE(cache.usage(), cache.capacity() / 2 + 16 * 4096 + 16);
  cache.EraseFile(1);
  EXPECT_EQ(cache.usage(), 0u);
  EXPECT_TRUE(cache.Reserve(4096, /*may_evict=*/false));  // free room now
  EXPECT_EQ(cache.usage(), 4096u);
  cache.Release(4096);
  EXPECT_EQ(cache.usage(), 0u);
}

// Keys that share long prefixes, differ past the 2 bytes a block compares packed, are prefixes of
// one another or hold several versions: LowerBound must agree with std::lower_bound on full keys.
TEST(Block, LowerBoundMatchesAFullKeySearch) {
  Random rnd(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> keys;
    std::string shared(rnd.Uniform(12), 'p');
    int n = 1 + static_cast<int>(rnd.Uniform(60));
    for (int i = 0; i < n; ++i) {
      std::string k = shared;
      int len = static_cast<int>(rnd.Uniform(14));
      for (int j = 0; j < len; ++j) k.push_back(static_cast<char>("\0ab\xff"[rnd.Uniform(4)]));
      keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    BlockBuilder bb;
    // Every tenth block holds large values: entries past 64 KiB, searched without packed windows.
    const std::string value(round % 10 == 0 ? 3000 : 1, 'v');
    for (size_t i = 0; i < keys.size(); ++i) {
      bb.Add(keys[i], PackTag(100 - (i % 3), ValueType::kPut), value);
      if (rnd.OneIn(3)) bb.Add(keys[i], PackTag(1, ValueType::kPut), "old");  // an older version
    }
    std::vector<std::string> entries;  // what the block holds, in order
    std::shared_ptr<const Block> b;
    ASSERT_TRUE(Block::Parse(bb.Finish(), &b).ok());
    BlockEntry e;
    for (uint32_t i = 0; i < b->size(); ++i) {
      ASSERT_TRUE(b->Decode(i, &e));
      entries.emplace_back(e.key);
    }
    for (int probe = 0; probe < 50; ++probe) {
      std::string t = probe % 2 == 0 ? entries[rnd.Uniform(static_cast<uint32_t>(entries.size()))] : shared;
      int extra = static_cast<int>(rnd.Uniform(4));
      if (probe % 3 == 0 && !t.empty()) t.pop_back();
      for (int j = 0; j < extra; ++j) t.push_back(static_cast<char>("\0ab\xffq"[rnd.Uniform(5)]));
      bool corrupt = false;
      uint32_t got = b->LowerBound(t, &corrupt);
      auto want = std::lower_bound(entries.begin(), entries.end(), t) - entries.begin();
      ASSERT_FALSE(corrupt);
      ASSERT_EQ(got, static_cast<uint32_t>(want)) << "round " << round << " target size " << t.size();
    }
  }
}

// FindNewest (a point read through the hash index of blocks of 16 or more entries within 4 KiB)
// finds the first entry of a key the block holds, and no other key, as a full-key search does.
TEST(Block, FindNewestMatchesAFullKeySearch) {
  Random rnd(17);
  int hashed = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> keys;
    const std::string shared(rnd.Uniform(10), 'k');
    const int n = 1 + static_cast<int>(rnd.Uniform(250));
    for (int i = 0; i < n; ++i) {
      std::string k = shared;
      const int len = 1 + static_cast<int>(rnd.Uniform(6));
      for (int j = 0; j < len; ++j) k.push_back(static_cast<char>("\0ab\xff"[rnd.Uniform(4)]));
      keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    BlockBuilder bb;
    for (const std::string& k : keys) {
      bb.Add(k, PackTag(100, ValueType::kPut), "v");
      if (rnd.OneIn(3)) bb.Add(k, PackTag(1, ValueType::kDelete), "");  // an older version
    }
    const std::string raw = bb.Finish();
    std::shared_ptr<const Block> owned, in_place;
    ASSERT_TRUE(Block::Parse(raw, &owned).ok());
    ASSERT_TRUE(Block::ParseInPlace(raw, &in_place).ok());
    const bool want_hashed = owned->size() >= Block::kMinHashedEntries && raw.size() - 4 * owned->size() - 4 <= 4096;
    ASSERT_EQ(owned->hashed(), want_hashed) << owned->size();
    ASSERT_FALSE(in_place->hashed());  // a descriptor stays small
    if (!want_hashed) continue;
    ++hashed;
    std::vector<BlockEntry> entries(owned->size());
    for (uint32_t i = 0; i < owned->size(); ++i) ASSERT_TRUE(owned->Decode(i, &entries[i]));
    for (int probe = 0; probe < 60; ++probe) {
      std::string t = keys[rnd.Uniform(static_cast<uint32_t>(keys.size()))];
      if (probe % 2 == 1) t.push_back(static_cast<char>("\0az"[rnd.Uniform(3)]));  // mostly absent
      if (probe % 5 == 4) t.pop_back();
      auto at = std::lower_bound(entries.begin(), entries.end(), t,
                                 [](const BlockEntry& e, const std::string& k) { return e.key < k; });
      const bool present = at != entries.end() && at->key == t;
      bool corrupt = false;
      BlockEntry e;
      ASSERT_EQ(owned->FindNewest(t, Hash64(t), &e, &corrupt), present) << "round " << round << " size " << n;
      ASSERT_FALSE(corrupt);
      if (present) {
        EXPECT_EQ(e.key, t);
        EXPECT_EQ(e.tag, at->tag);  // the newest version
        EXPECT_EQ(e.value, at->value);
      }
    }
  }
  EXPECT_GT(hashed, 100);  // most rounds exercised the index
}

TEST(Block, MalformedEntryIsCorruption) {
  std::string raw = "\x7f\x7f" + std::string(10, 'x');  // sizes past the end of the entries
  raw += std::string("\0\0\0\0\1\0\0\0", 8);
  std::shared_ptr<const Block> b;
  EXPECT_TRUE(Block::Parse(raw, &b).IsCorruption());
  EXPECT_TRUE(Block::ParseInPlace(raw, &b).IsCorruption());
  std::string bad_offset = std::string(20, 'x') + std::string("\x40\0\0\0\1\0\0\0", 8);
  EXPECT_TRUE(Block::ParseInPlace(bad_offset, &b).IsCorruption());
  EXPECT_TRUE(Block::ParseInPlace(std::string("\xff\xff\xff\x0f", 4), &b).IsCorruption());  // count too large
}

// A block parsed in place searches and decodes as one that owns its bytes, leaves the bytes as
// they were (they may be a read-only mapping) and charges only its offset array.
TEST(Block, InPlaceMatchesOwned) {
  BlockBuilder bb;
  for (int i = 0; i < 40; ++i)
    bb.Add("row" + std::to_string(1000 + 7 * i), PackTag(50 + i, ValueType::kPut), std::string(80, 'v'));
  const std::string raw = bb.Finish();
  const std::string copy = raw;
  std::shared_ptr<const Block> owned, in_place;
  ASSERT_TRUE(Block::Parse(raw, &owned).ok());
  ASSERT_TRUE(Block::ParseInPlace(raw, &in_place).ok());
  EXPECT_EQ(raw, copy);
  ASSERT_EQ(in_place->size(), owned->size());
  BlockEntry a, b;
  for (uint32_t i = 0; i < owned->size(); ++i) {
    ASSERT_TRUE(owned->Decode(i, &a));
    ASSERT_TRUE(in_place->Decode(i, &b));
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.value, b.value);
    EXPECT_EQ(a.tag, b.tag);
    EXPECT_GE(b.key.data(), raw.data());  // read where the bytes are
    EXPECT_LT(b.key.data(), raw.data() + raw.size());
  }
  for (int k = 990; k < 1300; ++k) {
    bool c1 = false, c2 = false;
    std::string t = "row" + std::to_string(k);
    EXPECT_EQ(owned->LowerBound(t, &c1), in_place->LowerBound(t, &c2)) << t;
    EXPECT_FALSE(c1 || c2);
  }
  EXPECT_EQ(in_place->charge(), sizeof(Block) + 4 * 40);  // 40 entries: the array is not inline
  // The owned copy has a hash index: 2 cells of 2 bytes per entry.
  ASSERT_TRUE(owned->hashed());
  EXPECT_EQ(owned->charge(), sizeof(Block) + raw.size() + 2 * 2 * 40);
  BlockBuilder small;
  for (int i = 0; i < 5; ++i) small.Add("k" + std::to_string(i), PackTag(9, ValueType::kPut), "v");
  const std::string small_raw = small.Finish();
  ASSERT_TRUE(Block::ParseInPlace(small_raw, &in_place).ok());
  EXPECT_EQ(in_place->charge(), sizeof(Block));
  bool corrupt = false;
  EXPECT_EQ(in_place->LowerBound("k3", &corrupt), 3u);
  ASSERT_TRUE(in_place->Decode(4, &b));
  EXPECT_EQ(b.key, "k4");
}

// A scan walks a block's entries by their sizes only when they lie back to back in slot order, as
// BlockBuilder writes them; a block whose offset array orders them otherwise (valid, not written
// by this engine) is read through the array, and the walk by sizes would give the wrong order.
TEST(Block, ContiguousOnlyWhenEntriesLieInOrder) {
  BlockBuilder bb;
  for (int i = 0; i < 3; ++i) bb.Add("k" + std::to_string(i), PackTag(9, ValueType::kPut), "v" + std::to_string(i));
  const std::string raw = bb.Finish();
  std::shared_ptr<const Block> b;
  ASSERT_TRUE(Block::Parse(raw, &b).ok());
  EXPECT_TRUE(b->contiguous());
  BlockEntry e;
  uint32_t off = b->OffsetOf(0);
  for (uint32_t i = 0; i < b->size(); ++i) {
    ASSERT_TRUE(b->DecodeEntryAt(off, &e));
    EXPECT_EQ(e.key, "k" + std::to_string(i));
    off = b->OffsetAfter(e);
  }
  // The same three entries stored k1, k0, k2, with the offset array still listing k0, k1, k2.
  auto entry = [](const std::string& k, const std::string& v) {
    BlockBuilder one;
    one.Add(k, PackTag(9, ValueType::kPut), v);
    std::string r = one.Finish();
    return r.substr(0, r.size() - 8);  // without its offset and count
  };
  const std::string e0 = entry("k0", "v0"), e1 = entry("k1", "v1"), e2 = entry("k2", "v2");
  std::string shuffled = e1 + e0 + e2;
  PutFixed32(&shuffled, static_cast<uint32_t>(e1.size()));
  PutFixed32(&shuffled, 0);
  PutFixed32(&shuffled, static_cast<uint32_t>(e1.size() + e0.size()));
  PutFixed32(&shuffled, 3);
  for (bool in_place : {false, true}) {
    ASSERT_TRUE((in_place ? Block::ParseInPlace(shuffled, &b) : Block::Parse(shuffled, &b)).ok());
    EXPECT_FALSE(b->contiguous());
    for (uint32_t i = 0; i < 3; ++i) {
      ASSERT_TRUE(b->Decode(i, &e));
      EXPECT_EQ(e.key, "k" + std::to_string(i));
    }
  }
}

TEST(BlockCache, EraseFileDropsOnlyThatFilesBlocks) {
  BlockCache cache(1 << 22);
  auto make = [] {
    std::shared_ptr<const Block> b;
    std::string raw(100, 'x');
    raw[0] = 1;  // key size 1
    raw[1] = 1;  // value size 1
    raw += std::string("\0\0\0\0\1\0\0\0", 8);
    EXPECT_TRUE(Block::Parse(raw, &b).ok());
    return b;
  };
  for (uint64_t i = 0; i < 3000; ++i) {
    cache.Insert(1 + i % 3, i * 4096, make());
  }
  size_t before = cache.usage();
  cache.EraseFile(2);
  for (uint64_t i = 0; i < 3000; ++i) {
    bool present = cache.Peek(1 + i % 3, i * 4096) != nullptr;
    ASSERT_EQ(present, i % 3 != 1) << i;
  }
  EXPECT_EQ(cache.usage(), before - before / 3);
  cache.EraseFile(1);
  cache.EraseFile(3);
  EXPECT_EQ(cache.usage(), 0u);
}

}  // namespace
}  // namespace dbx
