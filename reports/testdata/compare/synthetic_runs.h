// Synthetic runs for the compare tests: benchmarks whose per-iteration times are drawn, with a seeded
// generator, from a lognormal distribution of known mean and coefficient of variation, so that a test
// knows the true change between two runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/result.h"

namespace dbxb::testdata {

/// n lognormal values with mean `mean` and coefficient of variation `cv` (sigma^2 = ln(1 + cv^2)),
/// from Box-Muller on Xoshiro256(seed).
std::vector<double> LognormalTimes(double mean, double cv, size_t n, uint64_t seed);

struct SyntheticBenchmark {
  std::string workload;
  std::string engine;
  double mean_ns = 1000;
  double cv = 0.02;
};

/// A complete RunResults (context filled as a real run would, host `host`) with one flat-sampled
/// benchmark per spec: `samples` samples of 10 iterations each whose per-iteration times are
/// LognormalTimes(mean_ns, cv, samples, seed + index), analysed with Analyze() (200 resamples: enough for estimates
/// that are only shown) so that the estimates are real.
RunResults SyntheticRun(const std::string& host, const std::vector<SyntheticBenchmark>& specs, uint64_t seed,
                        size_t samples = 100);

/// A measured phase ("ycsb" / "workloada" / `phase` on `engine`, dataset "cached", 4 threads) of
/// `seconds` seconds whose per-second throughput and p99 are LognormalTimes(ops_per_sec, cv, ...) and
/// LognormalTimes(p99_ns, cv, ...) with seeds `seed` and seed + 1; service_time.p99_ns (the merged
/// histogram's p99) is the operations-weighted mean of the per-second p99s.
PhaseResult SyntheticPhase(const std::string& phase, const std::string& engine, double ops_per_sec, double p99_ns,
                           double cv, size_t seconds, uint64_t seed);

}  // namespace dbxb::testdata
