#include "harness/phase_runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "harness/phase_runner_fakes.h"
#include "harness/signal_handlers.h"
#include "records/hdr_encoding.h"

namespace dbxb {
namespace {
TEST(OperationsForThread, SplitsEvenlyFirstThreadsTakeTheRest) {
  PhaseSpec s = Spec(3, 1000);
  EXPECT_EQ(OperationsForThread(s, 0), 334u);
  EXPECT_EQ(OperationsForThread(s, 1), 333u);
  EXPECT_EQ(OperationsForThread(s, 2), 333u);
  s.operations = 0;
  EXPECT_EQ(OperationsForThread(s, 0), 0u);
}

// The record is complete: the caller's labels, and the memory method the spec carries.
TEST(PhaseRunner, RecordCarriesTheIdentityAndTheMemoryMethod) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 10);
  c.spec.parameters = {{"records", "7"}, {kMemoryMethodParameter, "cgroup-v2 memory.max=1"}};
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({"sqlite-vps", "w", "disk-bound", "lmdb", {{"map_size", "1"}}}, phase);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.suite, "sqlite-vps");
  EXPECT_EQ(r.workload, "w");
  EXPECT_EQ(r.dataset, "disk-bound");
  EXPECT_EQ(r.engine, "lmdb");
  EXPECT_EQ(r.engine_settings, (KeyValues{{"map_size", "1"}}));
  EXPECT_EQ(r.phase, "fake");
  EXPECT_EQ(r.memory_method, "cgroup-v2 memory.max=1");

  c.spec.parameters = {{"records", "7"}};
  FakePhase plain(c, &counters);
  PhaseRun other = RunPhase({"ycsb", "", "", "dbx", {}}, plain);
  EXPECT_EQ(other.result.engine, "dbx");
  EXPECT_EQ(other.result.memory_method, "");
}

TEST(PhaseRunner, ClosedLoopCountsEveryOperationOnce) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(3, 1000);
  c.spec.warmup_operations = 10;
  c.spec.rows_per_operation = 4;
  c.spec.parameters = {{"records", "7"}};
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.phase, "fake");
  EXPECT_EQ(r.threads, 3u);
  EXPECT_EQ(r.rows_per_operation, 4u);
  EXPECT_EQ(r.parameters, c.spec.parameters);
  EXPECT_EQ(r.operations, 1000u);
  EXPECT_EQ(r.warmup_operations, 30u);
  EXPECT_EQ(counters.next_op_calls.load(), 1030u) << "warm-up operations run but are not recorded";
  EXPECT_EQ(counters.finishes.load(), 3);
  EXPECT_EQ(counters.tear_downs, 1);
  EXPECT_TRUE(counters.workers_gone_at_tear_down);
  EXPECT_FALSE(r.incomplete);
  EXPECT_FALSE(r.latency_from_intended_start.has_value()) << "closed loop";

  // Per-type counts: thread i's measured op n (after 10 warm-up calls) is (10 + n + i) % 3.
  std::map<std::string, uint64_t> expected;
  for (uint32_t t = 0; t < 3; ++t)
    for (uint64_t n = 0; n < OperationsForThread(c.spec, t); ++n) ++expected[c.spec.op_types[(10 + n + t) % 3]];
  ASSERT_EQ(r.per_op.size(), 3u);
  uint64_t sum = 0;
  for (const OpTypeResult& o : r.per_op) {
    EXPECT_EQ(o.count, expected[o.name]) << o.name;
    EXPECT_EQ(o.service_time.count, o.count) << o.name;
    sum += o.count;
  }
  EXPECT_EQ(sum, 1000u);
  EXPECT_EQ(r.service_time.count, 1000u);
  EXPECT_EQ(run.service_time->Count(), 1000u);
  EXPECT_EQ(SeriesOps(r), 1000u) << "every operation lands in one interval of the time series";
  EXPECT_GT(r.duration_ns, 0);
  EXPECT_GT(r.throughput_ops_per_sec, 0);
  EXPECT_LE(r.service_time.min_ns, r.service_time.p50_ns);
  EXPECT_LE(r.service_time.p50_ns, r.service_time.p99_ns);
  EXPECT_LE(r.service_time.p9999_ns, r.service_time.max_ns);
  EXPECT_FALSE(r.service_time.percentile_curve.empty());
  EXPECT_EQ(r.service_time.percentile_curve.back().first, 100.0);
  EXPECT_TRUE(run.raw_latencies.empty()) << "raw latencies only when asked for";
}

TEST(PhaseRunner, FakeClockGivesExactServiceTimes) {
  FakeClock clock;
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 300);
  c.clock = &clock;
  c.cost = [](uint64_t n) { return 1000 * (n % 3 + 1); };  // 1000, 2000, 3000, ...
  FakePhase phase(c, &counters);
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  PhaseRun run = RunPhase({}, phase, options);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.duration_ns, 300 / 3 * 6000);
  EXPECT_DOUBLE_EQ(r.throughput_ops_per_sec, 300 / (600000 / 1e9));
  EXPECT_EQ(r.service_time.min_ns, 1000);
  EXPECT_EQ(r.service_time.max_ns, 3000);
  EXPECT_DOUBLE_EQ(r.service_time.mean_ns, 2000);
  // Operation n has type n % 3 and costs 1000 * (n % 3 + 1): each type has one exact latency.
  for (size_t op = 0; op < 3; ++op) {
    EXPECT_EQ(r.per_op[op].count, 100u);
    EXPECT_DOUBLE_EQ(r.per_op[op].service_time.mean_ns, 1000.0 * (op + 1)) << op;
    // Standard deviations come from bucket midpoints: 0 within the histogram's precision.
    EXPECT_NEAR(r.per_op[op].service_time.stddev_ns, 0, 1000.0 * (op + 1) / 1000) << op;
    EXPECT_DOUBLE_EQ(r.per_op[op].throughput_ops_per_sec, 100 / 600e-6) << op;
  }
}

TEST(PhaseRunner, DurationBoundAndPerIntervalSeries) {
  FakeClock clock;
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 0);
  c.spec.duration_seconds = 0.001;  // 1 ms of 10 µs operations: 100 of them
  c.clock = &clock;
  c.cost = [](uint64_t) { return 10'000; };
  FakePhase phase(c, &counters);
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  options.series_interval_ns = 100'000;  // intervals of 100 µs: 10 operations each
  PhaseRun run = RunPhase({}, phase, options);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.operations, 100u);
  EXPECT_EQ(r.duration_ns, 1e6);
  // Completions at 10, 20, ..., 1000 µs: interval k holds completions in [100k, 100(k+1)) µs, so the
  // last one, at exactly 1000 µs, opens interval 10. The reserved intervals after it are dropped.
  ASSERT_EQ(r.per_second.size(), 11u);
  EXPECT_EQ(r.per_second[0].operations, 9u);
  for (size_t k = 1; k < 10; ++k) EXPECT_EQ(r.per_second[k].operations, 10u) << k;
  EXPECT_EQ(r.per_second[10].operations, 1u);
  EXPECT_EQ(SeriesOps(r), 100u);
  EXPECT_DOUBLE_EQ(r.per_second[3].second, 3e-4);
  EXPECT_DOUBLE_EQ(r.per_second[3].ops_per_sec, 10 / 1e-4);
  EXPECT_NEAR(r.per_second[3].p99_ns, 10'000, 100) << "interval histograms have 2 significant digits";
}

// --hdr-log's interval histograms: per type, full precision, adding up to the phase's own histograms.
TEST(PhaseRunner, IntervalHistogramsAddUpToThePhaseHistograms) {
  FakeClock clock;
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(2, 300);
  c.spec.target_rate = 200'000;  // open loop, so both kinds are kept
  c.clock = &clock;
  c.cost = [](uint64_t n) -> uint64_t { return 1'000 + 37 * (n % 50); };
  FakePhase phase(c, &counters);
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  options.series_interval_ns = 100'000;
  options.keep_interval_histograms = true;
  PhaseRun run = RunPhase({}, phase, options);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_GT(r.start_unix_s, 1.7e9) << "the wall-clock start is recorded";
  ASSERT_EQ(run.interval_service.size(), 3u);
  ASSERT_EQ(run.interval_from_intended.size(), 3u);
  for (size_t op = 0; op < 3; ++op) {
    LatencyHistogram service, intended;
    for (size_t i = 0; i < run.interval_service[op].IntervalCount(); ++i)
      service.Merge(run.interval_service[op].Interval(i));
    for (size_t i = 0; i < run.interval_from_intended[op].IntervalCount(); ++i)
      intended.Merge(run.interval_from_intended[op].Interval(i));
    EXPECT_GT(run.interval_service[op].IntervalCount(), 1u);
    EXPECT_EQ(service.Count(), r.per_op[op].count);
    EXPECT_EQ(EncodeHdrBase64(service), r.per_op[op].service_time.hdr_histogram) << "the same buckets";
    EXPECT_EQ(EncodeHdrBase64(intended), r.per_op[op].latency_from_intended_start->hdr_histogram);
  }
  // Without the option nothing is kept.
  FakePhase again(c, &counters);
  options.keep_interval_histograms = false;
  EXPECT_TRUE(RunPhase({}, again, options).interval_service.empty());
}

// Open loop: an independent model of the schedule gives the exact latencies from the intended start.
TEST(PhaseRunner, OpenLoopChargesQueueingToTheIntendedStart) {
  FakeClock clock;
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 200);
  c.spec.op_types = {"op"};
  c.spec.target_rate = 100'000;  // one operation every 10 µs
  c.clock = &clock;
  c.cost = [](uint64_t n) -> uint64_t { return n == 50 ? 95'000 : 1'000; };  // one 95 µs stall
  FakePhase phase(c, &counters);
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  options.keep_raw_latencies = true;
  PhaseRun run = RunPhase({}, phase, options);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  ASSERT_TRUE(r.latency_from_intended_start.has_value());
  ASSERT_TRUE(r.per_op[0].latency_from_intended_start.has_value());

  uint64_t t = 0, sum_service = 0, sum_intended = 0, max_intended = 0, late = 0;
  for (uint64_t n = 0; n < 200; ++n) {
    const uint64_t intended = n * 10'000;
    const uint64_t issued = std::max(t, intended);
    t = issued + c.cost(n);
    sum_service += t - issued;
    sum_intended += t - intended;
    max_intended = std::max(max_intended, t - intended);
    late += issued > intended;
  }
  EXPECT_EQ(late, 10u) << "the model: the stall delays the next ten operations";
  EXPECT_DOUBLE_EQ(r.service_time.mean_ns, sum_service / 200.0);
  EXPECT_DOUBLE_EQ(r.latency_from_intended_start->mean_ns, sum_intended / 200.0);
  EXPECT_EQ(r.latency_from_intended_start->max_ns, max_intended);
  EXPECT_EQ(r.service_time.max_ns, 95'000);
  EXPECT_EQ(r.latency_from_intended_start->count, 200u);
  EXPECT_EQ(r.duration_ns, 199 * 10'000 + 1'000) << "the last operation is on schedule";

  // The raw rows carry the same schedule.
  ASSERT_EQ(run.raw_latencies.size(), 1u);
  const RawLatencyBuffer& raw = *run.raw_latencies[0];
  ASSERT_EQ(raw.size(), 200u);
  EXPECT_EQ(raw.at(51).intended_ns, 510'000u);
  EXPECT_EQ(raw.at(51).start_ns, 500'000u + 95'000u);
  EXPECT_EQ(raw.at(51).latency_ns, 1'000u);
}

TEST(PhaseRunner, OpenLoopOnRealClockIsConsistent) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(2, 400);
  c.spec.target_rate = 200'000;
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  const PhaseResult& r = run.result;
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.operations, 400u);
  ASSERT_TRUE(r.latency_from_intended_start.has_value());
  const LatencySummary& i = *r.latency_from_intended_start;
  EXPECT_EQ(i.count, 400u);
  // Each operation's latency from its intended start includes its service time.
  EXPECT_GE(i.mean_ns, r.service_time.mean_ns);
  EXPECT_GE(i.max_ns, r.service_time.max_ns);
  EXPECT_EQ(r.target_rate, 200'000);
}

TEST(PhaseRunner, RawLatenciesCsvHasOneRowPerOperation) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(2, 501);
  FakePhase phase(c, &counters);
  PhaseRunOptions options;
  options.keep_raw_latencies = true;
  PhaseRun run = RunPhase({}, phase, options);
  ASSERT_FALSE(run.result.error_occurred) << run.result.error_message;
  ASSERT_EQ(run.raw_latencies.size(), 2u);
  EXPECT_EQ(run.raw_latencies[0]->size() + run.raw_latencies[1]->size(), 501u);

  // A directory of its own: the tool marks its outputs in a file beside them.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("dbxb_raw_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "latencies.csv").string();
  const FilePolicy files("run", false);
  RawLatencyWriter writer;
  ASSERT_TRUE(writer.Open(files, path).ok());
  std::vector<const RawLatencyBuffer*> buffers = {run.raw_latencies[0].get(), run.raw_latencies[1].get()};
  ASSERT_TRUE(writer.WritePhase("null", "", "w/fake", c.spec.op_types, buffers).ok());
  ASSERT_TRUE(writer.Close().ok());

  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns");
  uint64_t rows = 0, max_latency = 0, min_latency = UINT64_MAX;
  std::map<std::string, uint64_t> per_op;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    ASSERT_EQ(f.size(), 8u) << line;
    EXPECT_EQ(f[0], "null");
    EXPECT_EQ(f[1], "");
    EXPECT_EQ(f[2], "w/fake");
    EXPECT_TRUE(f[3] == "0" || f[3] == "1") << line;
    ++per_op[f[4]];
    uint64_t latency = std::stoull(f[6]);
    EXPECT_EQ(f[7], f[5]) << "closed loop: intended start = start";
    max_latency = std::max(max_latency, latency);
    min_latency = std::min(min_latency, latency);
    ++rows;
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(rows, 501u);
  for (const OpTypeResult& o : run.result.per_op) EXPECT_EQ(per_op[o.name], o.count) << o.name;
  // Min and max are exact in the histogram: the raw rows must agree.
  EXPECT_EQ(static_cast<double>(max_latency), run.result.service_time.max_ns);
  EXPECT_EQ(static_cast<double>(min_latency), run.result.service_time.min_ns);
}

}  // namespace
}  // namespace dbxb
