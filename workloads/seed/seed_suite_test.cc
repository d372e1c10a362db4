// The seed's closures on every engine that offers them: each body does what it says on the data set it
// was given (insert runs, get finds every key, scan returns every row, the loaded store reads back
// exactly the rows), and the suite runs exactly the seed's engines.
#include "workloads/seed/seed_suite.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "adapters/adapter_test_dir.h"
#include "adapters/seed_replica.h"
#include "workloads/dataset.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

std::vector<std::string> EnginesWithReplica() {
  std::vector<std::string> names;
  for (const AdapterFactory& f : BuiltinAdapters().factories())
    if (f.seed_replica) names.push_back(f.name);
  return names;
}

TEST(SeedSuiteTest, ReplicasAreTheSeedsEngines) {
  std::vector<std::string> expected = {"sqlite"};
  if (BuiltinAdapters().Find("dbx-core") != nullptr) expected = {"dbx-core", "sled", "redb", "sqlite"};
  std::vector<std::string> engines;  // a build variant (sqlite@debian) has its engine's replica too
  for (const std::string& name : EnginesWithReplica())
    if (InDefaultEngines(*BuiltinAdapters().Find(name))) engines.push_back(name);
  EXPECT_EQ(engines, expected);
  EXPECT_EQ(SeedWorkloadNames(), (std::vector<std::string>{"insert", "get", "scan"}));
}

class SeedReplicaTest : public TempDirTest, public testing::WithParamInterface<std::string> {};

TEST_P(SeedReplicaTest, BodiesInsertGetScanAndReadBackTheDataSet) {
  DatasetShape shape;
  shape.records = 300;
  auto data = Dataset::Make(shape);
  ASSERT_TRUE(data.ok());
  const Dataset& rows = *data.value();
  auto replica = BuiltinAdapters().Find(GetParam())->seed_replica(dir_.string(), rows);
  ASSERT_TRUE(replica.ok()) << replica.status().ToString();
  SeedReplica& r = *replica.value();
  uint64_t n = 0;
  EXPECT_FALSE(r.GetAll(&n).ok()) << "get before load";
  for (int i = 0; i < 2; ++i) {
    Status s = r.Insert();
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  ASSERT_TRUE(r.Load().ok());
  ASSERT_TRUE(r.GetAll(&n).ok());
  EXPECT_EQ(n, rows.size());
  ASSERT_TRUE(r.ScanAll(&n).ok());
  EXPECT_EQ(n, rows.size());
  uint64_t i = 0;
  bool same = true;
  ASSERT_TRUE(r.ReadBack([&](std::string_view k, std::string_view v) {
                 same &= i < rows.size() && k == rows.key(i) && v == rows.value(i);
                 ++i;
                 return true;
               }).ok());
  EXPECT_TRUE(same);
  EXPECT_EQ(i, rows.size());
  Settings d = r.Describe();
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].first, "insert");
  replica.value().reset();
  // The insert bodies' temporary directories are gone; only the loaded store's (dropped with the replica) was left.
  EXPECT_TRUE(std::filesystem::is_empty(dir_)) << "the replica left files in its directory";
}

// Only --workloads is given: every typed getter leaves its value unchanged.
class WorkloadsOnly final : public SuiteArgs {
 public:
  explicit WorkloadsOnly(std::string workloads) { text_["workloads"] = std::move(workloads); }
  const std::string& Text(std::string_view option) const override {
    static const std::string none;
    auto it = text_.find(std::string(option));
    return it == text_.end() ? none : it->second;
  }
  Status Count(std::string_view, uint64_t, uint64_t, uint64_t*) const override { return Status::Ok(); }
  Status Bytes(std::string_view, uint64_t*) const override { return Status::Ok(); }
  Status Duration(std::string_view, double, double*) const override { return Status::Ok(); }
  Status Rate(std::string_view, double*) const override { return Status::Ok(); }

 private:
  std::map<std::string, std::string> text_;
};

// Sets each benchmark up and records the bytes it reports on disk, without sampling it.
class DiskBytesRunner final : public SuiteRunner {
 public:
  bool interrupted() const override { return false; }
  bool RunBenchmark(const std::string&, const AdapterFactory& engine, const KeyValues&, const SamplingConfig&,
                    const MakeBenchmark& make) override {
    auto bench = make();
    EXPECT_TRUE(bench.ok()) << bench.status().ToString();
    if (!bench.ok()) return true;
    Status up = bench.value()->SetUp();
    EXPECT_TRUE(up.ok()) << up.ToString();
    disk_bytes[engine.name] = bench.value()->disk_bytes();
    EXPECT_TRUE(bench.value()->TearDown().ok());
    return true;
  }
  void MeasureOverhead(const MakeBenchmark&, const SamplingConfig&) override {}
  Status RunSequences(const AdapterFactory&, Result<std::vector<std::unique_ptr<PhaseSequence>>>) override {
    return Status::Ok();
  }
  std::map<std::string, uint64_t> disk_bytes;
};

// The seed's stores that live in files (sled's directory, redb's file) are measured on disk; the
// in-memory ones (dbx-core's open_in_memory, SQLite's :memory:) take none.
class SeedSuiteDiskTest : public TempDirTest {};

TEST_F(SeedSuiteDiskTest, FileBackedStoresReportTheirBytesOnDisk) {
  SuiteCommon common;
  for (const std::string& name : EnginesWithReplica()) common.engines.push_back(BuiltinAdapters().Find(name));
  auto plan = NewSeedSuite()->Plan(WorkloadsOnly("get"), common);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  DiskBytesRunner runner;
  ASSERT_TRUE(plan.value()->Execute(dir_.string(), runner).ok());
  for (const auto& [engine, bytes] : runner.disk_bytes) {
    SCOPED_TRACE(engine);
    if (engine == "sled" || engine == "redb")
      EXPECT_GE(bytes, 10000u * (12 + 19)) << "the loaded store's files hold at least its rows";
    else
      EXPECT_EQ(bytes, 0u) << "an in-memory store";
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, SeedReplicaTest, testing::ValuesIn(EnginesWithReplica()),
                         [](const auto& info) { return TestName(info.param); });

}  // namespace
}  // namespace dbxb
