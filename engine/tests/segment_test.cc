// Tiers 4 and 5: segment files (layout, in-place blocks, warm cache), their in-memory index and bloom
// filter, and corruption handling.
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
#include "tests/segment_model.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

using test::Model;

// Writes `model` as a segment file at `path` and returns the file's bytes.
std::string WriteSegment(const std::string& path, const Model& model, Compression c, size_t block_size = 512) {
  return test::WriteModelSegment(path, model, c, block_size);
}

// `n` rows "row100000", "row100001", ... of random bytes, one put each (row i at sequence i + 1, of
// size_of(i) bytes).
template <class SizeOf>
Model RandomRows(uint64_t seed, int n, SizeOf size_of) {
  Random rnd(seed);
  Model model;
  for (int i = 0; i < n; ++i) {
    std::string v(size_of(i), '\0');
    for (char& c : v) c = static_cast<char>(rnd.Next());
    model["row" + std::to_string(100000 + i)] = {{static_cast<uint64_t>(i + 1), true, v}};
  }
  return model;
}

// Every key of `model`, whose newest versions are all puts, reads its newest value through `r`.
void ExpectNewestValues(const SegmentReader& r, const Model& model) {
  for (const auto& [k, versions] : model) {
    Lookup res;
    std::string value;
    ASSERT_TRUE(r.Get(k, Hash64(k), ~0ull, &res, &value, nullptr).ok());
    ASSERT_EQ(res, Lookup::kValue) << k;
    ASSERT_EQ(value, versions[0].value) << k;
  }
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
  if (GetParam() != Compression::kNone) {
    // Decoded blocks of 16 entries or more have a hash index: the reads above went through it,
    // including those at a snapshot below a key's newest version (the search then takes over).
    size_t hashed = 0;
    for (size_t i = 0; i < r->num_blocks(); ++i) {
      std::shared_ptr<const Block> b;
      ASSERT_TRUE(r->ReadDataBlock(i, &b).ok());
      hashed += b->hashed();
    }
    EXPECT_GT(hashed, r->num_blocks() / 2);
  }
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
  WriteSegment(path, model, Compression::kNone, 128);
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
  // A few rows larger than a page.
  const Model model = RandomRows(11, 3000, [](int i) -> size_t { return i % 500 == 7 ? 6000 : 500; });
  const std::string path = dir.path() + "/000001.seg";
  const std::string data = WriteSegment(path, model, Compression::kLz4, 4096);
  std::vector<BlockHandle> handles = DataBlockHandles(data);
  ASSERT_GT(handles.size(), 300u);
  size_t padded = 0, large = 0;
  for (size_t i = 0; i < handles.size(); ++i) {
    const BlockHandle& h = handles[i];
    ASSERT_EQ(static_cast<Compression>(data[h.offset + h.size - kBlockTrailer]), Compression::kNone);
    const uint64_t needed = (h.size + kSegmentPageBytes - 1) / kSegmentPageBytes;
    EXPECT_EQ(PagesTouched(h), needed) << "block " << i << " at " << h.offset << ", " << h.size << " bytes";
    if (needed == 1) {
      EXPECT_LE(h.size, 4096u);
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
  ASSERT_NO_FATAL_FAILURE(ExpectNewestValues(*r, model));
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

// A mapped file that records the WillNeed hints it is given (and forwards everything else).
class HintRecordingFile final : public RandomAccessFile {
 public:
  explicit HintRecordingFile(std::unique_ptr<RandomAccessFile> inner) : inner_(std::move(inner)) {}
  Status Read(uint64_t offset, size_t n, std::string* scratch, std::string_view* result) const override {
    return inner_->Read(offset, n, scratch, result);
  }
  uint64_t Size() const override { return inner_->Size(); }
  const std::string& name() const override { return inner_->name(); }
  bool ReadsInPlace() const override { return inner_->ReadsInPlace(); }
  void WillNeed(uint64_t offset, size_t n) const override {
    hints.emplace_back(offset, n);
    inner_->WillNeed(offset, n);
  }
  mutable std::vector<std::pair<uint64_t, size_t>> hints;

 private:
  std::unique_ptr<RandomAccessFile> inner_;
};

// A point read searches a block in place through its descriptor. A block of two pages (block_size
// 8192) is hinted as a whole first, so that evicted pages are one device read, not one fault per
// page; a block within one page (block_size 4096, aligned) costs no hint.
TEST(SegmentInPlace, ABlockSpanningPagesIsHintedAsOneRead) {
  test::TempDir dir;
  for (size_t block_size : {size_t{8192}, size_t{4096}}) {
    const Model model = RandomRows(13, 600, [](int) -> size_t { return 500; });
    const std::string path = dir.path() + "/" + std::to_string(block_size) + ".seg";
    const std::string data = WriteSegment(path, model, Compression::kNone, block_size);
    std::vector<BlockHandle> handles = DataBlockHandles(data);

    std::unique_ptr<RandomAccessFile> mapped;
    ASSERT_TRUE(OpenRandomAccessFile(path, &mapped).ok());
    ASSERT_TRUE(mapped->ReadsInPlace());
    auto recording = std::make_unique<HintRecordingFile>(std::move(mapped));
    const HintRecordingFile* file = recording.get();
    std::shared_ptr<SegmentReader> r;
    ASSERT_TRUE(SegmentReader::Open(std::move(recording), 1, std::make_shared<BlockCache>(1 << 20), &r).ok());
    for (int pass = 0; pass < 2; ++pass) {  // the first builds the descriptors, the second reads through them
      file->hints.clear();
      ASSERT_NO_FATAL_FAILURE(ExpectNewestValues(*r, model));
    }
    ASSERT_EQ(r->in_place_blocks(), r->num_blocks());
    if (block_size == 4096) {
      EXPECT_TRUE(file->hints.empty()) << file->hints.size() << " hints for blocks within one page";
      continue;
    }
    // Every lookup of the second pass hinted its block's whole stored range, and nothing else.
    EXPECT_EQ(file->hints.size(), model.size());
    size_t spanning = 0;
    for (const BlockHandle& h : handles) spanning += PagesTouched(h) > 1;
    EXPECT_GT(spanning, handles.size() / 2);
    for (const auto& hint : file->hints) {
      const uint64_t offset = hint.first;  // a plain variable: a lambda may not capture a structured binding
      auto h = std::find_if(handles.begin(), handles.end(), [&](const BlockHandle& b) { return b.offset == offset; });
      ASSERT_NE(h, handles.end()) << "hint at " << offset << " is not a block";
      EXPECT_EQ(hint.second, h->size);
      EXPECT_GT(PagesTouched(*h), 1u);
    }
  }
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

}  // namespace
}  // namespace dbx
