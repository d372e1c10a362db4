// The verdicts of paired rounds and of several runs per side on synthetic rounds, one test per scenario
// the gate must answer (issue 28): A/A, a uniform slowdown, a partial one that only some samples see, a
// phase's throughput drop, its p99 doubling, a counter doubling, a duration-bound counter's A/A spread;
// and how the answer depends on the rounds (2 to 5 of them, and more). Every scenario is seeded.
#include "compare/compare_runs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/prng.h"
#include "compare/compare.h"
#include "stats/statistics.h"
#include "stats/t_tests.h"
#include "tests/fixtures/compare/synthetic_runs.h"

namespace dbxb {
namespace {

using testdata::LognormalTimes;

// What the current build changes.
struct Change {
  double uniform = 1;         ///< every iteration and operation takes this factor longer
  double partial_share = 0;   ///< the share of a run's samples that ...
  double partial_factor = 1;  ///< ... take this factor longer (a stall that hits some samples)
  double throughput = 1;      ///< the phase's throughput factor
  double p99 = 1;             ///< the phase's p99 factor
  double disk_bytes = 1;      ///< the benchmark's disk bytes factor
};

// One run: a micro-benchmark (20 samples of 10 iterations around 1 µs per iteration, CPU 90 % of it) and a
// phase (30 seconds around 100,000 op/s, p99 50 µs), both at `speed` (the machine, this process).
RunResults MakeRun(double speed, const Change& c, uint64_t seed) {
  RunResults r;
  r.context.host_name = "host";
  BenchmarkResult b;
  b.suite = "dbx-micro";
  b.workload = "get";
  b.engine = "lmdb";
  b.parameters = {{"records", "10000"}};
  b.sampling_mode = SamplingMode::kFlat;
  b.elements_per_iteration = 10000;
  const std::vector<double> times = LognormalTimes(1000 * speed * c.uniform, 0.01, 20, seed);
  const auto stalled = static_cast<size_t>(std::lround(c.partial_share * 20));
  double total = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    // The stalled samples are spread through the run, never the same positions in order.
    const double factor = (i * 7 + seed) % 20 < stalled ? c.partial_factor : 1;
    b.samples.push_back(Sample{10, 10 * times[i] * factor});
    total += 10 * times[i] * factor;
  }
  ResourceUsage u;
  u.operations = 200 * 10000;
  u.cpu_ns_per_op = 0.9 * total / static_cast<double>(u.operations);
  u.disk_bytes = static_cast<uint64_t>(1e6 * c.disk_bytes);
  u.io_write_bytes_per_op = 0;
  b.resources = u;
  r.benchmarks.push_back(b);
  r.phases.push_back(
      testdata::SyntheticPhase("run", "lmdb", 1e5 * c.throughput / speed, 5e4 * c.p99 * speed, 0.02, 30, seed + 100));
  return r;
}

// `rounds` paired rounds: the machine's speed machine(r) on both sides of round r, independent noise of
// `sigma` per process (log scale), the current side changed by `c`.
void Rounds(
    size_t rounds, const Change& c, double sigma, uint64_t seed, RunSet* base, RunSet* cur,
    const std::function<double(size_t)>& machine = [](size_t) { return 1.0; }) {
  Xoshiro256 rng(seed);
  auto noise = [&] { return LognormalTimes(1, sigma, 1, rng.Next())[0]; };
  for (size_t r = 0; r < rounds; ++r) {
    base->runs.push_back(MakeRun(machine(r) * noise(), Change{}, rng.Next()));
    base->sources.push_back("b" + std::to_string(r));
    cur->runs.push_back(MakeRun(machine(r) * noise(), c, rng.Next()));
    cur->sources.push_back("c" + std::to_string(r));
  }
}

ComparisonReport Paired(const RunSet& base, const RunSet& cur, const CompareOptions& o = {}) {
  ComparisonReport report;
  const Status st = CompareRunSets(base, cur, true, o, &report);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return report;
}

const MetricComparison& Row(const ComparisonReport& report, const std::string& metric, bool phase = false) {
  for (const MetricComparison& r : report.rows)
    if (r.metric->name == metric && r.key.phase.empty() != phase) return r;
  ADD_FAILURE() << "no row " << metric;
  return report.rows.front();
}

TEST(PairedScenarios, AaPasses) {
  RunSet base, cur;
  Rounds(5, Change{}, 0.01, 1, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_FALSE(report.GateFailed());
  EXPECT_EQ(report.Count(Verdict::kRegressed), 0u);
  // A counter the work determines is exact: decided at once.
  EXPECT_EQ(Row(report, "disk_bytes").verdict, Verdict::kNoRegression);
  EXPECT_DOUBLE_EQ(Row(report, "disk_bytes").change.upper, 0);
}

TEST(PairedScenarios, UniformTenPercentSlowdownRegressesEveryTimingRowOfTheBenchmark) {
  RunSet base, cur;
  Rounds(5, Change{.uniform = 1.10}, 0.003, 2, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  for (const char* metric : {"time", "time_mean", "cpu"}) {
    EXPECT_EQ(Row(report, metric).verdict, Verdict::kRegressed) << metric;
    EXPECT_NEAR(Row(report, metric).change.point, 0.10, 0.01) << metric;
  }
  EXPECT_TRUE(report.GateFailed());
}

TEST(PairedScenarios, PartialSlowdownIsCaughtByTheMeanWhereTheTypicalTimeDoesNotMove) {
  // 30 % of the samples take 50 % longer (the audit's injection): the mean is +15 %, the median stays.
  RunSet base, cur;
  Rounds(5, Change{.partial_share = 0.3, .partial_factor = 1.5}, 0.003, 3, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_NE(Row(report, "time").verdict, Verdict::kRegressed);
  EXPECT_NEAR(Row(report, "time").change.point, 0, 0.02);
  EXPECT_EQ(Row(report, "time_mean").verdict, Verdict::kRegressed);
  EXPECT_NEAR(Row(report, "time_mean").change.point, 0.15, 0.02);
  EXPECT_EQ(Row(report, "cpu").verdict, Verdict::kRegressed);
  EXPECT_TRUE(report.GateFailed());
}

TEST(PairedScenarios, PhaseThroughputDropOfTwentyPercentRegresses) {
  RunSet base, cur;
  Rounds(5, Change{.throughput = 0.8}, 0.003, 4, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  const MetricComparison& row = Row(report, "throughput", true);
  EXPECT_EQ(row.metric->direction, Direction::kHigherIsBetter);
  EXPECT_NEAR(row.change.point, -0.2, 0.01);
  EXPECT_EQ(row.verdict, Verdict::kRegressed);
  EXPECT_NE(Row(report, "p99", true).verdict, Verdict::kRegressed);
}

TEST(PairedScenarios, PhaseP99DoublingRegresses) {
  RunSet base, cur;
  Rounds(5, Change{.p99 = 2}, 0.003, 5, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  EXPECT_EQ(Row(report, "p99", true).verdict, Verdict::kRegressed);
  EXPECT_NEAR(Row(report, "p99", true).change.point, 1.0, 0.05);
  EXPECT_NE(Row(report, "throughput", true).verdict, Verdict::kRegressed);
}

TEST(PairedScenarios, CounterDoublingRegressesExactlyEvenWhenTheTimingsAreNoise) {
  // Two rounds with 30 % noise per process: no timing row can say anything, the counter says it all.
  RunSet base, cur;
  Rounds(2, Change{.disk_bytes = 2}, 0.3, 6, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  const MetricComparison& disk = Row(report, "disk_bytes");
  EXPECT_EQ(disk.verdict, Verdict::kRegressed);
  EXPECT_DOUBLE_EQ(disk.change.lower, 1);
  EXPECT_DOUBLE_EQ(disk.change.upper, 1);
  EXPECT_EQ(Row(report, "time").verdict, Verdict::kInconclusive);
  EXPECT_TRUE(report.GateFailed());
  // Counters are a family of their own: their level does not depend on the timing rows.
  EXPECT_EQ(report.Family(MetricFamily::kCounter).rows, 2u);  // the benchmark's disk bytes, write bytes/op
}

TEST(PairedScenarios, DurationBoundCounterWithItsAaSpreadIsNoRegression) {
  // fsyncs per commit of a concurrent phase move ±7 % between runs of one build (measured in the audit):
  // paired rounds carry that spread in their interval.
  RunSet base, cur;
  Rounds(10, Change{}, 0.003, 7, &base, &cur);
  Xoshiro256 rng(70);
  for (RunSet* set : {&base, &cur}) {
    for (RunResults& run : set->runs) {
      PhaseResult& p = run.phases[0];
      p.bounded_by_duration = true;
      ResourceUsage u;
      u.operations = p.operations;
      u.fsyncs_per_commit = 0.5 * (0.93 + 0.14 * rng.NextDouble());
      p.resources = u;
    }
  }
  const ComparisonReport report = Paired(base, cur);
  const MetricComparison& fsyncs = Row(report, "fsyncs_per_commit", true);
  EXPECT_NE(fsyncs.verdict, Verdict::kRegressed);
  EXPECT_GT(fsyncs.change.upper - fsyncs.change.lower, 0.02);  // not treated as exact
  EXPECT_FALSE(report.GateFailed());
}

TEST(PairedScenarios, TwoToFiveRoundsNeverLessEvidenceAsRoundsAreAdded) {
  // The same +10 % slowdown with 1 % noise: 2 rounds cannot decide; each added round brings the worse
  // end of the typical time's interval down (the trimmed-mean test's degrees of freedom never drop).
  double previous = INFINITY;
  for (size_t rounds = 2; rounds <= 5; ++rounds) {
    RunSet base, cur;
    Rounds(rounds, Change{.uniform = 1.10}, 0.01, 8, &base, &cur);
    const ComparisonReport report = Paired(base, cur);
    const MetricComparison& row = Row(report, "time");
    if (rounds == 2) {
      EXPECT_EQ(row.verdict, Verdict::kInconclusive);
    }
    if (rounds >= 4) {
      EXPECT_LT(row.change.upper, previous) << rounds << " rounds";
    }
    EXPECT_LE(row.change.upper, previous) << rounds << " rounds";
    previous = row.change.upper;
  }
}

TEST(PairedScenarios, IntervalsPrintedAreTheOnesTheVerdictUsed) {
  RunSet base, cur;
  Rounds(8, Change{.uniform = 1.08}, 0.01, 9, &base, &cur);
  const ComparisonReport report = Paired(base, cur);
  const FamilySummary timing = report.Family(MetricFamily::kTiming);
  EXPECT_EQ(timing.rows, 5u);  // time, mean, cpu; throughput, p99
  EXPECT_DOUBLE_EQ(timing.level, FamilyLevel(0.05, 5, 1));
  for (const MetricComparison& row : report.rows) {
    if (row.outcome != Outcome::kCompared) continue;
    EXPECT_EQ(row.verdict, Decide(row.change, row.metric->direction, 0.05)) << row.metric->name;
    // Recompute the typical row's interval from its ratios at the family's level.
    if (row.metric->name != "time") continue;
    std::vector<double> logs;
    for (double r : row.ratios) logs.push_back(std::log(r));
    const Interval l = TrimmedMeanTest(logs, kTrimProportion).IntervalAt(timing.level);
    EXPECT_NEAR(row.change.lower, std::expm1(l.lower), 1e-12);
    EXPECT_NEAR(row.change.upper, std::expm1(l.upper), 1e-12);
  }
  // Planned looks of a sequential run widen every interval.
  CompareOptions sequential;
  sequential.looks = 4;
  const ComparisonReport wider = Paired(base, cur, sequential);
  EXPECT_LT(Row(wider, "time").change.lower, Row(report, "time").change.lower);
  EXPECT_DOUBLE_EQ(wider.Family(MetricFamily::kTiming).level, FamilyLevel(0.05, 5, 4));
}

TEST(PairedScenarios, AaFailsAtMostOneInTwentyOverManySeededInvocations) {
  // 200 A/A invocations of 6 rounds with 3 % noise per process and a drifting machine.
  int failures = 0;
  for (uint64_t seed = 100; seed < 300; ++seed) {
    RunSet base, cur;
    Rounds(6, Change{}, 0.03, seed, &base, &cur, [](size_t r) { return 1 + 0.05 * std::sin(static_cast<double>(r)); });
    failures += Paired(base, cur).GateFailed();
  }
  EXPECT_LE(failures, 10);
}

TEST(PairedScenarios, TenPercentIsDetectedInMostInvocationsWithEnoughRounds) {
  int detected = 0;
  for (uint64_t seed = 300; seed < 340; ++seed) {
    RunSet base, cur;
    Rounds(16, Change{.uniform = 1.10}, 0.02, seed, &base, &cur);
    detected += Row(Paired(base, cur), "time").verdict == Verdict::kRegressed;
  }
  EXPECT_GE(detected, 36);  // at least 9 in 10
}

TEST(PairedScenarios, SingleOutlierRoundDoesNotFailTheGate) {
  RunSet base, cur;
  Rounds(8, Change{}, 0.005, 10, &base, &cur);
  RunResults wild = MakeRun(1.6, Change{}, 99);  // one process of one round hit by a burst
  cur.runs[3] = wild;
  EXPECT_FALSE(Paired(base, cur).GateFailed());
}

TEST(CompareRunSets, FailedRoundIsReportedNotCompared) {
  RunSet base, cur;
  Rounds(3, Change{}, 0.01, 11, &base, &cur);
  cur.runs[1].benchmarks[0].error_occurred = true;
  cur.runs[1].benchmarks[0].error_message = "wrong value for key_00000042";
  const ComparisonReport report = Paired(base, cur);
  ASSERT_EQ(report.rows[0].outcome, Outcome::kFailed);
  EXPECT_NE(report.rows[0].note.find("current round 2 (c1)"), std::string::npos) << report.rows[0].note;
  EXPECT_NE(report.rows[0].note.find("key_00000042"), std::string::npos);
  EXPECT_EQ(report.Count(Outcome::kFailed), 1u);  // one row for the record, not one per metric
}

TEST(CompareRunSets, RunsOfOneSideMustHoldTheSameRecords) {
  RunSet base, cur;
  Rounds(3, Change{}, 0.01, 12, &base, &cur);
  cur.runs[2].phases.clear();
  ComparisonReport report;
  const Status st = CompareRunSets(base, cur, true, {}, &report);
  ASSERT_TRUE(st.IsInvalidArgument());
  EXPECT_NE(st.message().find("current round 3 (c2) has no ycsb/workloada/cached/run/lmdb"), std::string::npos)
      << st.message();
}

TEST(CompareRunSets, RejectsTooFewOrUnpairedRounds) {
  RunSet base, cur;
  Rounds(2, Change{}, 0.01, 13, &base, &cur);
  RunSet one = cur;
  one.runs.pop_back();
  one.sources.pop_back();
  ComparisonReport report;
  EXPECT_TRUE(CompareRunSets(base, one, true, {}, &report).IsInvalidArgument());
  EXPECT_TRUE(CompareRunSets(base, one, false, {}, &report).IsInvalidArgument());
  RunSet three = cur;
  three.runs.push_back(cur.runs[0]);
  three.sources.push_back("c2");
  EXPECT_TRUE(CompareRunSets(base, three, true, {}, &report).IsInvalidArgument());
  EXPECT_TRUE(CompareRunSets(base, three, false, {}, &report).ok());
}

TEST(CompareRunSets, NothingInCommonIsAnError) {
  RunSet base, cur;
  Rounds(2, Change{}, 0.01, 14, &base, &cur);
  for (RunResults& r : cur.runs) {
    r.benchmarks[0].engine = "rocksdb";
    r.phases[0].engine = "rocksdb";
  }
  ComparisonReport report;
  EXPECT_TRUE(CompareRunSets(base, cur, true, {}, &report).IsInvalidArgument());
  EXPECT_TRUE(CheckCommonRecords(base.runs[0], cur.runs[0]).IsInvalidArgument());
  EXPECT_TRUE(CheckCommonRecords(base.runs[0], base.runs[1]).ok());
}

TEST(CompareRunSets, TwoGroupsUseWelchOnTheLogs) {
  RunSet base, cur;
  Rounds(6, Change{.uniform = 1.2}, 0.003, 15, &base, &cur);
  ComparisonReport report;
  ASSERT_TRUE(CompareRunSets(base, cur, false, {}, &report).ok());
  EXPECT_EQ(report.method, CompareMethod::kRuns);
  EXPECT_NEAR(Row(report, "time").change.point, 0.2, 0.01);
  EXPECT_EQ(Row(report, "time").verdict, Verdict::kRegressed);
  EXPECT_TRUE(Row(report, "time").ratios.empty());
}

TEST(CalibrateNoiseFloors, SpreadOfEachRowOverTheRuns) {
  RunSet aa, ignored;
  Rounds(3, Change{}, 0.05, 16, &aa, &ignored);
  CompareOptions calibrated;
  ASSERT_TRUE(CalibrateNoiseFloors(aa, &calibrated).ok());
  double time_floor = -1;
  for (const auto& [id, floor] : calibrated.calibrated_floors)
    if (id.find("dbx-micro/get/lmdb") == 0 && id.size() > 5 && id.substr(id.size() - 5) == " time") time_floor = floor;
  double lo = INFINITY, hi = 0;
  for (const RunResults& r : aa.runs) {
    const double m = Median(SampleTimes(r.benchmarks[0]));
    lo = std::min(lo, m);
    hi = std::max(hi, m);
  }
  EXPECT_NEAR(time_floor, hi / lo - 1, 1e-12);
  RunSet one;
  one.runs.push_back(aa.runs[0]);
  one.sources.push_back("x");
  EXPECT_TRUE(CalibrateNoiseFloors(one, &calibrated).IsInvalidArgument());
}

// Floors calibrated at one load do not hold for a busier machine: the A/A runs started at load 6 to 8;
// a pair of unchanged runs whose current side met load 12 (and ran 40 % slower for it) is not called
// regressed on those floors, and the report says why. Within the load, the floors are used.
TEST(CalibrateNoiseFloors, RunsAtALoadTheCalibrationDidNotMeetDoNotUseItsFloors) {
  RunSet aa, ignored;
  Rounds(6, Change{}, 0.02, 21, &aa, &ignored);
  for (size_t i = 0; i < aa.runs.size(); ++i) aa.runs[i].context.load_avg = {6.0 + 0.4 * i, 6, 6};
  CompareOptions o;
  ASSERT_TRUE(CalibrateNoiseFloors(aa, &o).ok());
  ASSERT_TRUE(o.calibration_load.has_value());
  EXPECT_DOUBLE_EQ(o.calibration_load->first, 6.0);
  EXPECT_DOUBLE_EQ(o.calibration_load->second, 8.0);

  RunResults base = MakeRun(1.0, Change{}, 5), busy = MakeRun(1.4, Change{}, 6);
  base.context.load_avg = {7, 7, 7};
  busy.context.load_avg = {12, 9, 7};
  ComparisonReport report;
  ASSERT_TRUE(CompareRuns(base, busy, o, &report).ok());
  EXPECT_NE(Row(report, "time").verdict, Verdict::kRegressed);
  EXPECT_FALSE(report.GateFailed());
  bool said = false;
  for (const std::string& w : report.warnings) said |= w.find("load average of 12.00") != std::string::npos;
  EXPECT_TRUE(said) << "the report says why the floors were not used";

  // The same slower current run at a load the calibration met: the floors are used, and it regressed.
  busy.context.load_avg = {8.5, 8, 7};
  ASSERT_TRUE(CompareRuns(base, busy, o, &report).ok());
  EXPECT_EQ(Row(report, "time").verdict, Verdict::kRegressed);
}

}  // namespace
}  // namespace dbxb
