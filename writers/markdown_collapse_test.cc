#include "writers/markdown_collapse.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/fixtures/sample_phases.h"

namespace dbxb {
namespace {

// A disk-bound phase says how its memory was limited, as the runner records it.
PhaseResult Phase(std::string phase, std::string engine, std::string dataset, double ops_per_sec, double p50_ns,
                  double p99_ns) {
  PhaseResult p =
      testdata::VpsPhase(std::move(phase), std::move(engine), std::move(dataset), ops_per_sec, p50_ns, p99_ns);
  if (p.dataset == "disk-bound") p.memory_method = "cgroup-v1 memory.limit_in_bytes=1073741824";
  return p;
}

TEST(CollapseTableTest, PairsCachedWithDiskBoundAndDivides) {
  std::vector<PhaseResult> phases = {
      Phase("select-pk", "sqlite", "cached", 155'000, 6'000, 12'000),
      Phase("range-scan", "sqlite", "cached", 40'000, 20'000, 50'000),
      Phase("select-pk", "lmdb", "cached", 300'000, 3'000, 6'000),
      Phase("select-pk", "sqlite", "disk-bound", 3'600, 265'000, 715'000),
      Phase("select-pk", "lmdb", "disk-bound", 0, 0, 0),     // measured nothing: no ratio
      Phase("update", "sqlite", "disk-bound", 3'000, 1, 1),  // no cached partner: left out
  };
  phases[4].error_occurred = true;
  phases[4].error_message = "Corruption: row 5";
  auto rows = CollapseTable(phases);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].phase, "select-pk");
  EXPECT_EQ(rows[0].engine, "sqlite");
  ASSERT_TRUE(rows[0].ratio.has_value());
  EXPECT_NEAR(*rows[0].ratio, 155'000.0 / 3'600.0, 1e-9);
  EXPECT_EQ(rows[0].first, &phases[0]);   // cached
  EXPECT_EQ(rows[0].second, &phases[3]);  // disk-bound
  EXPECT_EQ(rows[1].engine, "lmdb");
  EXPECT_FALSE(rows[1].ratio.has_value());

  std::ostringstream md;
  WriteCollapseTables(rows, md);
  const std::string text = md.str();
  for (const char* part : {"## Cached vs disk-bound: sqlite-vps\n",
                           "| select-pk | sqlite | 155,000 | 3,600 | 43.1× | 6.00 µs | 265 µs | 12.0 µs | 715 µs |",
                           "| select-pk | lmdb | 300,000 | FAILED | — |",
                           "Disk-bound memory: cgroup-v1 memory.limit_in_bytes=1073741824.\n"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " not in\n" << text;
  EXPECT_EQ(text.find("range-scan"), std::string::npos);
}

TEST(CollapseTableTest, TwoSetsIgnoreTheirLabels) {
  std::vector<PhaseResult> run1 = {Phase("select-pk", "dbx", "", 100'000, 1, 1)};
  std::vector<PhaseResult> run2 = {Phase("select-pk", "dbx", "", 2'000, 1, 1), Phase("update", "dbx", "", 1, 1, 1)};
  auto rows = CollapseTable(run1, run2);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(*rows[0].ratio, 50.0);
}

TEST(CollapseTableTest, NothingWrittenWithoutPairs) {
  RunResults results;
  results.phases = {Phase("select-pk", "dbx", "cached", 1, 1, 1)};
  std::ostringstream md;
  WriteCollapseTables(results, md);
  EXPECT_EQ(md.str(), "");
}

}  // namespace
}  // namespace dbxb
