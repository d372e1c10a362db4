// The RocksDB adapter runs RocksDB as db_bench does: every thread that calls it has RocksDB's per-thread
// perf counters off (PerfLevel kDisable), which RocksDB's own default (kEnableCount) has on.
#include <gtest/gtest.h>
#include <rocksdb/perf_level.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <thread>

#include "adapters/adapter.h"

namespace dbxb {
namespace {

class RocksdbAdapterTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-rocksdb-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    AdapterOptions options;
    options.dir = (dir_ / "db").string();
    options.cache_bytes = 4ull << 20;
    auto adapter = BuiltinAdapters().Find("rocksdb")->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    adapter_ = std::move(adapter).value();
  }
  void TearDown() override {
    if (adapter_ != nullptr) EXPECT_TRUE(adapter_->Close().ok());
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::filesystem::path dir_;
  std::unique_ptr<Adapter> adapter_;
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

}  // namespace
}  // namespace dbxb
