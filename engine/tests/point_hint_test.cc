// PointHint, the fast path of a point read in a mapped segment of large rows: every Get through a
// hint must give what the general path (the block's descriptor and SearchBlock) gives.
#include "src/point_hint.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "dbx/options.h"
#include "src/block_cache.h"
#include "src/hash.h"
#include "src/mem_table.h"
#include "src/random.h"
#include "src/segment_reader.h"
#include "tests/segment_model.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

using test::Model;

// Keys of 1 to 4 versions (some tombstones) with values of 700 to 2,000 bytes: 4 KiB blocks of 1 to
// 5 entries, so that some blocks get a hint (at most 3 entries) and some do not.
Model LargeRows() {
  Model m;
  Random rnd(11);
  uint64_t seq = 100000;
  for (int i = 0; i < 600; ++i) {
    std::string k = "user" + std::to_string(1000000 + i * 7);
    const int versions = rnd.OneIn(4) ? 1 + static_cast<int>(rnd.Uniform(4)) : 1;
    for (int j = 0; j < versions; ++j) {
      const size_t size = rnd.OneIn(3) ? 700 : 1000 + rnd.Uniform(1000);
      m[k].push_back({seq--, !rnd.OneIn(6), std::string(size, static_cast<char>('a' + (i + j) % 26))});
    }
  }
  return m;
}

// Raw blocks (read in place from the mapping) of the default size.
void Write(const std::string& path, const Model& model) {
  test::WriteModelSegment(path, model, Compression::kNone, Options().block_size);
}

std::shared_ptr<SegmentReader> OpenReader(const std::string& path, bool point_hints) {
  std::unique_ptr<RandomAccessFile> file;
  EXPECT_TRUE(OpenRandomAccessFile(path, &file).ok());
  EXPECT_TRUE(file->ReadsInPlace());
  std::shared_ptr<SegmentReader> r;
  EXPECT_TRUE(SegmentReader::Open(std::move(file), 1, std::make_shared<BlockCache>(8 << 20), &r, 0, point_hints).ok());
  return r;
}

struct Answer {
  Status status;
  Lookup result = Lookup::kAbsent;
  std::string value;
  uint64_t seq = 0;
  bool operator==(const Answer& o) const {
    return status.ok() == o.status.ok() && result == o.result && value == o.value && seq == o.seq;
  }
};

Answer Get(const SegmentReader& r, const std::string& key, uint64_t snapshot) {
  Answer a;
  a.status = r.Get(key, Hash64(key), snapshot, &a.result, &a.value, &a.seq);
  return a;
}

TEST(PointHint, EveryGetThroughAHintIsTheGeneralPaths) {
  test::TempDir dir;
  const Model model = LargeRows();
  const std::string path = dir.path() + "/000001.seg";
  Write(path, model);
  auto hinted = OpenReader(path, /*point_hints=*/true);
  auto plain = OpenReader(path, /*point_hints=*/false);
  ASSERT_EQ(plain->hinted_blocks(), 0u);

  std::vector<std::string> keys;
  std::vector<uint64_t> snapshots = {1, 99000, 99500, 99800, ~0ull};
  for (const auto& [k, versions] : model) {
    keys.push_back(k);
    keys.push_back(k + "x");                    // absent, just above a key
    keys.push_back(k.substr(0, k.size() - 1));  // absent, below
    for (const auto& v : versions) snapshots.push_back(v.seq);
  }
  keys.push_back("a");
  keys.push_back("zzz");
  // The first pass builds the descriptors and the hints; the second reads through the hints.
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::string& k : keys) {
      for (size_t s = 0; s < snapshots.size(); s += 97) {
        const Answer want = Get(*plain, k, snapshots[s]);
        ASSERT_TRUE(want.status.ok());
        ASSERT_TRUE(Get(*hinted, k, snapshots[s]) == want) << k << " at " << snapshots[s] << ", pass " << pass;
      }
    }
  }
  // Against the model too: every version at its own sequence, and the newest at the latest.
  for (const auto& [k, versions] : model) {
    for (const auto& v : versions) {
      const Answer a = Get(*hinted, k, v.seq);
      ASSERT_EQ(a.result, v.put ? Lookup::kValue : Lookup::kDeleted) << k;
      EXPECT_EQ(a.seq, v.seq);
      if (v.put) EXPECT_EQ(a.value, v.value);
    }
  }
  // The fast path was taken: blocks of at most 3 entries have hints, larger ones none.
  EXPECT_GT(hinted->hinted_blocks(), hinted->num_blocks() / 4);
  EXPECT_LT(hinted->hinted_blocks(), hinted->num_blocks());
  EXPECT_GT(hinted->MemoryUsage(), plain->MemoryUsage());
}

TEST(PointHint, SmallRowsGetNoHints) {
  test::TempDir dir;
  Model model;
  for (int i = 0; i < 5000; ++i) model["key" + std::to_string(100000 + i)].push_back({uint64_t(i + 1), true, "v"});
  const std::string path = dir.path() + "/000001.seg";
  Write(path, model);
  auto r = OpenReader(path, true);
  for (const auto& [k, versions] : model) ASSERT_EQ(Get(*r, k, ~0ull).result, Lookup::kValue);
  EXPECT_EQ(r->hinted_blocks(), 0u);  // no hint array for blocks of many entries
}

}  // namespace
}  // namespace dbx
