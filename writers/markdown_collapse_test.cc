#include "writers/markdown_collapse.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "writers/sample_vps_study.h"

namespace dbxb {
namespace {

using testdata::StudyPhase;

TEST(CollapseTableTest, PairsCachedWithDiskBoundAndDivides) {
  const std::vector<PhaseResult> phases = testdata::VpsStudyPhases();
  auto rows = CollapseTable(phases);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].phase, "select-pk");
  EXPECT_EQ(rows[0].engine, "sqlite");
  ASSERT_TRUE(rows[0].ratio.has_value());
  EXPECT_NEAR(*rows[0].ratio, 150'000.0 / 3'000.0, 1e-9);
  EXPECT_EQ(rows[0].first, &phases[0]);   // cached
  EXPECT_EQ(rows[0].second, &phases[6]);  // disk-bound
  EXPECT_EQ(rows[1].engine, "postgres");
  EXPECT_FALSE(rows[1].ratio.has_value()) << "its disk-bound phase failed";
  EXPECT_EQ(rows[2].engine, "lmdb");
  EXPECT_FALSE(rows[2].ratio.has_value()) << "its disk-bound phase measured nothing";

  std::ostringstream md;
  WriteCollapseTables(rows, md);
  const std::string text = md.str();
  for (const char* part : {"## Cached vs disk-bound: sqlite-vps\n",
                           "| select-pk | sqlite | 150,000 | 3,000 | 50.0× | 6.00 µs | 300 µs | 12.0 µs | 700 µs |",
                           "| select-pk | lmdb | 300,000 | FAILED | — |",
                           "Disk-bound memory: cgroup-v1 memory.limit_in_bytes=1073741824.\n"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " not in\n" << text;
  for (const char* absent : {"range-scan", "insert"}) EXPECT_EQ(text.find(absent), std::string::npos) << absent;
}

TEST(CollapseTableTest, TwoSetsIgnoreTheirLabels) {
  std::vector<PhaseResult> run1 = {StudyPhase("select-pk", "dbx", "", 100'000, 1, 1)};
  std::vector<PhaseResult> run2 = {StudyPhase("select-pk", "dbx", "", 2'000, 1, 1),
                                   StudyPhase("update", "dbx", "", 1, 1, 1)};
  auto rows = CollapseTable(run1, run2);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*rows[0].ratio, 50.0);
}

TEST(CollapseTableTest, NothingWrittenWithoutPairs) {
  RunResults results;
  results.phases = {StudyPhase("select-pk", "dbx", "cached", 1, 1, 1)};
  std::ostringstream md;
  WriteCollapseTables(results, md);
  EXPECT_EQ(md.str(), "");
}

}  // namespace
}  // namespace dbxb
