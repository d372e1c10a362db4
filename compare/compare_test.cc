#include "compare/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "stats/paired_stats.h"
#include "tests/fixtures/compare/synthetic_runs.h"

namespace dbxb {
namespace {

using testdata::SyntheticBenchmark;
using testdata::SyntheticRun;

// Fewer resamples than the default keep the tests fast; the verdicts are the same.
// The statistics of one run per side alone: no noise floor (NoiseFloorTest covers it).
CompareOptions FastOptions() {
  CompareOptions o;
  o.resamples = 2000;
  o.noise_floor = 0;
  return o;
}

Interval Change(double lower, double point, double upper) { return Interval{point, lower, upper, 0}; }

TEST(ClassifyTest, CriterionVerdictsForTimes) {
  const auto d = Direction::kLowerIsBetter;
  EXPECT_EQ(Classify(0.2, Change(0.08, 0.1, 0.12), d, 0.05, 0.02), Verdict::kNoChange);   // p decides first
  EXPECT_EQ(Classify(0.05, Change(0.08, 0.1, 0.12), d, 0.05, 0.02), Verdict::kNoChange);  // p == alpha
  EXPECT_EQ(Classify(0.01, Change(0.08, 0.1, 0.12), d, 0.05, 0.02), Verdict::kRegressed);
  EXPECT_EQ(Classify(0.01, Change(-0.12, -0.1, -0.08), d, 0.05, 0.02), Verdict::kImproved);
  EXPECT_EQ(Classify(0.01, Change(0.005, 0.01, 0.015), d, 0.05, 0.02), Verdict::kWithinNoise);
  EXPECT_EQ(Classify(0.01, Change(0.019, 0.05, 0.08), d, 0.05, 0.02), Verdict::kWithinNoise);  // reaches the band
  EXPECT_EQ(Classify(0.01, Change(-0.08, -0.05, -0.019), d, 0.05, 0.02), Verdict::kWithinNoise);
  EXPECT_EQ(Classify(0.01, Change(0.001, 0.002, 0.003), d, 0.05, 0), Verdict::kRegressed);  // no noise band
}

TEST(ClassifyTest, HigherIsBetterSwapsTheSides) {
  const auto d = Direction::kHigherIsBetter;
  EXPECT_EQ(Classify(0.01, Change(0.08, 0.1, 0.12), d, 0.05, 0.02), Verdict::kImproved);
  EXPECT_EQ(Classify(0.01, Change(-0.12, -0.1, -0.08), d, 0.05, 0.02), Verdict::kRegressed);
  EXPECT_EQ(Classify(0.01, Change(-0.01, 0, 0.01), d, 0.05, 0.02), Verdict::kWithinNoise);
}

TEST(ExceedsGateTest, OnlyWhenEvenTheFavourableBoundIsOverTheThreshold) {
  const auto t = Direction::kLowerIsBetter;
  EXPECT_TRUE(ExceedsGate(Verdict::kRegressed, Change(0.06, 0.1, 0.14), t, 0.05));
  EXPECT_FALSE(ExceedsGate(Verdict::kRegressed, Change(0.03, 0.08, 0.13), t, 0.05));   // point over, bound not
  EXPECT_FALSE(ExceedsGate(Verdict::kRegressed, Change(0.05, 0.08, 0.13), t, 0.05));   // strictly worse
  EXPECT_FALSE(ExceedsGate(Verdict::kWithinNoise, Change(0.06, 0.1, 0.14), t, 0.05));  // must have regressed
  EXPECT_FALSE(ExceedsGate(Verdict::kNoChange, Change(0.06, 0.1, 0.14), t, 0.05));
  const auto h = Direction::kHigherIsBetter;
  EXPECT_TRUE(ExceedsGate(Verdict::kRegressed, Change(-0.14, -0.1, -0.06), h, 0.05));
  EXPECT_FALSE(ExceedsGate(Verdict::kRegressed, Change(-0.14, -0.1, -0.04), h, 0.05));
}

TEST(BenchmarkKeyTest, ParameterOrderDoesNotMatter) {
  BenchmarkResult a, b;
  a.suite = b.suite = "s";
  a.workload = b.workload = "get";
  a.engine = b.engine = "lmdb";
  a.parameters = {{"records", "10"}, {"key_size", "12"}};
  b.parameters = {{"key_size", "12"}, {"records", "10"}};
  EXPECT_EQ(BenchmarkKey::Of(a), BenchmarkKey::Of(b));
  EXPECT_EQ(BenchmarkKey::Of(a).Name(), "s/get/lmdb");
  b.parameters[1].second = "11";
  EXPECT_FALSE(BenchmarkKey::Of(a) == BenchmarkKey::Of(b));
}

TEST(CompareOptionsTest, Validation) {
  EXPECT_TRUE(ValidateCompareOptions(CompareOptions{}).ok());
  auto bad = [](auto mutate) {
    CompareOptions o;
    mutate(o);
    return ValidateCompareOptions(o).IsInvalidArgument();
  };
  EXPECT_TRUE(bad([](CompareOptions& o) { o.significance = 0; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.significance = 1; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.noise_threshold = -0.01; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.noise_threshold = NAN; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.max_regression = INFINITY; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.confidence_level = 1; }));
  EXPECT_TRUE(bad([](CompareOptions& o) { o.resamples = 0; }));
}

struct ShiftCase {
  double shift;
  double cv;
  std::vector<Verdict> allowed;
  bool gate_fails;
};

// Known shifts under lognormal noise of 1-3 % CV, 100 samples per side, ten seeds each: the verdicts
// Criterion would give, and the gate only for the 10 % regression.
TEST(CompareRunsTest, KnownShiftsGiveTheExpectedVerdicts) {
  const std::vector<ShiftCase> cases = {
      {0.00, 0.01, {Verdict::kNoChange, Verdict::kWithinNoise}, false},
      {0.00, 0.03, {Verdict::kNoChange, Verdict::kWithinNoise}, false},
      {0.01, 0.01, {Verdict::kWithinNoise}, false},
      {0.01, 0.03, {Verdict::kNoChange, Verdict::kWithinNoise}, false},
      {0.04, 0.01, {Verdict::kRegressed}, false},  // a real regression, but within the 5 % gate
      {0.10, 0.01, {Verdict::kRegressed}, true},
      {0.10, 0.03, {Verdict::kRegressed}, true},
      {-0.10, 0.01, {Verdict::kImproved}, false},
      {-0.10, 0.03, {Verdict::kImproved}, false},
  };
  for (const ShiftCase& c : cases) {
    for (uint64_t seed = 0; seed < 10; ++seed) {
      SCOPED_TRACE(testing::Message() << "shift " << c.shift << ", cv " << c.cv << ", seed " << seed);
      RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, c.cv}}, 100 + seed);
      RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1000 * (1 + c.shift), c.cv}}, 200 + seed);
      ComparisonReport report;
      ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
      ASSERT_EQ(report.rows.size(), 1u);
      const MetricComparison& row = report.rows[0];
      EXPECT_EQ(row.outcome, Outcome::kCompared);
      EXPECT_NE(std::find(c.allowed.begin(), c.allowed.end(), row.verdict), c.allowed.end())
          << VerdictName(row.verdict) << ", change " << row.mean_change.point << " [" << row.mean_change.lower << ", "
          << row.mean_change.upper << "], p " << row.p_value;
      EXPECT_EQ(report.GateFailed(), c.gate_fails);
      EXPECT_NEAR(row.mean_change.point, c.shift, 4 * c.cv / 10 + 0.002);
      EXPECT_LE(row.mean_change.lower, row.mean_change.point);
      EXPECT_GE(row.mean_change.upper, row.mean_change.point);
      EXPECT_EQ(row.baseline_count, 100u);
    }
  }
}

// Two runs from one distribution must almost never fail the gate: over 200 pairs, at most 1 %.
TEST(CompareRunsTest, SameDistributionRarelyFailsTheGate) {
  int gate_failures = 0, regressed = 0, significant = 0;
  const int kPairs = 200;
  for (int i = 0; i < kPairs; ++i) {
    const double cv = 0.01 + 0.02 * (i % 3) / 2;  // 1 %, 2 %, 3 %
    RunResults base = SyntheticRun("host", {{"get", "lmdb", 500, cv}}, 10000 + 2 * i);
    RunResults cur = SyntheticRun("host", {{"get", "lmdb", 500, cv}}, 10001 + 2 * i);
    CompareOptions o = FastOptions();
    o.resamples = 1000;  // 200 comparisons: keep the test to about a second
    o.seed = i;
    ComparisonReport report;
    ASSERT_TRUE(CompareRuns(base, cur, o, &report).ok());
    gate_failures += report.GateFailed();
    regressed += report.rows[0].verdict == Verdict::kRegressed;
    significant += report.rows[0].p_value < o.significance;
  }
  std::cout << "same distribution, " << kPairs << " pairs: " << gate_failures << " gate failures, " << regressed
            << " regressed, " << significant << " with p < alpha\n";
  EXPECT_LE(gate_failures, kPairs / 100);
  EXPECT_LE(regressed, kPairs / 100);
  // The t-test itself still rejects at about its nominal rate: the noise band, not a deaf test,
  // keeps the gate quiet.
  EXPECT_GE(significant, 2);
  EXPECT_LE(significant, 20);
}

// With heavy noise a point change over the threshold is not enough: the gate waits until the
// favourable end of the interval is over it too.
TEST(CompareRunsTest, GateWaitsForTheInterval) {
  int point_over_bound_not = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    RunResults base = SyntheticRun("host", {{"scan", "sqlite", 1000, 0.15}}, 300 + seed, 20);
    RunResults cur = SyntheticRun("host", {{"scan", "sqlite", 1060, 0.15}}, 400 + seed, 20);
    ComparisonReport report;
    ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
    const MetricComparison& row = report.rows[0];
    EXPECT_EQ(row.over_threshold, row.verdict == Verdict::kRegressed && row.mean_change.lower > 0.05);
    EXPECT_EQ(report.GateFailed(), row.over_threshold);
    if (row.mean_change.point > 0.05 && row.mean_change.lower <= 0.05) {
      ++point_over_bound_not;
      EXPECT_FALSE(report.GateFailed());
    }
  }
  EXPECT_GE(point_over_bound_not, 3) << "the case must include point estimates over the threshold";
}

// One run per side: a regression over the gate but within the noise floor is unconfirmed.
TEST(NoiseFloorTest, RegressionWithinTheFloorIsUnconfirmed) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.01}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1080, 0.01}, {"get", "lmdb", 1000, 0.01}}, 2);
  base.benchmarks.push_back(SyntheticRun("host", {{"get", "lmdb", 800, 0.01}}, 3).benchmarks[0]);  // lmdb +25 %
  CompareOptions o = FastOptions();
  o.noise_floor = 0.10;
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, o, &report).ok());
  const MetricComparison& sqlite = report.rows[0];
  ASSERT_EQ(sqlite.key.engine, "sqlite");
  EXPECT_EQ(sqlite.verdict, Verdict::kRegressed);
  EXPECT_GT(sqlite.mean_change.lower, 0.05);  // over the 5 % gate ...
  EXPECT_TRUE(sqlite.unconfirmed);            // ... but not beyond the 10 % floor
  EXPECT_FALSE(sqlite.over_threshold);
  EXPECT_DOUBLE_EQ(sqlite.noise_floor, 0.10);
  const MetricComparison& lmdb = report.rows[1];
  EXPECT_TRUE(lmdb.over_threshold);  // +25 % is beyond the floor
  EXPECT_FALSE(lmdb.unconfirmed);
  EXPECT_EQ(report.Unconfirmed(), 1u);
  EXPECT_EQ(report.RegressionsOverThreshold(), 1u);

  // A calibrated floor replaces the declared one for its row.
  o.calibrated_floors = {{RowId(lmdb.key, "time"), 0.40}, {RowId(sqlite.key, "time"), 0.03}};
  ASSERT_TRUE(CompareRuns(base, cur, o, &report).ok());
  EXPECT_TRUE(report.rows[0].over_threshold);
  EXPECT_TRUE(report.rows[1].unconfirmed);
  EXPECT_DOUBLE_EQ(report.rows[1].noise_floor, 0.40);
}

// Holm: the verdicts use the p-values adjusted over every compared row.
TEST(CompareRunsTest, VerdictsUseHolmAdjustedP) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite", 1000, 0.2}, {"get", "lmdb", 1000, 0.01}}, 5, 10);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1150, 0.2}, {"get", "lmdb", 1000, 0.01}}, 6, 10);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 2u);
  std::vector<double> raw = {report.rows[0].p_value, report.rows[1].p_value};
  std::vector<double> holm = HolmAdjust(raw);
  EXPECT_DOUBLE_EQ(report.rows[0].p_adjusted, holm[0]);
  EXPECT_DOUBLE_EQ(report.rows[1].p_adjusted, holm[1]);
  EXPECT_GE(report.rows[0].p_adjusted, report.rows[0].p_value);
}

TEST(CompareRunsTest, MatchesByKeyAndNamesWhatExistsOnOneSide) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}, {"scan", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "lmdb"}, {"get", "sqlite"}, {"insert", "sqlite"}}, 2);
  std::reverse(cur.benchmarks[0].parameters.begin(), cur.benchmarks[0].parameters.end());  // order is irrelevant
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 4u);
  EXPECT_EQ(report.rows[0].key.Name(), "dbx-micro/get/lmdb");
  EXPECT_EQ(report.rows[0].outcome, Outcome::kCompared);
  EXPECT_EQ(report.rows[1].key.Name(), "dbx-micro/get/sqlite");
  EXPECT_EQ(report.rows[1].outcome, Outcome::kCompared);
  EXPECT_EQ(report.rows[2].key.Name(), "dbx-micro/insert/sqlite");
  EXPECT_EQ(report.rows[2].outcome, Outcome::kOnlyInCurrent);
  EXPECT_TRUE(std::isnan(report.rows[2].baseline_mean));
  EXPECT_GT(report.rows[2].current_mean, 0);
  EXPECT_EQ(report.rows[3].key.Name(), "dbx-micro/scan/sqlite");
  EXPECT_EQ(report.rows[3].outcome, Outcome::kOnlyInBaseline);
  EXPECT_EQ(report.Count(Outcome::kCompared), 2u);
}

TEST(CompareRunsTest, DifferentParametersAreDifferentBenchmarks) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 2);
  cur.benchmarks[0].parameters[0].second = "20000";
  base.benchmarks.push_back(cur.benchmarks[1]);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_EQ(report.rows[0].outcome, Outcome::kOnlyInCurrent);
  EXPECT_EQ(report.rows[1].outcome, Outcome::kCompared);
  EXPECT_EQ(report.rows[2].outcome, Outcome::kOnlyInBaseline);
}

TEST(CompareRunsTest, FailedBenchmarksAreReportedNotCompared) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 2);
  cur.benchmarks[0].error_occurred = true;
  cur.benchmarks[0].error_message = "Corruption: wrong value for key_00000042";
  cur.benchmarks[0].samples.clear();
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  EXPECT_EQ(report.rows[0].outcome, Outcome::kFailed);
  EXPECT_EQ(report.rows[0].note, "failed in current: Corruption: wrong value for key_00000042");
  EXPECT_GT(report.rows[0].baseline_mean, 0);
  EXPECT_TRUE(std::isnan(report.rows[0].current_mean));
  EXPECT_FALSE(report.rows[0].over_threshold);
  EXPECT_EQ(report.rows[1].outcome, Outcome::kCompared);
  base.benchmarks[0].error_occurred = true;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  EXPECT_EQ(report.rows[0].note,
            "failed in baseline: no reason recorded; failed in current: Corruption: wrong value for key_00000042");
}

TEST(CompareRunsTest, NothingInCommonIsAnInputError) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"scan", "sqlite"}}, 2);
  ComparisonReport report;
  report.baseline.source = "a.json";
  report.current.source = "b.json";
  Status st = CompareRuns(base, cur, FastOptions(), &report);
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_NE(st.message().find("no benchmark in common"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("baseline a.json"), std::string::npos) << st.message();
  EXPECT_TRUE(CompareRuns(RunResults{}, RunResults{}, FastOptions(), &report).IsInvalidArgument());
}

TEST(CompareRunsTest, UnusableDataIsAnInputErrorNamingTheBenchmark) {
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
    Status st = CompareRuns(good, bad, FastOptions(), &report);
    ASSERT_TRUE(st.IsInvalidArgument()) << c.what;
    EXPECT_NE(st.message().find(c.what), std::string::npos) << st.message();
    EXPECT_EQ(st.message().rfind("current cur.json: ", 0), 0u) << st.message();
    report = ComparisonReport{};
    EXPECT_TRUE(CompareRuns(bad, good, FastOptions(), &report).IsInvalidArgument()) << c.what;
  }
}

TEST(CompareRunsTest, DeterministicAndIndependentOfOrder) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}, {"get", "lmdb"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite", 1020}, {"get", "lmdb", 990}}, 2);
  ComparisonReport a, b, c;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &a).ok());
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &b).ok());
  EXPECT_EQ(a.rows[0].p_value, b.rows[0].p_value);
  EXPECT_EQ(a.rows[0].mean_change, b.rows[0].mean_change);
  std::reverse(cur.benchmarks.begin(), cur.benchmarks.end());
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &c).ok());
  EXPECT_EQ(c.rows[1].key, a.rows[0].key);
  EXPECT_EQ(c.rows[1].p_value, a.rows[0].p_value);
  EXPECT_EQ(c.rows[1].mean_change, a.rows[0].mean_change);
  EXPECT_EQ(c.rows[1].median_change, a.rows[0].median_change);
}

TEST(CompareRunsTest, WarnsAboutDifferentMachinesBuildsAndLibraries) {
  RunResults base = SyntheticRun("host-a", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host-a", {{"get", "sqlite"}}, 2);
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  EXPECT_TRUE(report.warnings.empty());
  cur.context.host_name = "host-b";
  cur.context.build_type = "Debug";
  cur.context.libraries[0].version = "SQLite 3.45.0";
  cur.context.incomplete = true;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.warnings.size(), 4u);
  EXPECT_NE(report.warnings[0].find("different machines"), std::string::npos);
  EXPECT_NE(report.warnings[1].find("built differently"), std::string::npos);
  EXPECT_NE(report.warnings[2].find("SQLite 3.45.0"), std::string::npos);
  EXPECT_NE(report.warnings[3].find("interrupted"), std::string::npos);
  EXPECT_EQ(report.current.host_name, "host-b");
}

TEST(CompareRunsTest, SeedDependsOnTheBenchmarkNotItsPosition) {
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

const MetricComparison* FindRow(const ComparisonReport& report, const std::string& name, const std::string& metric) {
  for (const MetricComparison& row : report.rows)
    if (row.key.Name() == name && row.metric == metric) return &row;
  return nullptr;
}

TEST(PhaseMatcherTest, ThroughputDropAndLatencyRiseAreRegressions) {
  using testdata::SyntheticPhase;
  RunResults base = PhaseRun({SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 60, 1),
                              SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 60, 3),
                              SyntheticPhase("load", "lmdb", 90000, 20000, 0.02, 60, 5)});
  RunResults cur = PhaseRun({SyntheticPhase("run", "sqlite", 18000, 150000, 0.02, 60, 11),  // 10 % fewer ops/s
                             SyntheticPhase("run", "lmdb", 55000, 44000, 0.02, 60, 13),     // faster, but p99 +10 %
                             SyntheticPhase("load", "lmdb", 90000, 20000, 0.02, 60, 15)});  // unchanged
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 6u);  // two metrics per phase

  const MetricComparison* sqlite_tput = FindRow(report, "ycsb/workloada/cached/run/sqlite", "throughput");
  ASSERT_NE(sqlite_tput, nullptr);
  EXPECT_EQ(sqlite_tput->direction, Direction::kHigherIsBetter);
  EXPECT_NEAR(sqlite_tput->mean_change.point, -0.1, 0.01);
  EXPECT_EQ(sqlite_tput->verdict, Verdict::kRegressed);
  EXPECT_TRUE(sqlite_tput->over_threshold);
  EXPECT_NE(FindRow(report, "ycsb/workloada/cached/run/sqlite", "p99")->verdict, Verdict::kRegressed);

  EXPECT_EQ(FindRow(report, "ycsb/workloada/cached/run/lmdb", "throughput")->verdict, Verdict::kImproved);
  const MetricComparison* lmdb_p99 = FindRow(report, "ycsb/workloada/cached/run/lmdb", "p99");
  EXPECT_EQ(lmdb_p99->direction, Direction::kLowerIsBetter);
  EXPECT_EQ(lmdb_p99->verdict, Verdict::kRegressed);
  EXPECT_TRUE(lmdb_p99->over_threshold);

  for (const char* metric : {"throughput", "p99"}) {
    const MetricComparison* load = FindRow(report, "ycsb/workloada/cached/load/lmdb", metric);
    EXPECT_TRUE(load->verdict == Verdict::kNoChange || load->verdict == Verdict::kWithinNoise) << metric;
    EXPECT_FALSE(load->over_threshold);
  }
  EXPECT_EQ(report.RegressionsOverThreshold(), 2u);
}

// A phase of `seconds` full seconds at `rate` plus a last partial interval of `tail_s` seconds at
// `tail_rate`; every second's p99 is `p99`, and the merged histogram's p99 is `merged_p99`.
PhaseResult HandPhase(double rate, int seconds, double tail_s, double tail_rate, double p99, double merged_p99) {
  PhaseResult p = testdata::SyntheticPhase("run", "lmdb", rate, p99, 0.0, 0, 1);
  for (int i = 0; i < seconds; ++i)
    p.per_second.push_back(SecondSample{static_cast<double>(i), static_cast<uint64_t>(rate), rate, p99});
  const auto tail_ops = static_cast<uint64_t>(tail_rate * tail_s);
  p.per_second.push_back(SecondSample{static_cast<double>(seconds), tail_ops, tail_rate, p99});
  p.operations = static_cast<uint64_t>(rate) * seconds + tail_ops;
  p.duration_ns = (seconds + tail_s) * 1e9;
  p.throughput_ops_per_sec = static_cast<double>(p.operations) / (seconds + tail_s);
  p.service_time.count = p.operations;
  p.service_time.p99_ns = merged_p99;
  return p;
}

TEST(PhaseMatcherTest, ThroughputIsThePhaseTotalWithThePartialIntervalWeightedByItsLength) {
  // 3 s at 1,000 ops/s and 0.1 s at 100 ops/s: 3,010 operations in 3.1 s = 970.97 ops/s (a mean of
  // the per-second rates would say 775).
  RunResults base = PhaseRun({HandPhase(1000, 3, 0.1, 100, 5000, 5000)});
  RunResults cur = PhaseRun({HandPhase(1000, 3, 0.1, 100, 5000, 5000)});
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  const MetricComparison* tput = FindRow(report, "ycsb/workloada/cached/run/lmdb", "throughput");
  ASSERT_NE(tput, nullptr);
  EXPECT_NEAR(tput->baseline_mean, 3010 / 3.1, 1e-9);
  EXPECT_EQ(tput->baseline_count, 4u);
  EXPECT_DOUBLE_EQ(tput->mean_change.point, 0);
  EXPECT_FALSE(tput->over_threshold);
}

TEST(PhaseMatcherTest, P99IsTheMergedHistogramsNotAMeanOfSeconds) {
  // The current run's last, nearly empty interval has a p99 of 1 ms (one slow operation), which would
  // raise a mean of per-second p99s by ~25 %; the merged histogram's p99 is unchanged, so no regression.
  RunResults base = PhaseRun({HandPhase(1000, 3, 0.002, 500, 250000, 250000)});
  PhaseResult slow_tail = HandPhase(1000, 3, 0.002, 500, 250000, 250000);
  slow_tail.per_second.back().p99_ns = 1e6;
  RunResults cur = PhaseRun({slow_tail});
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  const MetricComparison* p99 = FindRow(report, "ycsb/workloada/cached/run/lmdb", "p99");
  ASSERT_NE(p99, nullptr);
  EXPECT_DOUBLE_EQ(p99->baseline_mean, 250000);
  EXPECT_DOUBLE_EQ(p99->current_mean, 250000);
  EXPECT_DOUBLE_EQ(p99->mean_change.point, 0);
  EXPECT_FALSE(p99->over_threshold);
  // And a merged p99 that did rise by 20 % is compared as such.
  slow_tail.service_time.p99_ns = 300000;
  cur = PhaseRun({slow_tail});
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  EXPECT_NEAR(FindRow(report, "ycsb/workloada/cached/run/lmdb", "p99")->mean_change.point, 0.2, 1e-12);
}

TEST(PhaseMatcherTest, KeysOutcomesAndShortPhases) {
  using testdata::SyntheticPhase;
  PhaseResult other_dataset = SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 10, 3);
  other_dataset.dataset = "disk-bound";
  PhaseResult failed = SyntheticPhase("run", "rocksdb", 30000, 90000, 0.02, 10, 5);
  PhaseResult short_phase = SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 1, 7);
  RunResults base = PhaseRun({SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 10, 1), failed, short_phase});
  failed.error_occurred = true;
  failed.error_message = "IOError: disk full";
  RunResults cur = PhaseRun({other_dataset, failed, SyntheticPhase("run", "sqlite", 20000, 150000, 0.02, 10, 9)});
  // A second without operations has no p99: it is left out, not read as 0 ns.
  cur.phases[2].per_second[4].operations = 0;
  cur.phases[2].per_second[4].ops_per_sec = 0;
  cur.phases[2].per_second[4].p99_ns = 0;

  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 8u);
  // Rows: throughput then p99 of each phase, in the current run's order, then the baseline-only ones.
  EXPECT_EQ(report.rows[0].outcome, Outcome::kOnlyInCurrent);  // the disk-bound data set is another phase
  EXPECT_EQ(report.rows[0].key.Name(), "ycsb/workloada/disk-bound/run/lmdb");
  EXPECT_EQ(report.rows[0].metric, "throughput");
  EXPECT_EQ(report.rows[1].metric, "p99");
  EXPECT_EQ(report.rows[2].outcome, Outcome::kFailed);
  EXPECT_EQ(report.rows[2].note, "failed in current: IOError: disk full");
  EXPECT_EQ(report.rows[4].outcome, Outcome::kInsufficientData);
  EXPECT_EQ(report.rows[4].note, "fewer than 2 usable seconds in the baseline");
  EXPECT_EQ(report.rows[4].current_count, 10u);  // throughput: the stalled second counts as 0 op/s
  EXPECT_EQ(report.rows[6].outcome, Outcome::kOnlyInBaseline);
  EXPECT_EQ(report.rows[6].key.Name(), "ycsb/workloada/cached/run/lmdb");
  EXPECT_EQ(report.rows[7].metric, "p99");
  EXPECT_EQ(FindRow(report, "ycsb/workloada/cached/run/sqlite", "p99")->current_count, 9u);
  EXPECT_FALSE(report.GateFailed());
}

TEST(PhaseMatcherTest, MicroBenchmarksAndPhasesTogether) {
  RunResults base = SyntheticRun("host", {{"get", "sqlite"}}, 1);
  RunResults cur = SyntheticRun("host", {{"get", "sqlite"}}, 2);
  base.phases = {testdata::SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 10, 1)};
  cur.phases = {testdata::SyntheticPhase("run", "lmdb", 50000, 40000, 0.02, 10, 2)};
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, cur, FastOptions(), &report).ok());
  ASSERT_EQ(report.rows.size(), 3u);
  EXPECT_EQ(report.rows[0].metric, "time");
  EXPECT_EQ(report.rows[1].metric, "throughput");
  EXPECT_EQ(report.rows[2].metric, "p99");
  EXPECT_EQ(report.rows[1].key.Name(), "ycsb/workloada/cached/run/lmdb");
}

}  // namespace
}  // namespace dbxb
