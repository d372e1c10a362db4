// The RocksDB adapter runs RocksDB as db_bench does: every thread that calls it has RocksDB's per-thread
// perf counters off (PerfLevel kDisable), which RocksDB's own default (kEnableCount) has on. Its settle
// flushes the memtables before it waits for compactions: at durability none (no WAL) the SST files then
// hold every row written before it.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/perf_level.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/adapter_test_dir.h"
#include "adapters/rocksdb/rocksdb_compat.h"

namespace dbxb {
namespace {

class RocksdbAdapterTest : public AdapterTest {
 protected:
  void SetUp() override {
    AdapterTest::SetUp();
    AdapterOptions options;
    options.cache_bytes = 4ull << 20;
    options.durability = Durability::kNone;  // no WAL: unflushed rows are only in the memtable
    OpenAdapter("rocksdb", options);
  }
};

// Runs `call` on a new thread and returns that thread's perf level before and after it.
template <typename Call>
std::pair<rocksdb::PerfLevel, rocksdb::PerfLevel> PerfLevelAround(Call call) {
  std::pair<rocksdb::PerfLevel, rocksdb::PerfLevel> levels;
  std::thread t([&] {
    levels.first = rocksdb::GetPerfLevel();
    call();
    levels.second = rocksdb::GetPerfLevel();
  });
  t.join();
  return levels;
}

TEST_F(RocksdbAdapterTest, EveryCallingThreadRunsWithPerfCountersOff) {
  auto session = adapter_->NewSession();
  ASSERT_TRUE(session.ok());
  Session& s = **session;
  // A new thread starts with RocksDB's default, so each check below sees the adapter's doing.
  const auto writer = PerfLevelAround([&] { ASSERT_TRUE(s.Put("k", "v").ok()); });
  EXPECT_EQ(writer.first, rocksdb::PerfLevel::kEnableCount);
  EXPECT_EQ(writer.second, rocksdb::PerfLevel::kDisable);
  const auto reader = PerfLevelAround([&] {
    std::string value;
    ASSERT_TRUE(s.Get("k", &value).ok());
    EXPECT_EQ(value, "v");
  });
  EXPECT_EQ(reader.second, rocksdb::PerfLevel::kDisable);
  const auto batch = PerfLevelAround([&] {
    ASSERT_TRUE(s.Begin().ok());
    ASSERT_TRUE(s.Delete("k").ok());
    ASSERT_TRUE(s.Commit().ok());
  });
  EXPECT_EQ(batch.second, rocksdb::PerfLevel::kDisable);
  const auto counter = PerfLevelAround([&] {
    uint64_t n = 1;
    ASSERT_TRUE(s.Count(&n).ok());
    EXPECT_EQ(n, 0u);
  });
  EXPECT_EQ(counter.second, rocksdb::PerfLevel::kDisable);

  bool reported = false;
  for (const auto& [key, value] : adapter_->NativeSettings())
    reported = reported || (key == "perf_level" && value.find("kDisable") != std::string::npos);
  EXPECT_TRUE(reported) << "the perf level is recorded in the native settings";
}

// The rows a read-only RocksDB finds in a copy of the database directory taken now (no WAL is written
// at durability none, so only the SST files can hold them), and its active memtable's entry count.
std::pair<int, uint64_t> RowsInACopy(const std::filesystem::path& db, const std::filesystem::path& copy, int rows) {
  std::filesystem::copy(db, copy, std::filesystem::copy_options::recursive);
  std::unique_ptr<rocksdb::DB> reader;
  rocksdb::Status st = rocks::OpenForReadOnly(rocksdb::Options(), copy.string(), &reader);
  EXPECT_TRUE(st.ok()) << st.ToString();
  if (!st.ok()) return {-1, 0};
  int found = 0;
  std::string value;
  for (int i = 0; i < rows; ++i)
    if (reader->Get(rocksdb::ReadOptions(), "row" + std::to_string(i), &value).ok() && value == std::string(100, 'v'))
      ++found;
  uint64_t memtable_entries = 0;
  EXPECT_TRUE(reader->GetIntProperty("rocksdb.num-entries-active-mem-table", &memtable_entries));
  return {found, memtable_entries};
}

TEST_F(RocksdbAdapterTest, SettleFlushesTheMemtablesBeforeItWaits) {
  constexpr int kRows = 2000;  // about 250 KB: far below the write buffer, so nothing flushes by itself
  auto session = adapter_->NewSession();
  ASSERT_TRUE(session.ok());
  for (int i = 0; i < kRows; ++i) ASSERT_TRUE((*session)->Put("row" + std::to_string(i), std::string(100, 'v')).ok());
  EXPECT_EQ(RowsInACopy(dir_ / "db", dir_ / "before", kRows).first, 0) << "nothing is flushed before the settle";

  ASSERT_TRUE(adapter_->Settle().ok());
  const auto [found, memtable_entries] = RowsInACopy(dir_ / "db", dir_ / "after", kRows);
  EXPECT_EQ(found, kRows) << "every row is in an SST file after the settle";
  EXPECT_EQ(memtable_entries, 0u);
  std::string value;
  ASSERT_TRUE((*session)->Get("row0", &value).ok());
  EXPECT_EQ(value, std::string(100, 'v'));

  bool reported = false;
  for (const auto& [key, setting] : adapter_->NativeSettings())
    reported = reported || (key == "settle" && setting.find("DB::Flush") != std::string::npos);
  EXPECT_TRUE(reported) << "the native settings say the settle flushes";
}

// Two loads, each settled: the second settle's flush writes a second L0 file, which RocksDB's own policy
// leaves in L0 (below level0_file_num_compaction_trigger); the settle compacts the whole key range.
TEST_F(RocksdbAdapterTest, SettleCompactsTheWholeKeyRange) {
  auto session = adapter_->NewSession();
  ASSERT_TRUE(session.ok());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE((*session)->Put("row" + std::to_string(i), std::string(100, 'v')).ok());
  ASSERT_TRUE(adapter_->Settle().ok());
  for (int i = 1000; i < 2000; ++i) ASSERT_TRUE((*session)->Put("row" + std::to_string(i), std::string(100, 'v')).ok());
  ASSERT_TRUE(adapter_->Settle().ok());
  const std::filesystem::path copy = dir_ / "compacted";
  std::filesystem::copy(dir_ / "db", copy, std::filesystem::copy_options::recursive);
  std::unique_ptr<rocksdb::DB> reader;
  rocksdb::Status st = rocks::OpenForReadOnly(rocksdb::Options(), copy.string(), &reader);
  ASSERT_TRUE(st.ok()) << st.ToString();
  std::string level0;
  ASSERT_TRUE(reader->GetProperty("rocksdb.num-files-at-level0", &level0));
  EXPECT_EQ(level0, "0") << "the settle leaves no file in L0";
  std::vector<rocksdb::LiveFileMetaData> files;
  reader->GetLiveFilesMetaData(&files);
  EXPECT_EQ(files.size(), 1u) << "the two flushed files are merged into one";
  std::string value;
  ASSERT_TRUE(reader->Get(rocksdb::ReadOptions(), "row1999", &value).ok());
  EXPECT_EQ(value, std::string(100, 'v'));
}

// rocksdb.compression sets the blocks' compression, reported back from the open DB; a value that is not a
// compression, or one this librocksdb lacks, is a clear InvalidArgument and opens nothing.
TEST_F(RocksdbAdapterTest, CompressionOptionSetsTheBlocksCompression) {
  auto open = [&](const char* sub, std::string value) {
    AdapterOptions options;
    options.dir = (dir_ / sub).string();
    options.durability = Durability::kNone;
    options.native_options = {{"rocksdb.compression", std::move(value)}};
    return BuiltinAdapters().Find("rocksdb")->open(options);
  };
  auto setting = [](Adapter& adapter, const std::string& key) {
    for (const auto& [k, v] : adapter.NativeSettings())
      if (k == key) return v;
    return std::string("<missing>");
  };
  std::string library_default;
  ASSERT_TRUE(rocksdb::GetStringFromCompressionType(&library_default, rocksdb::Options().compression).ok());
  EXPECT_EQ(setting(*adapter_, "compression"), library_default) << "RocksDB's default without the option";
  for (const auto& [value, reported] :
       std::vector<std::pair<std::string, std::string>>{{"none", "kNoCompression"}, {"snappy", "kSnappyCompression"}}) {
    auto adapter = open(value.c_str(), value);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(setting(**adapter, "compression"), reported);
    auto session = (*adapter)->NewSession();
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE((*session)->Put("k", std::string(1000, 'v')).ok());
    ASSERT_TRUE((*adapter)->Settle().ok());
    std::string got;
    ASSERT_TRUE((*session)->Get("k", &got).ok());
    EXPECT_EQ(got, std::string(1000, 'v'));
    session->reset();
    EXPECT_TRUE((*adapter)->Close().ok());
  }
  auto bad = open("bad", "snapy");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsInvalidArgument());
  EXPECT_NE(bad.status().message().find("rocksdb.compression"), std::string::npos) << bad.status().ToString();
  EXPECT_NE(bad.status().message().find("'snapy'"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(std::filesystem::exists(dir_ / "bad")) << "a bad option opens nothing";
}

}  // namespace
}  // namespace dbxb
