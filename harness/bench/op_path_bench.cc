// op_path_bench: the cost of what the runner adds to every operation — a clock read, a histogram
// record and a key choice — alone and together. Budget: <= 25 ns per operation with the TSC clock.
// BM_KeyNext measures a chooser's throughput (draws overlap); BM_OpPath what an operation pays, which
// is the draw's whole execution time, as the clock read waits for the instructions before it.
//
//   build-*/harness/op_path_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The op path reads the clock once per operation: the end of one operation is the start of the next,
// as in a closed-loop worker. The runner reads the calibrated TSC where it can (harness/tsc_clock.h,
// ProcessTscClock()); the clock_gettime variants show what it costs where it cannot.
#include <benchmark/benchmark.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/fixed_phase.h"
#include "harness/phase_runner.h"
#include "harness/tsc_clock.h"
#include "records/interval_recorder.h"
#include "records/latency_histogram.h"
#include "workloads/distributions.h"
#include "workloads/prng.h"

namespace dbxb {
namespace {

constexpr uint64_t kItems = 10'000'000;

uint64_t SteadyNowNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

void BM_SteadyClockNow(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(SteadyNowNs());
}
BENCHMARK(BM_SteadyClockNow);

void BM_ClockGettimeMonotonic(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(MonotonicNowNs());
}
BENCHMARK(BM_ClockGettimeMonotonic);

#if defined(__x86_64__)
// The raw time-stamp counter, the floor under any clock read.
void BM_RdtscReference(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
BENCHMARK(BM_RdtscReference);
#endif

// The phase runner's clock: the TSC scaled to nanoseconds (falls back to CLOCK_MONOTONIC, and says so
// in the benchmark's label, where the TSC is not usable).
uint64_t TscNowNs() {
  static const TscClock* const tsc = ProcessTscClock();
  return tsc != nullptr ? tsc->Now() : MonotonicNowNs();
}

void BM_TscClockNow(benchmark::State& state) {
  state.SetLabel(PhaseClockDescription());
  for (auto _ : state) benchmark::DoNotOptimize(TscNowNs());
}
BENCHMARK(BM_TscClockNow);

// Latencies spread over 100 ns .. 10 ms, precomputed so that only Record() is measured.
std::vector<uint64_t> SampleLatencies() {
  std::vector<uint64_t> v(4096);
  Xoshiro256 rng(1);
  for (auto& x : v) x = 100 + (rng.Next() >> (40 + rng.Below(24)));
  return v;
}

void BM_HistogramRecord(benchmark::State& state) {
  const auto latencies = SampleLatencies();
  LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.Record(latencies[i++ & 4095]);
  }
  benchmark::DoNotOptimize(h.Count());
}
BENCHMARK(BM_HistogramRecord);

// Arg: significant digits (2: the per-second series; 3: the per-type intervals --hdr-log adds).
void BM_IntervalRecord(benchmark::State& state) {
  const auto latencies = SampleLatencies();
  IntervalRecorder r(0, IntervalRecorder::kOneSecondNs, static_cast<int>(state.range(0)));
  r.Reserve(4);
  size_t i = 0;
  uint64_t now = 0;
  for (auto _ : state) {
    now += 100;  // stays within the reserved seconds for any plausible iteration count
    r.Record(now % (3 * IntervalRecorder::kOneSecondNs), latencies[i++ & 4095]);
  }
  benchmark::DoNotOptimize(r.IntervalCount());
}
BENCHMARK(BM_IntervalRecord)->Arg(2)->Arg(3);

template <typename Chooser>
void BM_KeyNext(benchmark::State& state) {
  Chooser c(kItems, 1);
  for (auto _ : state) benchmark::DoNotOptimize(c.Next());
}
BENCHMARK_TEMPLATE(BM_KeyNext, UniformChooser);
BENCHMARK_TEMPLATE(BM_KeyNext, ZipfianChooser);
BENCHMARK_TEMPLATE(BM_KeyNext, ScrambledZipfianChooser);
BENCHMARK_TEMPLATE(BM_KeyNext, LatestChooser);

// Through the KeyChooser interface, as a runner that picks the distribution at run time calls it.
void BM_KeyNextVirtual(benchmark::State& state, const char* name) {
  KeyChooserOptions o;
  o.item_count = kItems;
  auto c = std::move(MakeKeyChooser(name, o)).value();
  for (auto _ : state) benchmark::DoNotOptimize(c->Next());
}
BENCHMARK_CAPTURE(BM_KeyNextVirtual, uniform, "uniform");
BENCHMARK_CAPTURE(BM_KeyNextVirtual, zipfian, "zipfian");
BENCHMARK_CAPTURE(BM_KeyNextVirtual, scrambled_zipfian, "scrambled_zipfian");

// The whole per-operation path: choose a key, (the operation), read the clock, record the latency.
// The counters p50, p90 and p99 are percentiles of the recorded per-operation times (clock ticks, so
// wall time): they show how the cost spreads over the operations, e.g. the zipfian family's one
// operation in kDrawAhead that computes the next keys.
template <typename Chooser, uint64_t (*Now)()>
void BM_OpPath(benchmark::State& state) {
  Chooser c(kItems, 1);
  LatencyHistogram h;
  uint64_t prev = Now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.Next());
    const uint64_t now = Now();
    h.Record(now - prev);
    prev = now;
  }
  benchmark::DoNotOptimize(h.Count());
  for (double p : {50.0, 90.0, 99.0})
    state.counters[p == 50 ? "p50" : p == 90 ? "p90" : "p99"] = static_cast<double>(h.ValueAtPercentile(p));
}
BENCHMARK_TEMPLATE(BM_OpPath, UniformChooser, TscNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, ZipfianChooser, TscNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, ScrambledZipfianChooser, TscNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, LatestChooser, TscNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, UniformChooser, SteadyNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, ZipfianChooser, SteadyNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, ScrambledZipfianChooser, SteadyNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, UniformChooser, MonotonicNowNs);
BENCHMARK_TEMPLATE(BM_OpPath, ZipfianChooser, MonotonicNowNs);

// The op path plus the per-second time series (one more record per operation).
template <typename Chooser>
void BM_OpPathWithIntervals(benchmark::State& state) {
  Chooser c(kItems, 1);
  LatencyHistogram h;
  uint64_t prev = TscNowNs();
  IntervalRecorder r(prev);
  r.Reserve(64);
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.Next());
    const uint64_t now = TscNowNs();
    h.Record(now - prev);
    r.Record(now, now - prev);
    prev = now;
  }
  benchmark::DoNotOptimize(h.Count());
}
BENCHMARK_TEMPLATE(BM_OpPathWithIntervals, UniformChooser);
BENCHMARK_TEMPLATE(BM_OpPathWithIntervals, ZipfianChooser);

// The phase runner's real measured loop (harness/phase_runner.cc) on one thread, with a worker that does
// nothing (kNoop) or only chooses a key (kKey: the key choice a YCSB or sqlite-vps worker makes, through
// the KeyChooser interface). One benchmark iteration is one phase of state.range(0) operations; the
// counter ns_per_op is the mean service time the runner recorded, i.e. its own cost per operation
// (clock read, histogram record, interval record, stop checks, the virtual NextOp call, keygen).
enum class LoopWorker { kNoop, kKey };

class BenchWorker final : public PhaseWorker {
 public:
  explicit BenchWorker(LoopWorker kind) : kind_(kind) {
    KeyChooserOptions o;
    o.item_count = kItems;
    chooser_ = std::move(MakeKeyChooser("scrambled_zipfian", o)).value();
  }
  Status NextOp(uint32_t* op) override {
    *op = 0;
    if (kind_ == LoopWorker::kKey) sink_ += chooser_->Next();
    return Status::Ok();
  }
  uint64_t sink_ = 0;

 private:
  LoopWorker kind_;
  std::unique_ptr<KeyChooser> chooser_;
};

// The phase of one BM_PhaseLoop iteration: `ops` operations of one type, each a `kind` worker's.
FixedPhase BenchPhase(LoopWorker kind, uint64_t ops, bool open_loop) {
  PhaseSpec spec;
  spec.name = "bench";
  spec.op_types = {"op"};
  spec.operations = ops;
  // Open loop at a rate no thread keeps up with: every operation is behind schedule and issued at
  // once, which measures the open loop's bookkeeping (schedule, second histogram) without sleeps.
  if (open_loop) spec.target_rate = 1e12;
  return FixedPhase(std::move(spec), [kind] { return std::unique_ptr<PhaseWorker>(new BenchWorker(kind)); });
}

void BM_PhaseLoop(benchmark::State& state, LoopWorker kind, bool open_loop, bool raw) {
  const uint64_t ops = static_cast<uint64_t>(state.range(0));
  double ns_per_op = 0, wall_ns_per_op = 0, cpu_ns_per_op = 0;
  auto process_cpu_ns = [] {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
  };
  for (auto _ : state) {
    FixedPhase phase = BenchPhase(kind, ops, open_loop);
    PhaseRunOptions options;
    options.keep_raw_latencies = raw;
    const double cpu_before = process_cpu_ns();
    PhaseRun run = RunPhase({}, phase, options);
    // CPU time of the whole process (the benchmark thread waits in join): robust on a busy machine,
    // where wall-clock service times also hold the time the worker thread was not scheduled.
    cpu_ns_per_op += (process_cpu_ns() - cpu_before) / static_cast<double>(ops);
    if (run.result.error_occurred) state.SkipWithError(run.result.error_message.c_str());
    ns_per_op += run.result.service_time.mean_ns;
    wall_ns_per_op += run.result.duration_ns / static_cast<double>(ops);
  }
  state.counters["ns_per_op"] = ns_per_op / static_cast<double>(state.iterations());
  state.counters["phase_ns_per_op"] = wall_ns_per_op / static_cast<double>(state.iterations());
  state.counters["cpu_ns_per_op"] = cpu_ns_per_op / static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(ops));
}
// Every BM_PhaseLoop case: phases of 2^20 operations, reported in milliseconds per phase.
void PhaseOfAMillionOps(benchmark::internal::Benchmark* b) { b->Arg(1 << 20)->Unit(benchmark::kMillisecond); }
BENCHMARK_CAPTURE(BM_PhaseLoop, closed_noop, LoopWorker::kNoop, false, false)->Apply(PhaseOfAMillionOps);
BENCHMARK_CAPTURE(BM_PhaseLoop, closed_keygen, LoopWorker::kKey, false, false)->Apply(PhaseOfAMillionOps);
BENCHMARK_CAPTURE(BM_PhaseLoop, closed_keygen_raw, LoopWorker::kKey, false, true)->Apply(PhaseOfAMillionOps);
BENCHMARK_CAPTURE(BM_PhaseLoop, open_keygen, LoopWorker::kKey, true, false)->Apply(PhaseOfAMillionOps);

}  // namespace
}  // namespace dbxb

BENCHMARK_MAIN();
