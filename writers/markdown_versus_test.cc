#include "writers/markdown_versus.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/fixtures/sample_phases.h"
#include "writers/sample_vps_study.h"

namespace dbxb {
namespace {

using testdata::VpsPhase;

std::string Written(const RunResults& results) {
  std::ostringstream md;
  WriteSqliteVsPostgres(results, md);
  return md.str();
}

TEST(VersusTableTest, PairsSqliteWithPostgresPerDataSetAndDivides) {
  const std::vector<PhaseResult> phases = testdata::VpsStudyPhases();
  auto rows = VersusTable(phases);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].phase, "select-pk");
  EXPECT_EQ(rows[0].first, &phases[0]);   // sqlite
  EXPECT_EQ(rows[0].second, &phases[1]);  // postgres
  ASSERT_TRUE(rows[0].ratio.has_value());
  EXPECT_NEAR(*rows[0].ratio, 20'000.0 / 150'000.0, 1e-12);
  EXPECT_EQ(rows[1].phase, "update");
  EXPECT_NEAR(*rows[1].ratio, 2.0, 1e-12);
  EXPECT_EQ(rows[2].dataset, "disk-bound");
  EXPECT_FALSE(rows[2].ratio.has_value()) << "a failed phase has no ratio";

  RunResults results;
  results.phases = phases;
  const std::string text = Written(results);
  for (const char* part :
       {"## SQLite vs PostgreSQL: sqlite-vps\n",
        "| cached | select-pk | 150,000 | 20,000 | 0.133× | 6.00 µs | 48.0 µs | 12.0 µs | 90.0 µs |",
        "| disk-bound | select-pk | 3,000 | FAILED | — |",
        "On the cached data set: PostgreSQL was faster in 1 of 2 phases, SQLite in 1.\n",
        // select-pk was measured on both data sets: each engine's collapse (postgres's disk-bound failed).
        "| select-pk | 50.0× | — |"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " not in\n" << text;
  for (const char* absent : {"range-scan", "insert", "lmdb"}) EXPECT_EQ(text.find(absent), std::string::npos) << absent;
}

TEST(VersusTableTest, NothingWithoutBothEngines) {
  RunResults results;
  results.phases = {VpsPhase("select-pk", "sqlite", "cached", 1, 1, 1),
                    VpsPhase("select-pk", "lmdb", "cached", 1, 1, 1)};
  EXPECT_EQ(Written(results), "");
}

}  // namespace
}  // namespace dbxb
