// The table of metrics: each metric's per-run estimate from a record, and the per-second series a
// comparison of one run per side resamples.
#include "compare/metrics.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace dbxb {
namespace {

BenchmarkResult Benchmark() {
  BenchmarkResult b;
  b.suite = "dbx-micro";
  b.workload = "get";
  b.engine = "lmdb";
  // Per-iteration times 100, 500, 200, 400, 300 (iterations 1..5).
  b.samples = {{1, 100}, {2, 1000}, {3, 600}, {4, 1600}, {5, 1500}};
  return b;
}

double Estimate(const std::string& name, const BenchmarkResult& b) {
  const std::optional<double> v = FindMetric(name)->of_benchmark(b);
  return v ? *v : -1;
}

TEST(Metrics, NamesAreUniqueAndEveryMetricHasAnEstimate) {
  std::set<std::string_view> names;
  for (const Metric& m : Metrics()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_TRUE(m.of_benchmark != nullptr || m.of_phase != nullptr) << m.name;
    EXPECT_EQ(FindMetric(m.name), &m);
  }
  EXPECT_EQ(FindMetric("nosuch"), nullptr);
  EXPECT_EQ(PrimaryMetric(false).name, "time");
  EXPECT_EQ(PrimaryMetric(true).name, "throughput");
}

TEST(Metrics, TypicalTimeIsTheMedianAndTheMeanIsTotalOverIterations) {
  const BenchmarkResult b = Benchmark();
  EXPECT_DOUBLE_EQ(Estimate("time", b), 300);               // median of 100..500
  EXPECT_DOUBLE_EQ(Estimate("time_mean", b), 4800 / 15.0);  // every iteration with its real weight
  EXPECT_DOUBLE_EQ(MeanIterationTime(b), 4800 / 15.0);
}

TEST(Metrics, AStallInSomeSamplesMovesTheMeanNotTheTypicalTime) {
  BenchmarkResult b;
  for (int i = 0; i < 20; ++i) b.samples.push_back(Sample{10, 10 * 1000.0});
  BenchmarkResult stalled = b;
  for (int i : {2, 7, 11, 15, 19, 4}) stalled.samples[i].total_ns *= 1.5;  // 30 % of the samples
  EXPECT_DOUBLE_EQ(Estimate("time", stalled), Estimate("time", b));
  EXPECT_NEAR(Estimate("time_mean", stalled) / Estimate("time_mean", b), 1.15, 1e-12);
}

TEST(Metrics, CpuAndCountersComeFromTheResources) {
  BenchmarkResult b = Benchmark();
  EXPECT_FALSE(FindMetric("cpu")->of_benchmark(b));
  EXPECT_FALSE(FindMetric("disk_bytes")->of_benchmark(b));
  b.resources = ResourceUsage{
      .operations = 10, .cpu_ns_per_op = 42, .fsyncs_per_commit = 2, .io_write_bytes_per_op = 3, .disk_bytes = 4096};
  EXPECT_DOUBLE_EQ(Estimate("cpu", b), 42);
  EXPECT_DOUBLE_EQ(Estimate("fsyncs_per_commit", b), 2);
  EXPECT_DOUBLE_EQ(Estimate("write_bytes_per_op", b), 3);
  EXPECT_DOUBLE_EQ(Estimate("disk_bytes", b), 4096);
  b.resources->fsyncs_per_commit.reset();  // not counted
  EXPECT_FALSE(FindMetric("fsyncs_per_commit")->of_benchmark(b));
}

TEST(Metrics, ACountedRunComparesOnlyItsInstructions) {
  BenchmarkResult b = Benchmark();
  ResourceUsage u;
  u.operations = 10;
  u.cpu_ns_per_op = 42;
  b.resources = u;
  b.instructions = InstructionCount{30000, 3, 30, 1000, "valgrind-3.19.0 callgrind", ""};
  for (const char* timing : {"time", "time_mean", "cpu"}) EXPECT_FALSE(FindMetric(timing)->of_benchmark(b)) << timing;
  EXPECT_DOUBLE_EQ(Estimate("instructions", b), 1000);
  b.instructions->refused = "the counted iterations synced";
  EXPECT_FALSE(FindMetric("instructions")->of_benchmark(b));
}

PhaseResult Phase() {
  PhaseResult p;
  p.phase = "run";
  p.threads = 1;
  p.operations = 50000;
  p.duration_ns = 2.5e9;
  p.service_time.count = p.operations;
  p.service_time.p99_ns = 7000;
  // Two whole seconds and a last, partial one of 0.5 s (10,000 operations at 20,000 op/s).
  p.per_second = {{0, 20000, 20000, 1e9}, {1, 20000, 20000, 1e9}, {2, 10000, 20000, 1e9}};
  return p;
}

TEST(Metrics, PhasesUseTheTotalAndTheMergedHistogram) {
  const PhaseResult p = Phase();
  EXPECT_DOUBLE_EQ(*FindMetric("throughput")->of_phase(p), 20000);  // 50,000 operations in 2.5 s
  EXPECT_DOUBLE_EQ(*FindMetric("p99")->of_phase(p), 7000);          // not the per-second p99s
  EXPECT_EQ(FindMetric("time")->of_phase, nullptr);
  PhaseResult empty;
  EXPECT_DOUBLE_EQ(*FindMetric("throughput")->of_phase(empty), 0);  // a phase with no operations
}

TEST(Metrics, PhaseSeriesWeighsThePartialSecondByItsLength) {
  const PhaseSeries s = PhaseSeriesOf(Phase(), *FindMetric("throughput"));
  ASSERT_EQ(s.numerator.size(), 3u);
  EXPECT_DOUBLE_EQ(s.denominator[2], 0.5);
  EXPECT_DOUBLE_EQ(s.observed, 20000);
  EXPECT_EQ(s.full_intervals, 2u);
  EXPECT_DOUBLE_EQ(s.point, 20000);
  const PhaseSeries p99 = PhaseSeriesOf(Phase(), *FindMetric("p99"));
  EXPECT_DOUBLE_EQ(p99.point, 7000);
  EXPECT_DOUBLE_EQ(p99.observed, 1e9);
}

TEST(Metrics, CounterKinds) {
  PhaseResult p = Phase();
  EXPECT_EQ(CounterKindOf(p), CounterKind::kWorkDetermined);
  p.threads = 4;
  EXPECT_EQ(CounterKindOf(p), CounterKind::kDurationBound);
  p.threads = 1;
  p.bounded_by_duration = true;
  EXPECT_EQ(CounterKindOf(p), CounterKind::kDurationBound);
  p.bounded_by_duration = false;
  p.target_rate = 1000;
  EXPECT_EQ(CounterKindOf(p), CounterKind::kDurationBound);
}

}  // namespace
}  // namespace dbxb
