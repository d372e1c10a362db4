// The verdicts of paired rounds and of several runs per side on synthetic rounds: drift of the
// machine, a step change, a true 10 % shift, a single outlier round. Every scenario is seeded.
#include "compare/compare_runs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/prng.h"

namespace dbxb {
namespace {

constexpr const char* kWorkloads[] = {"get", "scan"};
constexpr const char* kEngines[] = {"lmdb", "sqlite"};

// A run of dbx-micro with 4 benchmarks whose time per iteration is base_ns[i] * factor.
RunResults MicroRun(double factor, const std::vector<double>& noise) {
  RunResults r;
  r.context.host_name = "host";
  size_t i = 0;
  for (const char* w : kWorkloads) {
    for (const char* e : kEngines) {
      BenchmarkResult b;
      b.suite = "dbx-micro";
      b.workload = w;
      b.engine = e;
      b.parameters = {{"records", "10000"}};
      b.sampling_mode = SamplingMode::kFlat;
      b.estimates.mean.point = (1000.0 + 500.0 * static_cast<double>(i)) * factor * noise[i];
      // Samples around the estimate, so that the run's lower quartile is the estimate.
      for (double spread : {1.0, 1.0, 1.0, 1.02, 0.98}) {
        b.samples.push_back(Sample{10, 10 * b.estimates.mean.point * spread});
      }
      r.benchmarks.push_back(b);
      ++i;
    }
  }
  return r;
}

// Every sample of b (and its estimate) takes `factor` times as long.
void Slow(BenchmarkResult* b, double factor) {
  b->estimates.mean.point *= factor;
  for (Sample& s : b->samples) s.total_ns *= factor;
}

// Lognormal-ish noise: exp(sigma * (sum of 4 uniforms - 2) * sqrt(3)), unit variance on the log scale.
std::vector<double> Noise(Xoshiro256* rng, double sigma) {
  std::vector<double> out;
  for (int k = 0; k < 4; ++k) {
    double z = 0;
    for (int j = 0; j < 4; ++j) z += rng->NextDouble();
    out.push_back(std::exp(sigma * (z - 2) * std::sqrt(3.0)));
  }
  return out;
}

// `rounds` paired rounds: machine speed machine(r) on both sides, the current side slower by
// `shift`, independent noise per process.
template <typename Machine>
void Rounds(size_t rounds, double shift, double sigma, uint64_t seed, Machine machine, RunSet* base, RunSet* cur) {
  Xoshiro256 rng(seed);
  for (size_t r = 0; r < rounds; ++r) {
    base->runs.push_back(MicroRun(machine(r), Noise(&rng, sigma)));
    base->sources.push_back("b" + std::to_string(r));
    cur->runs.push_back(MicroRun(machine(r) * (1 + shift), Noise(&rng, sigma)));
    cur->sources.push_back("c" + std::to_string(r));
  }
}

CompareOptions Options() {
  CompareOptions o;
  o.resamples = 5000;
  return o;
}

ComparisonReport Paired(const RunSet& base, const RunSet& cur) {
  ComparisonReport report;
  EXPECT_TRUE(CompareRunSets(base, cur, true, Options(), &report).ok());
  return report;
}

TEST(CompareRunSets, DriftBetweenRoundsIsNotARegression) {
  // The machine slows by 4 % a round (a neighbour's build ramping up): 6 rounds span +20 %.
  RunSet base, cur;
  Rounds(
      6, 0, 0.01, 1, [](size_t r) { return 1 + 0.04 * static_cast<double>(r); }, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_EQ(report.method, CompareMethod::kPairedRounds);
  EXPECT_EQ(report.Count(Outcome::kCompared), 4u);
  EXPECT_FALSE(report.GateFailed());
  for (const MetricComparison& row : report.rows) {
    EXPECT_EQ(row.ratios.size(), 6u);
    EXPECT_LT(std::fabs(row.mean_change.point), 0.03) << row.key.Name();
  }
}

TEST(CompareRunSets, StepChangeOfTheMachineIsNotARegression) {
  // Halfway, the machine becomes 30 % slower for both sides (another job lands on the host).
  RunSet base, cur;
  Rounds(
      6, 0, 0.01, 2, [](size_t r) { return r < 3 ? 1.0 : 1.3; }, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_FALSE(report.GateFailed());
  for (const MetricComparison& row : report.rows) EXPECT_NE(row.verdict, Verdict::kRegressed) << row.key.Name();
  // The same data unpaired (two groups of runs): the step is between-run variance, also no failure.
  ComparisonReport unpaired;
  ASSERT_TRUE(CompareRunSets(base, cur, false, Options(), &unpaired).ok());
  EXPECT_EQ(unpaired.method, CompareMethod::kRuns);
  EXPECT_FALSE(unpaired.GateFailed());
}

TEST(CompareRunSets, TrueTenPercentShiftFailsTheGate) {
  RunSet base, cur;
  Rounds(
      6, 0.10, 0.02, 3, [](size_t r) { return 1 + 0.02 * static_cast<double>(r % 2); }, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_TRUE(report.GateFailed());
  EXPECT_EQ(report.RegressionsOverThreshold(), 4u);
  for (const MetricComparison& row : report.rows) {
    EXPECT_EQ(row.verdict, Verdict::kRegressed) << row.key.Name();
    EXPECT_GT(row.mean_change.lower, 0.05) << row.key.Name();
    EXPECT_LT(row.mean_change.lower, 0.10) << row.key.Name();
    EXPECT_GT(row.mean_change.upper, 0.10) << row.key.Name();
    EXPECT_LT(row.p_adjusted, 0.05);
    EXPECT_GE(row.p_adjusted, row.p_value);
    // 6 rounds: the signed-rank test cannot go below 2/64.
    EXPECT_DOUBLE_EQ(row.signed_rank_p, 2.0 / 64);
  }
}

TEST(CompareRunSets, SingleOutlierRoundDoesNotFailTheGate) {
  // Round 4's current run met a burst of load: 60 % slower on every benchmark; otherwise equal.
  RunSet base, cur;
  Rounds(
      6, 0, 0.01, 4, [](size_t) { return 1.0; }, &base, &cur);
  for (BenchmarkResult& b : cur.runs[3].benchmarks) Slow(&b, 1.6);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_FALSE(report.GateFailed());
  for (const MetricComparison& row : report.rows) EXPECT_FALSE(row.over_threshold) << row.key.Name();
}

TEST(CompareRunSets, SmallShiftBelowTheThresholdIsNotOverTheGate) {
  // A true 2 % slowdown with tiny noise is a regression, but not one over 5 %.
  RunSet base, cur;
  Rounds(
      8, 0.02, 0.002, 5, [](size_t) { return 1.0; }, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_FALSE(report.GateFailed());
}

TEST(CompareRunSets, AaFalseAlarmsOverManySeededInvocations) {
  // 200 simulated A/A invocations of 6 rounds with 3 % per-process noise and drift: the gate (Holm +
  // interval beyond 5 %) may fail at most 5 % of them; in practice it fails none.
  int failures = 0;
  for (uint64_t seed = 100; seed < 300; ++seed) {
    RunSet base, cur;
    Rounds(
        6, 0, 0.03, seed, [](size_t r) { return 1 + 0.05 * std::sin(static_cast<double>(r)); }, &base, &cur);
    ComparisonReport report;
    CompareOptions o = Options();
    o.resamples = 1000;
    ASSERT_TRUE(CompareRunSets(base, cur, true, o, &report).ok());
    failures += report.GateFailed();
  }
  EXPECT_LE(failures, 10);
}

TEST(CompareRunSets, DetectsTenPercentInMostSeededInvocations) {
  int detected = 0;
  for (uint64_t seed = 300; seed < 340; ++seed) {
    RunSet base, cur;
    Rounds(
        6, 0.10, 0.02, seed, [](size_t r) { return 1 + 0.05 * std::sin(static_cast<double>(r)); }, &base, &cur);
    ComparisonReport report;
    CompareOptions o = Options();
    o.resamples = 1000;
    ASSERT_TRUE(CompareRunSets(base, cur, true, o, &report).ok());
    detected += report.GateFailed();
  }
  EXPECT_GE(detected, 36);  // at least 9 in 10
}

TEST(CompareRunSets, FailedRoundIsReportedNotCompared) {
  RunSet base, cur;
  Rounds(
      3, 0, 0.01, 6, [](size_t) { return 1.0; }, &base, &cur);
  cur.runs[1].benchmarks[0].error_occurred = true;
  cur.runs[1].benchmarks[0].error_message = "wrong value for key_00000042";
  const ComparisonReport report = Paired(base, cur);
  ASSERT_EQ(report.rows[0].outcome, Outcome::kFailed);
  EXPECT_NE(report.rows[0].note.find("current round 2 (c1)"), std::string::npos) << report.rows[0].note;
  EXPECT_NE(report.rows[0].note.find("key_00000042"), std::string::npos);
  EXPECT_EQ(report.Count(Outcome::kCompared), 3u);
}

TEST(CompareRunSets, RunsOfOneSideMustHoldTheSameRows) {
  RunSet base, cur;
  Rounds(
      3, 0, 0.01, 7, [](size_t) { return 1.0; }, &base, &cur);
  cur.runs[2].benchmarks.pop_back();
  ComparisonReport report;
  Status st = CompareRunSets(base, cur, true, Options(), &report);
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_NE(st.message().find("current round 3 (c2) has no dbx-micro/scan/sqlite"), std::string::npos) << st.message();
}

TEST(CompareRunSets, RejectsTooFewOrUnpairedRounds) {
  RunSet base, cur;
  Rounds(
      2, 0, 0.01, 8, [](size_t) { return 1.0; }, &base, &cur);
  RunSet one = cur;
  one.runs.pop_back();
  one.sources.pop_back();
  ComparisonReport report;
  EXPECT_TRUE(CompareRunSets(base, one, true, Options(), &report).IsInvalidArgument());
  EXPECT_TRUE(CompareRunSets(base, one, false, Options(), &report).IsInvalidArgument());
  RunSet three = cur;
  three.runs.push_back(cur.runs[0]);
  three.sources.push_back("c2");
  EXPECT_TRUE(CompareRunSets(base, three, true, Options(), &report).IsInvalidArgument());
  EXPECT_TRUE(CompareRunSets(base, three, false, Options(), &report).ok());
}

TEST(CompareRunSets, NothingInCommonIsAnError) {
  RunSet base, cur;
  Rounds(
      2, 0, 0.01, 9, [](size_t) { return 1.0; }, &base, &cur);
  for (RunResults& r : cur.runs)
    for (BenchmarkResult& b : r.benchmarks) b.engine = "rocksdb-" + b.workload;
  ComparisonReport report;
  EXPECT_TRUE(CompareRunSets(base, cur, true, Options(), &report).IsInvalidArgument());
}

PhaseResult Phase(double operations, double seconds, double p99_ns) {
  PhaseResult p;
  p.suite = "ycsb";
  p.workload = "workloada";
  p.phase = "run";
  p.engine = "lmdb";
  p.threads = 1;
  p.operations = static_cast<uint64_t>(operations);
  p.duration_ns = seconds * 1e9;
  p.service_time.count = p.operations;
  p.service_time.p99_ns = p99_ns;
  // Per-second values that disagree with the totals: a mean of them must not be what is compared.
  p.per_second = {{0, 10, 10, 1e9}, {1, 10, 10, 1e9}};
  return p;
}

TEST(RunEstimates, PhasesUseTheTotalAndTheMergedHistogram) {
  RunResults run;
  run.phases.push_back(Phase(50000, 2.5, 7000));
  std::vector<RowEstimate> rows;
  ASSERT_TRUE(RunEstimates(run, "current", &rows).ok());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].metric, "throughput");
  EXPECT_EQ(rows[0].direction, Direction::kHigherIsBetter);
  EXPECT_DOUBLE_EQ(rows[0].value, 20000);  // 50,000 operations in 2.5 s
  EXPECT_EQ(rows[1].metric, "p99");
  EXPECT_DOUBLE_EQ(rows[1].value, 7000);
}

TEST(RunEstimates, MicroBenchmarksUseTheLowerQuartileOfTheirSamples) {
  RunResults run = MicroRun(1, {1, 1, 1, 1});
  BenchmarkResult& b = run.benchmarks[0];
  b.sampling_mode = SamplingMode::kLinear;
  b.estimates.slope = Interval{900, 850, 950, 10};
  // Per-iteration times 100, 500, 200, 400, 300 (iterations 1..5): quartile 0.25 of 100..500 = 200.
  b.samples = {{1, 100}, {2, 1000}, {3, 600}, {4, 1600}, {5, 1500}};
  std::vector<RowEstimate> rows;
  ASSERT_TRUE(RunEstimates(run, "current", &rows).ok());
  EXPECT_DOUBLE_EQ(rows[0].value, 200);
  EXPECT_DOUBLE_EQ(rows[1].value, 1500);  // MicroRun's samples: 0.98 1 1 1 1.02 x 1500
  // What one run per side compares (and a noise floor is calibrated on): the slope, the mean.
  ASSERT_TRUE(RunEstimates(run, "current", &rows, true).ok());
  EXPECT_DOUBLE_EQ(rows[0].value, 900);
  EXPECT_DOUBLE_EQ(rows[1].value, 1500);
  run.benchmarks[2].samples.clear();
  EXPECT_TRUE(RunEstimates(run, "current", &rows).IsInvalidArgument());
}

TEST(RunEstimates, BurstsInSomeSamplesDoNotMoveTheEstimateButASlowdownOfAllDoes) {
  RunResults quiet = MicroRun(1, {1, 1, 1, 1});
  BenchmarkResult& b = quiet.benchmarks[0];
  b.samples.clear();
  for (int i = 1; i <= 20; ++i) b.samples.push_back(Sample{10, 10 * (1000.0 + i)});  // 1001..1020 per iteration
  const double base = RunTimeEstimate(b);
  RunResults burst = quiet, slower = quiet;
  // A neighbour's burst: 5 of the 20 samples take 60 % longer.
  for (int i : {2, 7, 11, 15, 19}) burst.benchmarks[0].samples[i].total_ns *= 1.6;
  EXPECT_NEAR(RunTimeEstimate(burst.benchmarks[0]) / base, 1.0, 0.01);
  // Slower code, or a load that competes for the whole run: every sample 10 % longer.
  Slow(&slower.benchmarks[0], 1.1);
  EXPECT_NEAR(RunTimeEstimate(slower.benchmarks[0]) / base, 1.1, 1e-9);
}

TEST(CompareRunSets, PhaseThroughputDropIsARegression) {
  RunSet base, cur;
  for (int r = 0; r < 6; ++r) {
    const double jitter = 1 + 0.01 * (r % 3);
    RunResults b, c;
    b.phases.push_back(Phase(100000 * jitter, 1, 5000));
    c.phases.push_back(Phase(85000 * jitter, 1, 5000 * jitter));
    base.runs.push_back(b);
    cur.runs.push_back(c);
    base.sources.push_back("b");
    cur.sources.push_back("c");
  }
  const ComparisonReport report = Paired(base, cur);
  ASSERT_EQ(report.rows.size(), 2u);
  EXPECT_EQ(report.rows[0].metric, "throughput");
  EXPECT_NEAR(report.rows[0].mean_change.point, -0.15, 1e-9);
  EXPECT_TRUE(report.rows[0].over_threshold);
  EXPECT_FALSE(report.rows[1].over_threshold);  // p99 rose 0-2 %: not over 5 %
}

}  // namespace
}  // namespace dbxb
