// Cost of analysing one benchmark: Analyze() on 100 linear samples with Criterion's 100,000 resamples,
// and, side by side, the generic per-statistic bootstrap it replaces.
//
//   build/stats/dbxb_stats_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <vector>

#include "common/prng.h"
#include "stats/bootstrap.h"
#include "stats/estimates.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

std::vector<Sample> LinearSamples(size_t n) {
  Xoshiro256 gen(1);
  std::vector<Sample> s;
  for (size_t i = 1; i <= n; ++i) {
    const uint64_t iters = 1000 * i;
    s.push_back({iters, static_cast<double>(iters) * (95.0 + 10.0 * gen.NextDouble())});
  }
  return s;
}

void BM_AnalyzeLinear(benchmark::State& state) {
  const std::vector<Sample> samples = LinearSamples(static_cast<size_t>(state.range(0)));
  SamplingConfig config;  // 100,000 resamples
  for (auto _ : state) {
    BenchmarkResult r;
    Status s = Analyze(samples, SamplingMode::kLinear, 1, config, &r);
    benchmark::DoNotOptimize(r.estimates.mean.lower);
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  }
}
BENCHMARK(BM_AnalyzeLinear)->Arg(100)->Unit(benchmark::kMillisecond);

// Mean, median, std dev, MAD (four generic bootstraps of 100,000 resamples) plus the slope's.
void BM_GenericFiveStatistics(benchmark::State& state) {
  const std::vector<Sample> samples = LinearSamples(static_cast<size_t>(state.range(0)));
  const std::vector<double> times = PerIterationTimes(samples);
  const BootstrapOptions options;
  auto mean = [](const std::vector<double>& x) { return Mean(x); };
  auto median = [](const std::vector<double>& x) { return Median(x); };
  auto sd = [](const std::vector<double>& x) { return StdDev(x); };
  auto mad = [](const std::vector<double>& x) { return MedianAbsDev(x); };
  for (auto _ : state) {
    benchmark::DoNotOptimize(Bootstrap(times, mean, options));
    benchmark::DoNotOptimize(Bootstrap(times, median, options));
    benchmark::DoNotOptimize(Bootstrap(times, sd, options));
    benchmark::DoNotOptimize(Bootstrap(times, mad, options));
    // The slope bootstrap costs about what the mean's does; counted once more as the mean.
    benchmark::DoNotOptimize(Bootstrap(times, mean, options));
  }
}
BENCHMARK(BM_GenericFiveStatistics)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace dbxb

BENCHMARK_MAIN();
