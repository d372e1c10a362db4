// Recovery from damaged files: torn WAL tails are cut, damage elsewhere is Corruption (never a crash),
// orphaned segments from an interrupted flush are removed, and the tiers hand data down in order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "dbx/db.h"
#include "src/columnar_cache.h"
#include "src/manifest.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

namespace fs = std::filesystem;
using test::FilesWithExt;

std::string Key(int i) { return "key" + std::to_string(1000 + i); }

void FlipByte(const std::string& path, uint64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x5a));
}

class RecoveryTest : public ::testing::Test {
 protected:
  Options WalOptions() {
    Options o;
    o.durability = Durability::kFull;
    o.delta_flush_entries = 40;  // rotates the WAL every 40 records
    return o;
  }
  // Writes n single-key commits, then copies the directory as a crash would leave it (the DB is
  // still open, so nothing was flushed at close). Returns the copy's path.
  std::string WriteAndCrash(int n) {
    std::unique_ptr<DB> db;
    EXPECT_TRUE(DB::Open(WalOptions(), dir_.Sub("db"), &db).ok());
    for (int i = 0; i < n; ++i) EXPECT_TRUE(db->Put(WriteOptions(), Key(i), "v" + std::to_string(i)).ok());
    std::string copy = dir_.Sub("crashed" + std::to_string(copies_++));
    fs::copy(dir_.Sub("db"), copy);
    fs::remove(copy + "/LOCK");
    return copy;
  }
  int CountPrefix(DB* db, int n) {
    int present = 0;
    std::string v;
    for (int i = 0; i < n; ++i) {
      Status s = db->Get(ReadOptions(), Key(i), &v);
      if (s.ok()) {
        EXPECT_EQ(present, i) << "a gap: commit " << i << " present after a missing one";
        ++present;
      } else {
        EXPECT_TRUE(s.IsNotFound()) << s.ToString();
      }
    }
    return present;
  }
  test::TempDir dir_;
  int copies_ = 0;
};

TEST_F(RecoveryTest, TornTailOfTheNewestWalIsCut) {
  std::string dir = WriteAndCrash(100);
  auto wals = FilesWithExt(dir, ".wal");
  ASSERT_GE(wals.size(), 2u);
  fs::resize_file(wals.back(), fs::file_size(wals.back()) - 3);  // tear the last record
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(WalOptions(), dir, &db).ok());
  EXPECT_EQ(CountPrefix(db.get(), 100), 99);
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, 99u);
  for (const std::string& w : wals) EXPECT_FALSE(fs::exists(w)) << "replayed WAL files are flushed and removed";
  ASSERT_TRUE(db->Put(WriteOptions(), Key(99), "again").ok());
  ASSERT_TRUE(db->Close().ok());
  ASSERT_TRUE(DB::Open(WalOptions(), dir, &db).ok());
  EXPECT_EQ(CountPrefix(db.get(), 100), 100);
}

TEST_F(RecoveryTest, DamageInTheMiddleOfTheNewestWalIsCorruption) {
  std::string dir = WriteAndCrash(100);
  auto wals = FilesWithExt(dir, ".wal");
  FlipByte(wals.back(), fs::file_size(wals.back()) / 2);  // good records follow: not a torn tail
  std::unique_ptr<DB> db;
  Status s = DB::Open(WalOptions(), dir, &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_TRUE(fs::exists(wals.back()));
}

TEST_F(RecoveryTest, DamageInAnOlderWalIsCorruption) {
  std::string dir = WriteAndCrash(100);
  auto wals = FilesWithExt(dir, ".wal");
  ASSERT_GE(wals.size(), 2u);
  FlipByte(wals.front(), 20);
  std::unique_ptr<DB> db;
  Status s = DB::Open(WalOptions(), dir, &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST_F(RecoveryTest, OrphanSegmentsAreRemovedAndMissingOnesReported) {
  Options o;
  o.durability = Durability::kNone;
  std::string dir = dir_.Sub("db");
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir, &db).ok());
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "v").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  auto segs = FilesWithExt(dir, ".seg");
  ASSERT_EQ(segs.size(), 1u);
  // A flush that wrote its segment but crashed before the manifest named it.
  fs::copy_file(segs[0], dir + "/" + SegmentFileName(999));
  std::ofstream(dir + "/MANIFEST.tmp") << "half-written";
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir, &db).ok());
    EXPECT_FALSE(fs::exists(dir + "/" + SegmentFileName(999)));
    EXPECT_FALSE(fs::exists(dir + "/MANIFEST.tmp"));
    uint64_t n = 0;
    ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
    EXPECT_EQ(n, 50u);
  }
  fs::remove(segs[0]);
  std::unique_ptr<DB> db;
  EXPECT_TRUE(DB::Open(o, dir, &db).IsCorruption());
}

TEST_F(RecoveryTest, DamagedSegmentBlocksAreCorruptionNotCrashes) {
  Options o;
  o.durability = Durability::kNone;
  o.compression = Compression::kNone;
  o.block_size = 256;
  std::string dir = dir_.Sub("db");
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir, &db).ok());
    for (int i = 0; i < 500; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), std::string(20, 'x')).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  auto segs = FilesWithExt(dir, ".seg");
  ASSERT_EQ(segs.size(), 1u);
  FlipByte(segs[0], 100);  // inside the first data block
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, dir, &db).ok());  // index and filter are intact
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), Key(0), &v).IsCorruption());
  EXPECT_TRUE(db->Get(ReadOptions(), Key(499), &v).ok());
  Status s = db->Scan(ReadOptions(), {}, {}, 0, [](std::string_view, std::string_view) { return true; });
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

TEST(Tiers, DataMovesDownDeltaWosSegments) {
  test::TempDir dir;
  Options o;
  o.durability = Durability::kNone;
  o.delta_flush_entries = 100;
  o.wos_flush_bytes = 1 << 20;
  o.compaction_trigger = 0;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
  for (int i = 0; i < 99; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "v").ok());
  DbStats st = db->GetStats();
  EXPECT_EQ(st.delta_entries, 99u);
  EXPECT_EQ(st.wos_entries, 0u);
  ASSERT_TRUE(db->Put(WriteOptions(), Key(99), "v").ok());  // reaches the threshold
  st = db->GetStats();
  EXPECT_EQ(st.delta_entries, 0u);
  EXPECT_EQ(st.frozen_deltas + (st.wos_entries > 0 ? 1 : 0), 1u);
  ASSERT_TRUE(db->Flush().ok());
  st = db->GetStats();
  EXPECT_EQ(st.segments, 1u);
  EXPECT_EQ(st.segment_entries, 100u);
  EXPECT_EQ(st.wos_entries, 0u);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "round" + std::to_string(round)).ok());
    ASSERT_TRUE(db->Flush().ok());
  }
  EXPECT_EQ(db->GetStats().segments, 4u);
  ASSERT_TRUE(db->Compact().ok());
  st = db->GetStats();
  EXPECT_EQ(st.segments, 1u);
  EXPECT_EQ(st.segment_entries, 100u) << "compaction drops versions no snapshot needs";
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), Key(5), &v).ok());
  EXPECT_EQ(v, "round2");
}

TEST(ColumnarCache, PacksRowsAndSeeks) {
  ColumnarCache::Builder b(1 << 20);
  for (int i = 0; i < 100; ++i) b.Add(Key(i * 2), "value" + std::to_string(i));
  auto c = b.Finish(42);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->seq(), 42u);
  EXPECT_EQ(c->size(), 100u);
  EXPECT_EQ(c->key(3), Key(6));
  EXPECT_EQ(c->value(3), "value3");
  EXPECT_EQ(c->LowerBound(Key(7)), 4u);
  EXPECT_EQ(c->LowerBound(""), 0u);
  EXPECT_EQ(c->LowerBound("zzz"), 100u);
  ColumnarCache::Builder small(64);
  for (int i = 0; i < 100; ++i) small.Add(Key(i), "v");
  EXPECT_TRUE(small.full());
  EXPECT_EQ(small.Finish(1), nullptr);
}

}  // namespace
}  // namespace dbx
