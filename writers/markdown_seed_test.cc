// The seed comparison section: nothing without a seed run; with one, the published figures, the
// replica's and the fair run's times in their columns with ranks, the contradicted claims, and every
// listed difference between the report's stated conditions and its code.
#include "writers/markdown_seed.h"

#include <gtest/gtest.h>

#include <sstream>

#include "records/seed_published.h"

namespace dbxb {
namespace {

BenchmarkResult Bench(const std::string& suite, const std::string& workload, const std::string& engine, double ns) {
  BenchmarkResult b;
  b.suite = suite;
  b.workload = workload;
  b.engine = engine;
  b.sampling_mode = SamplingMode::kFlat;
  b.estimates.mean.point = ns;
  return b;
}

std::string Render(const std::vector<const RunResults*>& runs) {
  std::ostringstream out;
  WriteSeedComparison(runs, out);
  return out.str();
}

TEST(MarkdownSeedTest, NothingWithoutASeedRun) {
  RunResults micro;
  micro.benchmarks.push_back(Bench("dbx-micro", "insert", "dbx", 1e6));
  EXPECT_EQ(Render({&micro}), "");
}

TEST(MarkdownSeedTest, ThreeColumnsSideBySideWithRanksClaimsAndDifferences) {
  RunResults seed, micro;
  seed.benchmarks.push_back(Bench("seed", "insert", "dbx-core", 20e6));
  seed.benchmarks.push_back(Bench("seed", "insert", "sqlite", 60e6));
  micro.benchmarks.push_back(Bench("dbx-micro", "insert", "dbx-core", 37e6));
  micro.benchmarks.push_back(Bench("dbx-micro", "insert", "dbx", 0.7e6));
  const std::string md = Render({&seed, &micro});
  EXPECT_NE(md.find("## The DBX team's comparison: published, replicated, fair"), std::string::npos);
  // dbx-core: published 25.21 ms (first of four), replica 20 ms (first of two), fair 37 ms (second of two).
  EXPECT_NE(md.find("| dbx-core | 25.21 ms ± 200.0 µs (#1) | 20.00 ms (#1) | 37.00 ms (#2) |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| sqlite | 29.40 ms ± 380.0 µs (#2) | 60.00 ms (#2) | — |"), std::string::npos) << md;
  EXPECT_NE(md.find("| dbx | — | — | 700.0 µs (#1) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| vs SQLite: INSERT 18% faster | 1.17× (sqlite 29.40 ms vs 25.21 ms) |"), std::string::npos) << md;
  for (const std::string& d : SeedConditionDifferences()) EXPECT_NE(md.find(d), std::string::npos) << d;
  EXPECT_NE(md.find("v0.2.0-beta"), std::string::npos);
}

}  // namespace
}  // namespace dbxb
