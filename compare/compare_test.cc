// One run per side (CompareRuns): matching, what is reported instead of compared, the within-run
// intervals, the between-run allowance that one run per side cannot measure, and the exact families.
#include "compare/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compare/compare_runs.h"
#include "tests/fixtures/compare/synthetic_runs.h"

namespace dbxb {
namespace {

using testdata::SyntheticPhase;
using testdata::SyntheticRun;

CompareOptions Fast() {
  CompareOptions o;
  o.resamples = 2000;
  return o;
}

CompareOptions WithFloor(double floor) {
  CompareOptions o = Fast();
  o.noise_floor = floor;
  return o;
}

const MetricComparison* FindRow(const ComparisonReport& report, const std::string& name, const std::string& metric) {
  for (const MetricComparison& row : report.rows)
    if (row.key.Name() == name && row.metric->name == metric) return &row;
  return nullptr;
}

TEST(BenchmarkKeyTest, ParameterOrderDoesNotMatter) {
  BenchmarkResult a;
  a.suite = "dbx-micro";
  a.workload = "get";
  a.engine = "lmdb";
  a.parameters = {{"records", "10"}, {"key_size", "12"}};
  BenchmarkResult b = a;
  std::reverse(b.parameters.begin(), b.parameters.end());
  EXPECT_EQ(BenchmarkKey::Of(a), BenchmarkKey::Of(b));
  b.parameters[0].second = "13";
  EXPECT_FALSE(BenchmarkKey::Of(a) == BenchmarkKey::Of(b));
}

TEST(CompareOptionsTest, Validation) {
  auto bad = [](void (*spoil)(CompareOptions&)) {
    CompareOptions o;
    spoil(o);
    return ValidateCompareOptions(o).IsInvalidArgument();
  };
  EXPECT_FALSE(bad([](CompareOptions&) {}));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.significance = 0; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.significance = 0.5; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.max_regression = -0.01; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.max_regression = INFINITY; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.max_instruction_regression = NAN; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.noise_floor = -0.1; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.noise_floor = NAN; }));
  EXPECT_FALSE(bad([](CompareOptions& o) { o.noise_floor = INFINITY; }));  // unknown: the default
  EXPECT_TRUE(bad([](CompareOptions& o) { o.resamples = 0; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.looks = 0; }));
}

TEST(OneRunPerSide, WithoutAnAllowanceTimingRowsAreInconclusive) {
  // A 30 % slowdown with tight samples: the within-run interval alone would call it regressed, but one
  // run per side cannot see the noise between runs (±35 % here between runs a few seconds apart).
  const RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}}, 1);
  const RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1300, 0.01}}, 2);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  const MetricComparison* time = FindRow(report, "dbx-micro/get/sqlite", "time");
  ASSERT_NE(time, nullptr);
  EXPECT_NEAR(time->change.point, 0.3, 0.02);
  EXPECT_EQ(time->verdict, Verdict::kInconclusive);
  EXPECT_DOUBLE_EQ(time->change.lower, -1);
  EXPECT_TRUE(std::isinf(time->change.upper));
  EXPECT_FALSE(report.GateFailed());
  report.options.fail_on_inconclusive = true;
  EXPECT_TRUE(report.GateFailed());
}

TEST(OneRunPerSide, ANoiseFloorWidensTheWithinRunInterval) {
  const RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}}, 1);
  const RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1300, 0.01}}, 2);
  ComparisonReport none, floor;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &none).ok());
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0.1), &floor).ok());
  const MetricComparison& a = *FindRow(none, "dbx-micro/get/sqlite", "time");
  const MetricComparison& b = *FindRow(floor, "dbx-micro/get/sqlite", "time");
  EXPECT_EQ(a.verdict, Verdict::kRegressed);
  EXPECT_DOUBLE_EQ(b.allowance, 0.1);
  EXPECT_NEAR(b.change.lower, (1 + a.change.lower) / 1.1 - 1, 1e-12);
  EXPECT_NEAR(b.change.upper, (1 + a.change.upper) * 1.1 - 1, 1e-12);
  EXPECT_EQ(b.verdict, Verdict::kRegressed);  // +30 % is beyond 5 % even with a 10 % floor
  ComparisonReport wide;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0.3), &wide).ok());
  EXPECT_EQ(FindRow(wide, "dbx-micro/get/sqlite", "time")->verdict, Verdict::kInconclusive);
}

TEST(OneRunPerSide, AaCalibratedFloorsApplyPerRow) {
  const RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}, {"get", "lmdb", 500, 0.01}}, 1);
  const RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1300, 0.01}, {"get", "lmdb", 650, 0.01}}, 2);
  CompareOptions o = Fast();
  o.calibrated_floors = {{RowId(BenchmarkKey::Of(cur.benchmarks[0]), "time"), 0.02}};
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, o, &report).ok());
  EXPECT_EQ(FindRow(report, "dbx-micro/get/sqlite", "time")->verdict, Verdict::kRegressed);
  EXPECT_DOUBLE_EQ(FindRow(report, "dbx-micro/get/sqlite", "time")->allowance, 0.02);
  EXPECT_EQ(FindRow(report, "dbx-micro/get/lmdb", "time")->verdict, Verdict::kInconclusive);  // not calibrated
}

TEST(OneRunPerSide, TypicalAndMeanRowsFromTheSamples) {
  // 30 % of the current samples take 50 % longer: the median does not move, the mean does.
  RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}}, 1, 40);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}}, 2, 40);
  for (size_t i = 0; i < 40; i += 10)
    for (size_t k = 0; k < 3; ++k) cur.benchmarks[0].samples[i + k].total_ns *= 1.5;
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &report).ok());
  const MetricComparison& typical = *FindRow(report, "dbx-micro/get/sqlite", "time");
  const MetricComparison& mean = *FindRow(report, "dbx-micro/get/sqlite", "time_mean");
  EXPECT_NEAR(typical.change.point, 0, 0.02);
  EXPECT_NE(typical.verdict, Verdict::kRegressed);
  EXPECT_NEAR(mean.change.point, 0.15, 0.02);
  EXPECT_EQ(mean.verdict, Verdict::kRegressed);
  EXPECT_EQ(typical.baseline.count, 40u);
}

TEST(OneRunPerSide, MatchesByKeyAndNamesWhatExistsOnOneSide) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}, {"scan", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "lmdb"}, {"get", "sqlite"}, {"insert", "sqlite"}}, 2);
  std::reverse(cur.benchmarks[0].parameters.begin(), cur.benchmarks[0].parameters.end());  // order is irrelevant
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  // Two compared benchmarks with a typical and a mean row each, then one row per one-sided record.
  ASSERT_EQ(report.rows.size(), 6u);
  EXPECT_EQ(report.rows[0].key.Name(), "dbx-micro/get/lmdb");
  EXPECT_EQ(report.rows[0].metric->name, "time");
  EXPECT_EQ(report.rows[1].metric->name, "time_mean");
  EXPECT_EQ(report.rows[2].key.Name(), "dbx-micro/get/sqlite");
  EXPECT_EQ(report.rows[4].key.Name(), "dbx-micro/insert/sqlite");
  EXPECT_EQ(report.rows[4].outcome, Outcome::kOnlyInCurrent);
  EXPECT_TRUE(std::isnan(report.rows[4].baseline.value));
  EXPECT_GT(report.rows[4].current.value, 0);
  EXPECT_EQ(report.rows[5].key.Name(), "dbx-micro/scan/sqlite");
  EXPECT_EQ(report.rows[5].outcome, Outcome::kOnlyInBaseline);
  EXPECT_EQ(report.Count(Outcome::kCompared), 4u);
}

TEST(OneRunPerSide, FailedBenchmarksAreReportedNotCompared) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 2);
  cur.benchmarks[0].error_occurred = true;
  cur.benchmarks[0].error_message = "Corruption: wrong value for key_00000042";
  cur.benchmarks[0].samples.clear();
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  EXPECT_EQ(report.rows[0].outcome, Outcome::kFailed);
  EXPECT_EQ(report.rows[0].note, "failed in current: Corruption: wrong value for key_00000042");
  EXPECT_EQ(report.rows[1].outcome, Outcome::kCompared);
  base.benchmarks[0].error_occurred = true;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  EXPECT_EQ(report.rows[0].note,
            "failed in baseline: no reason recorded; failed in current: Corruption: wrong value for key_00000042");
}

TEST(OneRunPerSide, NothingInCommonIsAnInputError) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"scan", "sqlite"}}, 2);
  ComparisonReport report;
  report.baseline.source = "a.json";
  report.current.source = "b.json";
  Status st = CompareRuns(base, cur, Fast(), &report);
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_NE(st.message().find("no benchmark in common"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("baseline a.json"), std::string::npos) << st.message();
  EXPECT_TRUE(CompareRuns(RunResults{}, RunResults{}, Fast(), &report).IsInvalidArgument());
}

TEST(OneRunPerSide, UnusableDataIsAnInputErrorNamingTheBenchmark) {
  const RunResults good = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  struct Case {
    const char* what;
    void (*spoil)(BenchmarkResult*);
  };
  const Case cases[] = {
      {"1 sample", [](BenchmarkResult* b) { b->samples.resize(1); }},
      {"samples[3] has zero iterations", [](BenchmarkResult* b) { b->samples[3].iterations = 0; }},
      {"samples[2] has a time that is not finite", [](BenchmarkResult* b) { b->samples[2].total_ns = NAN; }},
      {"samples[4] has a time that is not finite", [](BenchmarkResult* b) { b->samples[4].total_ns = 0; }},
      {"appears twice", [](BenchmarkResult* b) { b->engine = "sqlite"; }},
  };
  for (const Case& c : cases) {
    RunResults bad = good;
    c.spoil(&bad.benchmarks[1]);
    ComparisonReport report;
    report.current.source = "cur.json";
    Status st = CompareRuns(good, bad, Fast(), &report);
    ASSERT_TRUE(st.IsInvalidArgument()) << c.what;
    EXPECT_NE(st.message().find(c.what), std::string::npos) << st.message();
    EXPECT_EQ(st.message().rfind("current cur.json: ", 0), 0u) << st.message();
    report = ComparisonReport{};
    EXPECT_TRUE(CompareRuns(bad, good, Fast(), &report).IsInvalidArgument()) << c.what;
  }
}

TEST(OneRunPerSide, DeterministicAndIndependentOfOrder) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1020}, {"get", "lmdb", 990}}, 2);
  ComparisonReport a, b, c;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &a).ok());
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &b).ok());
  EXPECT_EQ(a.rows[0].change, b.rows[0].change);
  std::reverse(cur.benchmarks.begin(), cur.benchmarks.end());
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &c).ok());
  EXPECT_EQ(c.rows[2].key, a.rows[0].key);
  EXPECT_EQ(c.rows[2].change, a.rows[0].change);
  EXPECT_EQ(c.rows[3].change, a.rows[1].change);
}

TEST(OneRunPerSide, WarnsAboutDifferentMachinesBuildsAndLibraries) {
  RunResults base = SyntheticRun("host-a", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host-a", {{"get", "sqlite"}}, 2);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  EXPECT_TRUE(report.warnings.empty());
  cur.context.host_name = "host-b";
  cur.context.build_type = "Debug";
  cur.context.libraries[0].version = "SQLite 3.45.0";
  cur.context.incomplete = true;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  ASSERT_EQ(report.warnings.size(), 4u);
  EXPECT_NE(report.warnings[0].find("different machines"), std::string::npos);
  EXPECT_NE(report.warnings[1].find("built differently"), std::string::npos);
  EXPECT_NE(report.warnings[2].find("SQLite 3.45.0"), std::string::npos);
  EXPECT_NE(report.warnings[3].find("interrupted"), std::string::npos);
  EXPECT_EQ(report.current.host_name, "host-b");
}

TEST(OneRunPerSide, SeedDependsOnTheBenchmarkNotItsPosition) {
  BenchmarkKey a{"s", "get", "lmdb", {{"records", "10"}}};
  BenchmarkKey b = a;
  b.engine = "sqlite";
  EXPECT_EQ(ComparisonSeed(0, a, "time"), ComparisonSeed(0, a, "time"));
  EXPECT_NE(ComparisonSeed(0, a, "time"), ComparisonSeed(0, b, "time"));
  EXPECT_NE(ComparisonSeed(0, a, "time"), ComparisonSeed(1, a, "time"));
  EXPECT_NE(ComparisonSeed(0, a, "time"), ComparisonSeed(0, a, "p99"));
}

RunResults PhaseRun(std::vector<PhaseResult> phases) {
  RunResults r = SyntheticRun("host", {}, 0);
  r.phases = std::move(phases);
  return r;
}

TEST(OneRunPerSide, PhaseThroughputDropAndLatencyRiseWithAKnownFloor) {
  RunResults base = PhaseRun({SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 60, 1),
                              SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 60, 3)});
  RunResults cur = PhaseRun({SyntheticPhase("run", "sqlite", 16000, 150000, 0.02, 60, 11),  // -20 % ops/s
                             SyntheticPhase("run", "lmdb", 50000, 80000, 0.02, 60, 13)});   // p99 x 2
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0.05), &report).ok());
  const MetricComparison* tput = FindRow(report, "ycsb/workloada/cached/run/sqlite", "throughput");
  ASSERT_NE(tput, nullptr);
  EXPECT_NEAR(tput->change.point, -0.2, 0.02);
  EXPECT_EQ(tput->verdict, Verdict::kRegressed);
  const MetricComparison* p99 = FindRow(report, "ycsb/workloada/cached/run/lmdb", "p99");
  EXPECT_EQ(p99->verdict, Verdict::kRegressed);
  EXPECT_NE(FindRow(report, "ycsb/workloada/cached/run/lmdb", "throughput")->verdict, Verdict::kRegressed);
  EXPECT_EQ(tput->baseline.count, 60u);  // seconds
}

TEST(OneRunPerSide, APhaseOfFewerThanTenWholeSecondsIsInconclusive) {
  RunResults base = PhaseRun({SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 9, 1)});
  RunResults cur = PhaseRun({SyntheticPhase("run", "sqlite", 10000, 150000, 0.02, 9, 2)});  // halved
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0), &report).ok());
  const MetricComparison* tput = FindRow(report, "ycsb/workloada/cached/run/sqlite", "throughput");
  ASSERT_NE(tput, nullptr);
  EXPECT_EQ(tput->outcome, Outcome::kCompared);
  EXPECT_EQ(tput->verdict, Verdict::kInconclusive);
  EXPECT_NE(tput->note.find("9 whole seconds"), std::string::npos) << tput->note;
  EXPECT_EQ(report.Family(MetricFamily::kTiming).rows, 0u);  // decided without a test: not in the family
}

TEST(OneRunPerSide, CountersAreExactWhereTheWorkDeterminesThem) {
  RunResults base = SyntheticRun("host", {{"insert", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"insert", "sqlite"}}, 2);
  for (RunResults* r : {&base, &cur}) {
    ResourceUsage u;
    u.operations = 1000;
    u.cpu_ns_per_op = 900;
    u.fsyncs_per_commit = 1;
    u.disk_bytes = 4096;
    r->benchmarks[0].resources = u;
  }
  cur.benchmarks[0].resources->fsyncs_per_commit = 2;
  cur.benchmarks[0].resources->disk_bytes = 4096 * 1.08;  // +8 %: beyond the 5 % gate, exactly
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  const MetricComparison* fsyncs = FindRow(report, "dbx-micro/insert/sqlite", "fsyncs_per_commit");
  ASSERT_NE(fsyncs, nullptr);
  EXPECT_EQ(fsyncs->verdict, Verdict::kRegressed);
  EXPECT_DOUBLE_EQ(fsyncs->change.lower, 1);
  EXPECT_EQ(FindRow(report, "dbx-micro/insert/sqlite", "disk_bytes")->verdict, Verdict::kRegressed);
  EXPECT_EQ(FindRow(report, "dbx-micro/insert/sqlite", "write_bytes_per_op")->verdict, Verdict::kNoRegression);
  EXPECT_EQ(FindRow(report, "dbx-micro/insert/sqlite", "cpu")->verdict, Verdict::kInconclusive);  // timing
  EXPECT_TRUE(report.GateFailed());
  // Rows come family by family: timing, then counters.
  EXPECT_EQ(report.rows.back().metric->family, MetricFamily::kCounter);
}

TEST(OneRunPerSide, DurationBoundCountersNeedAnAllowance) {
  RunResults base = PhaseRun({SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 30, 1)});
  RunResults cur = PhaseRun({SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 30, 2)});
  for (RunResults* r : {&base, &cur}) {
    ResourceUsage u;
    u.operations = 100;
    u.fsyncs_per_commit = r == &base ? 0.50 : 0.535;  // +7 %: A/A spread of a concurrent phase
    r->phases[0].resources = u;
  }
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());  // 4 threads: duration-bound
  EXPECT_EQ(FindRow(report, "ycsb/workloada/cached/run/sqlite", "fsyncs_per_commit")->verdict, Verdict::kInconclusive);
  ASSERT_TRUE(CompareRuns(base, cur, WithFloor(0.08), &report).ok());
  EXPECT_NE(FindRow(report, "ycsb/workloada/cached/run/sqlite", "fsyncs_per_commit")->verdict, Verdict::kRegressed);
}

TEST(OneRunPerSide, InstructionCountsHaveTheirOwnGate) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  RunResults cur = base;
  auto count = [](RunResults* r, double sqlite, double lmdb) {
    r->benchmarks[0].instructions = InstructionCount{0, 3, 30000, sqlite, "valgrind-3.19.0 callgrind", ""};
    r->benchmarks[1].instructions = InstructionCount{0, 3, 30000, lmdb, "valgrind-3.19.0 callgrind", ""};
  };
  count(&base, 7000, 1800);
  count(&cur, 7140, 1801);  // sqlite +2 %, lmdb +0.06 %
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  EXPECT_EQ(report.Family(MetricFamily::kTiming).rows, 0u);  // counted runs' times are valgrind's
  EXPECT_EQ(FindRow(report, "dbx-micro/get/sqlite", "instructions")->verdict, Verdict::kRegressed);
  EXPECT_EQ(FindRow(report, "dbx-micro/get/lmdb", "instructions")->verdict, Verdict::kNoRegression);
  EXPECT_DOUBLE_EQ(report.Family(MetricFamily::kInstructions).threshold, 0.01);
  // A refused count is not compared as a number, but listed with its reason.
  cur.benchmarks[0].instructions->refused = "other threads ran";
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  const MetricComparison* refused = FindRow(report, "dbx-micro/get/sqlite", "instructions");
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->outcome, Outcome::kInsufficientData);
  EXPECT_EQ(refused->note, "count refused: other threads ran in the current run");
}

TEST(OneRunPerSide, TheTimingFamilyLevelIsBonferroni) {
  const RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}, {"scan", "lmdb"}}, 1);
  const RunResults cur = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}, {"scan", "lmdb"}}, 2);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, Fast(), &report).ok());
  EXPECT_EQ(report.Family(MetricFamily::kTiming).rows, 6u);
  EXPECT_DOUBLE_EQ(report.rows[0].level, 1 - 2 * 0.05 / 6);
}

TEST(RatioChange, CountsThatStartAtZero) {
  EXPECT_DOUBLE_EQ(RatioChange(2, 3), 0.5);
  EXPECT_DOUBLE_EQ(RatioChange(0, 0), 0);
  EXPECT_TRUE(std::isinf(RatioChange(0, 1)));
  EXPECT_DOUBLE_EQ(RatioChange(4, 0), -1);
}

}  // namespace
}  // namespace dbxb
