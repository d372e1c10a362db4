// Tiers 4 and 5: segment files, their in-memory index and bloom filter, the block cache, and
// corruption handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "dbx/options.h"
#include "src/block.h"
#include "src/block_cache.h"
#include "src/hash.h"
#include "src/mem_table.h"
#include "src/merging_iterator.h"
#include "src/random.h"
#include "src/segment_reader.h"
#include "src/segment_writer.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

struct Version {
  uint64_t seq;
  bool put;
  std::string value;
};
using Model = std::map<std::string, std::vector<Version>>;  // versions newest first

std::string WriteSegment(const std::string& path, const Model& model, Compression c) {
  Options o;
  o.compression = c;
  o.block_size = 512;
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(WritableFile::Create(path, &f).ok());
  SegmentWriter w(o, std::move(f));
  for (const auto& [k, versions] : model)
    for (const auto& v : versions) w.Add(k, PackTag(v.seq, v.put ? ValueType::kPut : ValueType::kDelete), v.value);
  EXPECT_TRUE(w.Finish().ok());
  std::string data;
  EXPECT_TRUE(ReadFileToString(path, &data).ok());
  return data;
}

Model MakeModel() {
  Model m;
  Random rnd(3);
  uint64_t seq = 1000000;
  for (int i = 0; i < 3000; ++i) {
    std::string k = "key" + std::to_string(100000 + i * 3);
    int nv = 1 + static_cast<int>(rnd.Uniform(3));
    for (int j = 0; j < nv; ++j) m[k].push_back({seq--, !rnd.OneIn(5), "value" + std::to_string(rnd.Next() % 100000)});
  }
  return m;
}

class SegmentTest : public ::testing::TestWithParam<Compression> {};

TEST_P(SegmentTest, PointReadsResolveVersionsAndIterationIsOrdered) {
  test::TempDir dir;
  Model model = MakeModel();
  std::string path = dir.path() + "/000001.seg";
  WriteSegment(path, model, GetParam());
  auto cache = std::make_shared<BlockCache>(1 << 20);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, cache, &r).ok());
  EXPECT_EQ(r->meta().keys, model.size());
  EXPECT_GT(r->num_blocks(), 10u);

  for (const auto& [k, versions] : model) {
    for (const auto& v : versions) {
      Lookup res;
      std::string value;
      uint64_t seq = 0;
      ASSERT_TRUE(r->Get(k, Hash64(k), v.seq, &res, &value, &seq).ok());
      ASSERT_EQ(res, v.put ? Lookup::kValue : Lookup::kDeleted) << k;
      EXPECT_EQ(seq, v.seq);
      if (v.put) {
        EXPECT_EQ(value, v.value);
      }
    }
    Lookup res;
    ASSERT_TRUE(r->Get(k, Hash64(k), versions.back().seq - 1, &res, nullptr, nullptr).ok());
    EXPECT_EQ(res, Lookup::kAbsent);  // older than every version
  }
  Lookup res;
  ASSERT_TRUE(r->Get("key100001", Hash64("key100001"), ~0ull, &res, nullptr, nullptr).ok());
  EXPECT_EQ(res, Lookup::kAbsent);
  if (GetParam() == Compression::kNone) {
    // The file is mapped: raw blocks are searched in place through the segment's own descriptors,
    // charged to the cache (their offset arrays, not the blocks' bytes); no cache lookup after the first.
    std::unique_ptr<RandomAccessFile> f;
    ASSERT_TRUE(OpenRandomAccessFile(path, &f).ok());
    EXPECT_TRUE(f->ReadsInPlace());
    EXPECT_EQ(r->in_place_blocks(), r->num_blocks());
    EXPECT_GT(cache->usage(), 0u);
    EXPECT_LT(cache->usage(), r->file_size() / 2);
    EXPECT_EQ(cache->hits(), 0u);
  } else {
    EXPECT_EQ(r->in_place_blocks(), 0u);
    EXPECT_GT(cache->hits(), 0u);
  }

  auto it = r->NewIterator();
  auto mit = model.begin();
  size_t vi = 0;
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++n) {
    ASSERT_NE(mit, model.end());
    EXPECT_EQ(it->key(), mit->first);
    EXPECT_EQ(TagSeq(it->tag()), mit->second[vi].seq);
    if (++vi == mit->second.size()) {
      ++mit;
      vi = 0;
    }
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(n, r->meta().entries);
  it->Seek("key100004");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(it->key(), "key100006");
  it->Seek("zzz");
  EXPECT_FALSE(it->Valid());
}

// A cache too small for every in-place descriptor: the descriptors take at most half of it and
// are charged there, the blocks past that are read through the cache, every read stays right, the
// cache stays within its capacity, and the charge is given back when the segment goes.
TEST(SegmentInPlace, DescriptorsAreChargedToTheCacheAndBoundedByIt) {
  test::TempDir dir;
  Model model = MakeModel();
  std::string path = dir.path() + "/000001.seg";
  WriteSegment(path, model, Compression::kNone);
  auto cache = std::make_shared<BlockCache>(16 << 10);
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  ASSERT_TRUE(file->ReadsInPlace());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, cache, &r).ok());
  ASSERT_GT(r->num_blocks(), 200u);  // about 250 bytes each: far more than 8 KiB of descriptors
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [k, versions] : model) {
      Lookup res;
      std::string value;
      ASSERT_TRUE(r->Get(k, Hash64(k), ~0ull, &res, &value, nullptr).ok());
      ASSERT_EQ(res, versions.front().put ? Lookup::kValue : Lookup::kDeleted) << k;
      if (versions.front().put) ASSERT_EQ(value, versions.front().value) << k;
      ASSERT_LE(cache->usage(), cache->capacity() + 16 * 4096 + 16);
    }
  }
  EXPECT_GT(r->in_place_blocks(), 0u);
  EXPECT_LT(r->in_place_blocks(), r->num_blocks());
  EXPECT_GT(cache->misses(), r->num_blocks() - r->in_place_blocks());  // the rest went through the cache
  size_t n = 0;
  auto it = r->NewIterator();
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(n, r->meta().entries);
  it.reset();
  r.reset();
  EXPECT_EQ(cache->usage(), 0u);
}

// Many small blocks whose last keys share their first 16 bytes across groups of blocks, then keys
// that do not: point reads and seeks find the right block (the index search's two levels agree
// with the keys), for present keys, absent keys between them and keys past the last one.
TEST(SegmentIndex, FindsTheBlockAcrossSharedPrefixes) {
  test::TempDir dir;
  Model model;
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) keys.push_back("shared-prefix-over-16-bytes/" + std::to_string(100000 + 2 * i));
  for (int i = 0; i < 3000; ++i) keys.push_back("z" + std::to_string(100000 + 2 * i));
  for (const std::string& k : keys) model[k].push_back({7, true, "v" + k});
  const std::string path = dir.path() + "/000001.seg";
  Options o;
  o.compression = Compression::kNone;
  o.block_size = 128;
  std::unique_ptr<WritableFile> wf;
  ASSERT_TRUE(WritableFile::Create(path, &wf).ok());
  SegmentWriter w(o, std::move(wf));
  for (const auto& [k, versions] : model) w.Add(k, PackTag(7, ValueType::kPut), versions[0].value);
  ASSERT_TRUE(w.Finish().ok());
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, std::make_shared<BlockCache>(1 << 20), &r).ok());
  ASSERT_GT(r->num_blocks(), 40u * 16);
  auto it = r->NewIterator();
  for (const auto& [k, versions] : model) {
    Lookup res;
    std::string value;
    ASSERT_TRUE(r->Get(k, Hash64(k), 10, &res, &value, nullptr).ok());
    ASSERT_EQ(res, Lookup::kValue) << k;
    ASSERT_EQ(value, versions[0].value);
    std::string absent = k;
    absent.back() = static_cast<char>(absent.back() + 1);  // odd: between two keys
    ASSERT_TRUE(r->Get(absent, Hash64(absent), 10, &res, nullptr, nullptr).ok());
    ASSERT_EQ(res, Lookup::kAbsent) << absent;
    it->Seek(absent);
    auto next = model.upper_bound(absent);
    if (next == model.end()) {
      ASSERT_FALSE(it->Valid());
    } else {
      ASSERT_TRUE(it->Valid()) << absent;
      ASSERT_EQ(it->key(), next->first);
    }
    it->Seek(k);
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(it->key(), k);
  }
  it->Seek("zz");
  EXPECT_FALSE(it->Valid());
  Lookup res;
  ASSERT_TRUE(r->Get("zz", Hash64("zz"), 10, &res, nullptr, nullptr).ok());
  EXPECT_EQ(res, Lookup::kAbsent);
  ASSERT_TRUE(it->status().ok());
}

// The data blocks' handles, read from the file as a reader finds them (footer -> index block).
std::vector<BlockHandle> DataBlockHandles(const std::string& data) {
  std::vector<BlockHandle> out;
  SegmentFooter footer;
  EXPECT_TRUE(SegmentFooter::Decode(std::string_view(data).substr(data.size() - kFooterSize), &footer).ok());
  // The index is stored raw: payload then the 5-byte trailer.
  std::string_view in = std::string_view(data).substr(footer.index.offset, footer.index.size - kBlockTrailer);
  while (!in.empty()) {
    std::string_view k;
    BlockHandle h;
    EXPECT_TRUE(GetLengthPrefixed(&in, &k) && GetFixed64(&in, &h.offset) && GetFixed32(&in, &h.size));
    out.push_back(h);
  }
  return out;
}

uint64_t PagesTouched(const BlockHandle& h) {
  return (h.offset + h.size - 1) / kSegmentPageBytes - h.offset / kSegmentPageBytes + 1;
}

// Rows of 500 random (incompressible) bytes, as the disk-bound suite writes them: lz4 does not pay,
// so the blocks are stored raw, each within block_size and touching no more pages than its size
// needs (one, for all but the blocks of a single row larger than a page). Reads see none of the
// padding. Blocks that do compress are not padded: they follow each other.
TEST(SegmentLayout, RawBlocksDoNotStraddlePages) {
  test::TempDir dir;
  Random rnd(11);
  Model model;
  for (int i = 0; i < 3000; ++i) {
    std::string v(i % 500 == 7 ? 6000 : 500, '\0');  // a few rows larger than a page
    for (char& c : v) c = static_cast<char>(rnd.Next());
    model["row" + std::to_string(100000 + i)] = {{static_cast<uint64_t>(i + 1), true, v}};
  }
  const std::string path = dir.path() + "/000001.seg";
  Options o;
  o.compression = Compression::kLz4;
  o.block_size = 4096;
  std::unique_ptr<WritableFile> wf;
  ASSERT_TRUE(WritableFile::Create(path, &wf).ok());
  SegmentWriter w(o, std::move(wf));
  for (const auto& [k, versions] : model) w.Add(k, PackTag(versions[0].seq, ValueType::kPut), versions[0].value);
  ASSERT_TRUE(w.Finish().ok());
  std::string data;
  ASSERT_TRUE(ReadFileToString(path, &data).ok());
  std::vector<BlockHandle> handles = DataBlockHandles(data);
  ASSERT_GT(handles.size(), 300u);
  size_t padded = 0, large = 0;
  for (size_t i = 0; i < handles.size(); ++i) {
    const BlockHandle& h = handles[i];
    ASSERT_EQ(static_cast<Compression>(data[h.offset + h.size - kBlockTrailer]), Compression::kNone);
    const uint64_t needed = (h.size + kSegmentPageBytes - 1) / kSegmentPageBytes;
    EXPECT_EQ(PagesTouched(h), needed) << "block " << i << " at " << h.offset << ", " << h.size << " bytes";
    if (needed == 1) {
      EXPECT_LE(h.size, o.block_size);
    } else {
      ++large;
    }
    if (i > 0 && h.offset != handles[i - 1].offset + handles[i - 1].size) ++padded;
  }
  EXPECT_EQ(large, 6u);
  EXPECT_GT(padded, handles.size() / 2);  // 7 rows of 530 bytes leave 380 of a page: most blocks follow padding

  std::unique_ptr<RandomAccessFile> file;
  ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
  std::shared_ptr<SegmentReader> r;
  ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, std::make_shared<BlockCache>(1 << 20), &r).ok());
  for (const auto& [k, versions] : model) {
    Lookup res;
    std::string value;
    ASSERT_TRUE(r->Get(k, Hash64(k), ~0ull, &res, &value, nullptr).ok());
    ASSERT_EQ(res, Lookup::kValue) << k;
    ASSERT_EQ(value, versions[0].value) << k;
  }
  auto it = r->NewIterator();
  auto m = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
    ASSERT_NE(m, model.end());
    ASSERT_EQ(it->key(), m->first);
    ASSERT_EQ(it->value(), m->second[0].value);
  }
  EXPECT_TRUE(it->status().ok());
  EXPECT_EQ(m, model.end());

  // Compressible rows: lz4 blocks, not padded.
  std::string compressed = WriteSegment(dir.path() + "/000002.seg", MakeModel(), Compression::kLz4);
  handles = DataBlockHandles(compressed);
  ASSERT_GT(handles.size(), 10u);
  for (size_t i = 1; i < handles.size(); ++i)
    EXPECT_EQ(handles[i].offset, handles[i - 1].offset + handles[i - 1].size) << "block " << i;
}

// A flush warms the block cache with the blocks it stores compressed (decoded) only: a block stored
// raw is read in place from the mapped file, so a copy of it in the cache would only hold memory.
TEST(SegmentWarmCache, OnlyCompressedBlocksAreCopiedIntoTheCache) {
  test::TempDir dir;
  for (bool compressible : {false, true}) {
    Random rnd(5);
    auto cache = std::make_shared<BlockCache>(8 << 20);
    Options o;
    o.compression = Compression::kLz4;
    std::unique_ptr<WritableFile> wf;
    const std::string path = dir.path() + (compressible ? "/000002.seg" : "/000001.seg");
    ASSERT_TRUE(WritableFile::Create(path, &wf).ok());
    SegmentWriter w(o, std::move(wf));
    const uint64_t id = BlockCache::NewFileId();
    w.WarmCache(cache, id);
    for (int i = 0; i < 2000; ++i) {
      std::string v(300, 'v');
      if (!compressible)
        for (char& c : v) c = static_cast<char>(rnd.Next());
      w.Add("row" + std::to_string(100000 + i), PackTag(i + 1, ValueType::kPut), v);
    }
    ASSERT_TRUE(w.Finish().ok());
    if (compressible) {
      EXPECT_GT(cache->usage(), 100u << 10) << "decoded blocks are cached";
    } else {
      EXPECT_EQ(cache->usage(), 0u) << "raw blocks are not copied";
    }
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_TRUE(OpenRandomAccessFile(path, &file).ok());
    std::shared_ptr<SegmentReader> r;
    ASSERT_TRUE(SegmentReader::Open(std::move(file), 1, cache, &r, id).ok());
    Lookup res;
    std::string value;
    ASSERT_TRUE(r->Get("row100007", Hash64("row100007"), ~0ull, &res, &value, nullptr).ok());
    EXPECT_EQ(res, Lookup::kValue);
    EXPECT_EQ(value.size(), 300u);
  }
}

INSTANTIATE_TEST_SUITE_P(Compressions, SegmentTest,
                         ::testing::Values(Compression::kNone, Compression::kLz4, Compression::kZstd));

TEST(SegmentCorruption, EveryFlippedByteIsCorruptionOrHarmless) {
  test::TempDir dir;
  Model model;
  for (int i = 0; i < 200; ++i) model["k" + std::to_string(1000 + i)] = {{static_cast<uint64_t>(i + 1), true, "v"}};
  std::string data = WriteSegment(dir.path() + "/s.seg", model, Compression::kLz4);
  for (size_t i = 0; i < data.size(); ++i) {
    std::string bad = data;
    bad[i] ^= 0x41;
    std::shared_ptr<SegmentReader> r;
    Status s = SegmentReader::Open(NewMemoryFile("bad", bad), 1, nullptr, &r);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << s.ToString();
      continue;
    }
    // The damage is in a data block: reads report it, never crash.
    bool corrupt = false;
    for (const auto& [k, v] : model) {
      Lookup res;
      Status g = r->Get(k, Hash64(k), ~0ull, &res, nullptr, nullptr);
      if (!g.ok()) {
        EXPECT_TRUE(g.IsCorruption()) << g.ToString();
        corrupt = true;
      }
    }
    auto it = r->NewIterator();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    if (!it->status().ok()) corrupt = true;
    EXPECT_TRUE(corrupt) << "flip at " << i << " went unnoticed";
  }
  std::shared_ptr<SegmentReader> r;
  EXPECT_TRUE(SegmentReader::Open(NewMemoryFile("short", data.substr(0, 30)), 1, nullptr, &r).IsCorruption());
  EXPECT_TRUE(SegmentReader::Open(NewMemoryFile("empty", ""), 1, nullptr, &r).IsCorruption());
}

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
    bb.Add("row" + std::to_string(1000 + 7 * i), PackTag(50 + i, ValueType::kPut), std::string(90, 'v'));
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
  EXPECT_GT(owned->charge(), raw.size());
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
