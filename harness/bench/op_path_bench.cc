// op_path_bench: the cost of what the runner adds to every operation — a clock read, a histogram
// record and a key choice — alone and together. Budget: <= 25 ns per operation.
//
//   build-*/harness/op_path_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// The op path reads the clock once per operation: the end of one operation is the start of the next,
// as in a closed-loop worker.
#include <benchmark/benchmark.h>
#include <time.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <chrono>
#include <cstdint>
#include <vector>

#include "harness/interval_recorder.h"
#include "harness/latency_histogram.h"
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

uint64_t MonotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
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
// For reference only: the raw time-stamp counter, the floor under any clock read. Using it would need
// calibration to nanoseconds and trust in an invariant, synchronised TSC; the runner does not.
void BM_RdtscReference(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
BENCHMARK(BM_RdtscReference);
#endif

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

void BM_IntervalRecord(benchmark::State& state) {
  const auto latencies = SampleLatencies();
  IntervalRecorder r(0);
  r.Reserve(4);
  size_t i = 0;
  uint64_t now = 0;
  for (auto _ : state) {
    now += 100;  // stays within the reserved seconds for any plausible iteration count
    r.Record(now % (3 * IntervalRecorder::kOneSecondNs), latencies[i++ & 4095]);
  }
  benchmark::DoNotOptimize(r.IntervalCount());
}
BENCHMARK(BM_IntervalRecord);

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
}
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
  uint64_t prev = SteadyNowNs();
  IntervalRecorder r(prev);
  r.Reserve(64);
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.Next());
    const uint64_t now = SteadyNowNs();
    h.Record(now - prev);
    r.Record(now, now - prev);
    prev = now;
  }
  benchmark::DoNotOptimize(h.Count());
}
BENCHMARK_TEMPLATE(BM_OpPathWithIntervals, UniformChooser);
BENCHMARK_TEMPLATE(BM_OpPathWithIntervals, ZipfianChooser);

}  // namespace
}  // namespace dbxb

BENCHMARK_MAIN();
