// Regression tests of the durability defects of issue 15; each failed before its fix.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "dbx/db.h"
#include "src/fault_env.h"
#include "src/manifest.h"
#include "src/mem_table.h"
#include "src/segment_writer.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

namespace fs = std::filesystem;
using test::FilesWithExt;

std::string Key(int i) { return "key" + std::to_string(100000 + i); }

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void Spit(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << data;
}

// 1. A block over the reader's 64 MiB decoded-size limit was written compressed and never read back.
TEST(Durability, AValueOver64MiBIsReadBackAfterFlushAndReopen) {
  test::TempDir tmp;
  Options o;
  o.durability = Durability::kNone;
  o.compression = Compression::kLz4;
  std::string big(65u << 20, 'a');
  for (size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + (i / 4096) % 26);
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, tmp.Sub("db"), &db).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "big", big).ok());
    ASSERT_TRUE(db->Put(WriteOptions(), "small", "x").ok());
    ASSERT_TRUE(db->Close().ok());
  }
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, tmp.Sub("db"), &db).ok());
  std::string v;
  Status s = db->Get(ReadOptions(), "big", &v);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(v == big);
  ASSERT_TRUE(db->Put(WriteOptions(), "big", big.substr(1)).ok());
  ASSERT_TRUE(db->Flush().ok());
  s = db->Compact();
  EXPECT_TRUE(s.ok()) << "compactions over the segment keep working: " << s.ToString();
}

// 2. After a write error a segment writer kept every later entry in its open block.
TEST(Durability, ASegmentWriterBuffersNothingAfterAWriteError) {
  FaultEnv env;
  bool created;
  ASSERT_TRUE(env.CreateDirIfMissing("/fault/db", &created).ok());
  std::unique_ptr<WritableFile> f;
  ASSERT_TRUE(env.NewWritableFile("/fault/db/000001.seg", &f).ok());
  env.FailNth(FaultOp::kWrite, 1, FaultKind::kENOSPC);
  Options o;
  o.compression = Compression::kNone;
  SegmentWriter w(o, std::move(f));
  const std::string value(512, 'v');
  for (int i = 0; i < 20000; ++i) w.Add(Key(i), PackTag(i + 1, ValueType::kPut), value);  // 10 MiB
  EXPECT_FALSE(w.status().ok());
  EXPECT_LT(w.MemoryUsage(), size_t{1} << 20) << "entries after the error were buffered";
  Status s = w.Finish();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

// 2b. ... and a compaction over that writer ran to the end of its inputs instead of stopping.
TEST(Durability, ACompactionStopsAtItsFirstWriteError) {
  FaultEnv env;
  Options o;
  o.env = &env;
  o.durability = Durability::kNone;
  o.compaction_trigger = 0;
  o.compression = Compression::kNone;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, "/fault/db", &db).ok());
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 8000; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), std::string(512, 'a' + round)).ok());
    ASSERT_TRUE(db->Flush().ok());
  }
  env.FailNth(FaultOp::kWrite, 1, FaultKind::kENOSPC, ".seg");
  Status s = db->Compact();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  // The inputs hold 4 MiB of newest versions: a writer that kept them after the error shows here.
  EXPECT_LT(db->GetStats().compaction_peak_bytes, uint64_t{1} << 20);
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), Key(7), &v).ok()) << "reads keep working";
}

class WalRecoveryTest : public ::testing::Test {
 protected:
  // n single-key commits at kFull, then a copy of the directory as a crash leaves it.
  std::string WriteAndCrash(int n, Options o = FullOptions()) {
    std::unique_ptr<DB> db;
    EXPECT_TRUE(DB::Open(o, tmp_.Sub("db"), &db).ok());
    for (int i = 0; i < n; ++i) EXPECT_TRUE(db->Put(WriteOptions(), Key(i), "v" + std::to_string(i)).ok());
    std::string copy = tmp_.Sub("crashed");
    fs::copy(tmp_.Sub("db"), copy);
    fs::remove(copy + "/LOCK");
    return copy;
  }
  static Options FullOptions() {
    Options o;
    o.durability = Durability::kFull;
    o.delta_flush_entries = 1000;  // one WAL file
    return o;
  }
  test::TempDir tmp_;
};

// 3. A damaged record in the middle of the newest WAL was taken for a torn tail: Open dropped the
// acknowledged commits after it and deleted the WAL.
TEST_F(WalRecoveryTest, DamageBeforeTheLastRecordOfTheNewestWalIsCorruption) {
  std::string dir = WriteAndCrash(5);
  auto wals = FilesWithExt(dir, ".wal");
  ASSERT_EQ(wals.size(), 1u);
  std::string data = Slurp(wals[0]);
  const size_t record = data.size() / 5;  // five equal-sized records
  data[record + record / 2] ^= 0x40;      // inside record 2
  Spit(wals[0], data);
  std::unique_ptr<DB> db;
  Status s = DB::Open(FullOptions(), dir, &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(Slurp(wals[0]), data) << "the evidence is kept";
  EXPECT_TRUE(FilesWithExt(dir, ".seg").empty());
}

TEST_F(WalRecoveryTest, DamageInTheLastRecordIsATornTail) {
  std::string dir = WriteAndCrash(5);
  auto wals = FilesWithExt(dir, ".wal");
  std::string data = Slurp(wals[0]);
  data[data.size() - 2] ^= 0x40;
  Spit(wals[0], data);
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(FullOptions(), dir, &db).ok());
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), Key(3), &v).ok());
  EXPECT_TRUE(db->Get(ReadOptions(), Key(4), &v).IsNotFound());
}

// 4. A failed Open removed the segments the manifest did not list, before recovery succeeded.
TEST(Durability, OpenWithoutAManifestKeepsTheSegmentsAndFails) {
  test::TempDir tmp;
  const std::string dir = tmp.Sub("db");
  Options o;
  o.durability = Durability::kNormal;
  o.compaction_trigger = 0;
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir, &db).ok());
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < 100; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(round * 100 + i), "v").ok());
      ASSERT_TRUE(db->Flush().ok());
    }
    ASSERT_TRUE(db->Close().ok());
  }
  auto segs = FilesWithExt(dir, ".seg");
  ASSERT_EQ(segs.size(), 3u);
  fs::remove(dir + "/MANIFEST");
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, dir, &db);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(FilesWithExt(dir, ".seg"), segs) << "a failed Open removed segment files";
}

// 5. A new database at kNormal (or kNone) was not synced into its parent directory: a power cut
// took the whole database, every WAL-synced commit with it.
TEST(Durability, ANewNormalDatabaseSurvivesAPowerCutAfterItsWalSync) {
  FaultEnv env;
  Options o;
  o.env = &env;
  o.durability = Durability::kNormal;
  o.wal_sync_interval_ms = 2;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, "/fault/db", &db).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "v").ok());
  // Two syncer rounds after the last commit: the second one started after it.
  const uint64_t syncs = db->GetStats().wal_syncs;
  for (int i = 0; i < 5000 && db->GetStats().wal_syncs < syncs + 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_GE(db->GetStats().wal_syncs, syncs + 2);
  env.CutPower();
  db.reset();
  env.PowerLoss();
  ASSERT_TRUE(DB::Open(o, "/fault/db", &db).ok());
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, 100u);
}

// 6. A WAL file removed after a flush, brought back torn by a power cut, blocked Open when it was
// not the newest: the manifest did not say which WAL files were obsolete.
TEST(Durability, AnObsoleteWalThatCameBackTornIsSkipped) {
  test::TempDir tmp;
  const std::string dir = tmp.Sub("db");
  Options o;
  o.durability = Durability::kFull;
  std::string old_wal, old_bytes, new_wal, new_bytes;
  {
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir, &db).ok());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "first").ok());
    old_wal = FilesWithExt(dir, ".wal").at(0);
    old_bytes = Slurp(old_wal);
    ASSERT_TRUE(db->Flush().ok());
    ASSERT_FALSE(fs::exists(old_wal));
    for (int i = 10; i < 20; ++i) ASSERT_TRUE(db->Put(WriteOptions(), Key(i), "second").ok());
    new_wal = FilesWithExt(dir, ".wal").at(0);
    new_bytes = Slurp(new_wal);
    ASSERT_TRUE(db->Close().ok());
  }
  ASSERT_LT(old_wal, new_wal);
  Spit(old_wal, old_bytes.substr(0, old_bytes.size() - 3));  // came back with a torn tail
  Spit(new_wal, new_bytes);
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, dir, &db);
  ASSERT_TRUE(s.ok()) << s.ToString();
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, 20u);
  EXPECT_FALSE(fs::exists(old_wal));
}

}  // namespace
}  // namespace dbx
