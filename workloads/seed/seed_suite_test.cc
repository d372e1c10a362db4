// The seed's closures on every engine that offers them: each body does what it says on the data set it
// was given (insert runs, get finds every key, scan returns every row, the loaded store reads back
// exactly the rows), and the suite runs exactly the seed's engines.
#include "workloads/seed/seed_suite.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "adapters/adapter_test_dir.h"
#include "adapters/seed_replica.h"
#include "workloads/dataset.h"

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

INSTANTIATE_TEST_SUITE_P(Engines, SeedReplicaTest, testing::ValuesIn(EnginesWithReplica()),
                         [](const auto& info) { return TestName(info.param); });

}  // namespace
}  // namespace dbxb
