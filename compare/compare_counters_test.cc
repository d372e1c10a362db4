// compare/compare_counters.h: exact comparison of the deterministic counters and their gate, alone and
// through CompareRuns, whatever the timings did.
#include "compare/compare_counters.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/fixtures/compare/synthetic_runs.h"

namespace dbxb {
namespace {

ResourceUsage Usage(double fsyncs_per_commit, double write_bytes_per_op, uint64_t disk_bytes) {
  ResourceUsage u;
  u.operations = 1000;
  u.commits = 100;
  u.fsync_calls = static_cast<uint64_t>(fsyncs_per_commit * 100);
  u.fsyncs_per_commit = fsyncs_per_commit;
  u.io_write_bytes_per_op = write_bytes_per_op;
  u.io_write_bytes = static_cast<uint64_t>(write_bytes_per_op * 1000);
  u.disk_bytes = disk_bytes;
  return u;
}

const MetricComparison* Find(const std::vector<MetricComparison>& rows, const std::string& metric) {
  for (const MetricComparison& r : rows)
    if (r.metric == metric) return &r;
  return nullptr;
}

TEST(CompareCounter, EqualValuesAreNoChange) {
  MetricComparison row;
  CompareCounter(2.0, 2.0, CompareOptions{}, &row);
  EXPECT_EQ(row.outcome, Outcome::kCompared);
  EXPECT_EQ(row.verdict, Verdict::kNoChange);
  EXPECT_EQ(row.mean_change.point, 0.0);
  EXPECT_FALSE(row.over_threshold);
  EXPECT_EQ(row.baseline_count, 1u);
}

TEST(CompareCounter, DoubledFsyncsFailTheGateAndHalvedImprove) {
  MetricComparison worse;
  CompareCounter(1.0, 2.0, CompareOptions{}, &worse);
  EXPECT_EQ(worse.verdict, Verdict::kRegressed);
  EXPECT_DOUBLE_EQ(worse.mean_change.lower, 1.0);
  EXPECT_TRUE(worse.over_threshold);
  MetricComparison better;
  CompareCounter(2.0, 1.0, CompareOptions{}, &better);
  EXPECT_EQ(better.verdict, Verdict::kImproved);
  EXPECT_FALSE(better.over_threshold);
}

TEST(CompareCounter, SmallChangesStayWithinNoiseAndUnderTheGate) {
  MetricComparison row;
  CompareCounter(1000.0, 1010.0, CompareOptions{}, &row);  // +1 %: inside the 2 % noise band
  EXPECT_EQ(row.verdict, Verdict::kWithinNoise);
  EXPECT_FALSE(row.over_threshold);
  CompareCounter(1000.0, 1040.0, CompareOptions{}, &row);  // +4 %: regressed, under the 5 % gate
  EXPECT_EQ(row.verdict, Verdict::kRegressed);
  EXPECT_FALSE(row.over_threshold);
}

TEST(CompareCounter, FromZeroToSomeIsAnInfiniteRegression) {
  MetricComparison row;
  CompareCounter(0.0, 0.5, CompareOptions{}, &row);
  EXPECT_TRUE(std::isinf(row.mean_change.point));
  EXPECT_EQ(row.verdict, Verdict::kRegressed);
  EXPECT_TRUE(row.over_threshold);
  CompareCounter(0.0, 0.0, CompareOptions{}, &row);
  EXPECT_EQ(row.verdict, Verdict::kNoChange);
}

TEST(GatedCounters, LeaveOutFsyncsWithoutCommits) {
  ResourceUsage u = Usage(1.0, 64, 4096);
  EXPECT_EQ(GatedCounters(u).size(), 3u);
  u.fsyncs_per_commit.reset();
  const auto counters = GatedCounters(u);
  ASSERT_EQ(counters.size(), 2u);
  EXPECT_EQ(counters[0].first, "write_bytes_per_op");
  EXPECT_EQ(counters[1].first, "disk_bytes");
}

// Identical timings (same seed), but the current run syncs twice per commit: the gate fails on that
// row alone.
TEST(CompareRunsWithCounters, DoubledFsyncsPerCommitFailTheGateWhateverTheTimings) {
  RunResults base = testdata::SyntheticRun("host", {{"insert", "lmdb", 5000, 0.02}}, 7);
  RunResults cur = testdata::SyntheticRun("host", {{"insert", "lmdb", 5000, 0.02}}, 7);
  base.benchmarks[0].resources = Usage(1.0, 64, 1 << 20);
  cur.benchmarks[0].resources = Usage(2.0, 64, 1 << 20);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, CompareOptions{}, &report).ok());
  const MetricComparison* time = Find(report.rows, "time");
  ASSERT_NE(time, nullptr);
  EXPECT_FALSE(time->over_threshold);
  const MetricComparison* fsyncs = Find(report.rows, "fsyncs_per_commit");
  ASSERT_NE(fsyncs, nullptr);
  EXPECT_EQ(fsyncs->key.engine, "lmdb");
  EXPECT_TRUE(fsyncs->over_threshold);
  EXPECT_FALSE(Find(report.rows, "write_bytes_per_op")->over_threshold);
  EXPECT_FALSE(Find(report.rows, "disk_bytes")->over_threshold);
  EXPECT_EQ(report.RegressionsOverThreshold(), 1u);
  EXPECT_TRUE(report.GateFailed());
}

TEST(CompareRunsWithCounters, RecordsWithoutResourcesOnOneSideAddNoRows) {
  RunResults base = testdata::SyntheticRun("host", {{"get", "sqlite", 900, 0.02}}, 3);
  RunResults cur = testdata::SyntheticRun("host", {{"get", "sqlite", 900, 0.02}}, 3);
  cur.benchmarks[0].resources = Usage(0, 0, 4096);  // an older baseline file has none
  std::vector<MetricComparison> rows;
  CompareResourceCounters(base, cur, CompareOptions{}, &rows);
  EXPECT_TRUE(rows.empty());
}

TEST(CompareRunsWithCounters, PhasesAreComparedToo) {
  RunResults base = testdata::SyntheticRun("host", {}, 1, 10);
  RunResults cur = base;
  base.phases.push_back(testdata::SyntheticPhase("run", "rocksdb", 1000, 5000, 0.02, 10, 5));
  cur.phases.push_back(testdata::SyntheticPhase("run", "rocksdb", 1000, 5000, 0.02, 10, 5));
  base.phases[0].resources = Usage(0.0, 100, 1 << 20);
  cur.phases[0].resources = Usage(0.0, 300, 1 << 20);  // three times the bytes written per operation
  std::vector<MetricComparison> rows;
  CompareResourceCounters(base, cur, CompareOptions{}, &rows);
  const MetricComparison* written = Find(rows, "write_bytes_per_op");
  ASSERT_NE(written, nullptr);
  EXPECT_EQ(written->key.phase, "run");
  EXPECT_DOUBLE_EQ(written->mean_change.point, 2.0);
  EXPECT_TRUE(written->over_threshold);
  EXPECT_EQ(Find(rows, "fsyncs_per_commit")->verdict, Verdict::kNoChange);
}

}  // namespace
}  // namespace dbxb
