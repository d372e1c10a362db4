#include "src/manifest.h"

#include <gtest/gtest.h>

#include "src/env.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

TEST(Manifest, RoundTripAndAtomicReplace) {
  test::TempDir dir;
  ManifestData m;
  bool exists = true;
  ASSERT_TRUE(ReadManifest(Env::Default(), dir.path(), &m, &exists).ok());
  EXPECT_FALSE(exists);
  m.next_file_number = 42;
  m.flushed_seq = 1234567;
  m.live_keys = 99;
  m.log_number = 38;
  m.segments = {40, 17, 3};
  ASSERT_TRUE(WriteManifest(Env::Default(), dir.path(), m).ok());
  m.segments = {41};
  ASSERT_TRUE(WriteManifest(Env::Default(), dir.path(), m).ok());
  ManifestData back;
  ASSERT_TRUE(ReadManifest(Env::Default(), dir.path(), &back, &exists).ok());
  EXPECT_TRUE(exists);
  EXPECT_EQ(back.next_file_number, 42u);
  EXPECT_EQ(back.flushed_seq, 1234567u);
  EXPECT_EQ(back.live_keys, 99u);
  EXPECT_EQ(back.log_number, 38u);
  EXPECT_EQ(back.segments, std::vector<uint64_t>{41});
  EXPECT_FALSE(FileExists(dir.path() + "/MANIFEST.tmp"));
}

TEST(Manifest, AnyDamageIsCorruption) {
  ManifestData m;
  m.segments = {5, 4};
  std::string data = EncodeManifest(m);
  for (size_t i = 0; i < data.size(); ++i) {
    std::string bad = data;
    bad[i] ^= 0x10;
    ManifestData out;
    EXPECT_TRUE(DecodeManifest(bad, &out).IsCorruption()) << i;
  }
  for (size_t n = 0; n < data.size(); ++n) {
    ManifestData out;
    EXPECT_TRUE(DecodeManifest(data.substr(0, n), &out).IsCorruption()) << n;
  }
}

TEST(Manifest, FileNames) {
  uint64_t n;
  std::string ext;
  ASSERT_TRUE(ParseFileName(SegmentFileName(12), &n, &ext));
  EXPECT_EQ(n, 12u);
  EXPECT_EQ(ext, "seg");
  ASSERT_TRUE(ParseFileName(WalFileName(7), &n, &ext));
  EXPECT_EQ(ext, "wal");
  EXPECT_FALSE(ParseFileName("MANIFEST", &n, &ext));
  EXPECT_FALSE(ParseFileName("LOCK", &n, &ext));
}

}  // namespace
}  // namespace dbx
