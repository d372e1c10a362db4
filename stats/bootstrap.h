// Seeded bootstrap: resampling with replacement, percentile confidence intervals.
//
// Determinism: every draw comes from common/prng.h's Xoshiro256 (xoshiro256** seeded through
// SplitMix64) and is mapped to an index by Below() (Lemire's multiply-and-reject method), so the same
// input, resample count and seed give bit-identical distributions with any compiler or standard
// library (std::uniform_int_distribution is implementation-defined, so it is not used).
//
// Resampling order: resample r draws its n indices one after another from one generator stream, and
// resample r + 1 continues the same stream. BootstrapDistribution() and BootstrapSamples() consume the
// stream identically, so for the same seed they resample the very same indices.
#pragma once

#include <cstdint>
#include <vector>

#include "common/function_ref.h"
#include "common/prng.h"
#include "records/result.h"

namespace dbxb {

/// The most resamples any command accepts: 10^7 resamples of 100 samples take seconds; more would only
/// hold the user up (and 10^12 would not fit in memory).
inline constexpr uint64_t kMaxResamples = 10'000'000;

struct BootstrapOptions {
  uint64_t resamples = 100000;     ///< Criterion's default
  double confidence_level = 0.95;  ///< REQUIRES: 0 < confidence_level < 1
  uint64_t seed = 0;
};

/// Turns a bootstrap distribution into an Interval: `point` is the statistic of the original data, the
/// bounds are the interpolated (1 - cl) / 2 and (1 + cl) / 2 quantiles of the distribution (the
/// percentile interval, as Criterion computes it) and std_error is its standard deviation.
/// Reorders *distribution. REQUIRES: distribution is not empty.
Interval SummarizeDistribution(double point, std::vector<double>* distribution, double confidence_level);

/// The statistic evaluated on `resamples` resamples of `values`. Generic and allocation-light (one
/// buffer reused), but it calls `statistic` once per resample; Analyze() uses BootstrapSamples().
/// REQUIRES: values is not empty.
std::vector<double> BootstrapDistribution(const std::vector<double>& values, uint64_t resamples, uint64_t seed,
                                          FunctionRef<double(const std::vector<double>&)> statistic);

/// Percentile interval of `statistic` over `values`: SummarizeDistribution(statistic(values), ...).
/// REQUIRES: values is not empty; options.resamples > 0.
Interval Bootstrap(const std::vector<double>& values, FunctionRef<double(const std::vector<double>&)> statistic,
                   const BootstrapOptions& options);

/// Bootstrap distributions of the statistics Criterion estimates, one entry per resample.
struct SampleDistributions {
  std::vector<double> mean;  ///< of the per-iteration times
  std::vector<double> median;
  std::vector<double> std_dev;
  std::vector<double> median_abs_dev;  ///< scaled by kMadNormalScale
  std::vector<double> slope;           ///< empty unless asked for
};

/// Resamples the (iterations, total_ns) pairs of `samples` jointly and evaluates, on each resample,
/// Mean, Median, StdDev and MedianAbsDev of the per-iteration times and (with_slope) Slope of the
/// pairs. Equal, up to floating-point rounding of sums, to BootstrapDistribution() of each statistic
/// with the same seed, but O(n) per resample with no sorting and no allocation in the loop: the
/// per-iteration times are sorted once and a resample is kept as a count per sorted position.
/// REQUIRES: 2 <= samples.size() < 2^32; every sample has iterations > 0.
SampleDistributions BootstrapSamples(const std::vector<Sample>& samples, bool with_slope, uint64_t resamples,
                                     uint64_t seed);

}  // namespace dbxb
