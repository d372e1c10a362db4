// The statistics of comparing two runs of one benchmark, as Criterion.rs compares a run with its
// saved baseline:
//  - a two-sample bootstrap t-test of "both samples have the same mean" whose null distribution comes
//    from a *mixed* bootstrap (both groups resampled from the pooled values), and
//  - the relative change current / baseline - 1 of the mean and of the median, with percentile
//    bootstrap intervals from resampling each side independently.
// Everything is seeded (stats/bootstrap.h), so the same input, resample count and seed give the same
// answer on every machine. Inputs are plain values (per-iteration times today; later any per-interval
// series such as per-second throughput), so any metric can be compared with these functions.
#pragma once

#include <cstdint>
#include <vector>

#include "records/result.h"
#include "stats/bootstrap.h"

namespace dbxb {

/// Welch's t statistic (mean(a) - mean(b)) / sqrt(var(a) / n_a + var(b) / n_b), variances dividing
/// by n - 1. NaN when either side has fewer than 2 values or both sides are constant and equal;
/// +-infinity when both are constant and differ.
double WelchT(const std::vector<double>& a, const std::vector<double>& b);

struct TTestResult {
  double t = 0;                   ///< WelchT(current, baseline) of the data
  double p_value = 1;             ///< two-tailed, in [0, 1]
  uint64_t finite_resamples = 0;  ///< resamples whose t was finite (the others are left out)
};

/// Criterion's bootstrap t-test. The observed statistic is t = WelchT(current, baseline). Its null
/// distribution: `resamples` times, draw current.size() + baseline.size() values with replacement from
/// the pooled values (current then baseline), split them into a resampled current (the first
/// current.size()) and a resampled baseline (the rest), and compute their Welch t; non-finite values
/// are dropped. With `below` the number of resampled t strictly below the observed t and N the number
/// kept, p = 2 * min(below, N - below) / N (Criterion's two-tailed p-value).
/// p is 1 when the observed t is NaN (two equal constant samples: no evidence of a change) or no
/// resample gave a finite t.
/// REQUIRES: both sides have at least 2 values; resamples > 0.
TTestResult BootstrapTTest(const std::vector<double>& current, const std::vector<double>& baseline, uint64_t resamples,
                           uint64_t seed);

/// Bootstrap distributions of the mean and of the median of `values`, one entry each per resample.
/// Resample r draws values.size() indices from Xoshiro256(seed) (common/prng.h) into the values sorted
/// ascending, exactly as BootstrapDistribution(sorted values, resamples, seed, ...) does, so the results
/// equal Mean() and Median() of those resamples (the means up to rounding of the sum). O(n) per
/// resample: a resample is kept as a count per sorted position, so the median needs no sort.
/// REQUIRES: values.size() >= 2, no NaN.
struct MeanMedianDistributions {
  std::vector<double> mean;
  std::vector<double> median;
};
MeanMedianDistributions BootstrapMeanAndMedian(const std::vector<double>& values, uint64_t resamples, uint64_t seed);

/// Relative changes of the mean and the median, as fractions (0.05 = 5 % larger than the baseline).
struct RelativeChange {
  Interval mean;
  Interval median;
};

/// The point estimates are Mean(current) / Mean(baseline) - 1 and the same with Median(). Intervals:
/// `options.resamples` resamples of each side, drawn independently (the baseline from a generator
/// seeded with options.seed, the current from one seeded with options.seed + 1); resample r of the
/// distribution pairs the r-th resample of each side. Bounds are the percentile interval at
/// options.confidence_level (SummarizeDistribution).
/// (BootstrapMeanAndMedian on each side.)
/// Criterion pairs each of sqrt(N) baseline resamples with sqrt(N) current resamples to save time; we
/// draw N independent pairs, which is the textbook two-sample bootstrap and costs little here.
/// REQUIRES: both sides have at least 2 values, all finite and >= 0, and the baseline's mean and median
/// are > 0; options.resamples > 0. (A resample of a baseline with many zeros can still have a zero
/// mean or median; its ratio is then taken as +infinity and lands at the end of the percentile interval.)
RelativeChange BootstrapRelativeChange(const std::vector<double>& current, const std::vector<double>& baseline,
                                       const BootstrapOptions& options);

/// A moving-block bootstrap of sum(numerator) / sum(denominator) over a series of consecutive
/// intervals (e.g. a phase's operations and interval lengths: its total rate), which keeps the
/// autocorrelation of neighbouring intervals that an i.i.d. resample would destroy. Each resample
/// joins ceil(n / block) circular blocks of `block` consecutive intervals starting at uniformly drawn
/// positions (Xoshiro256(seed)), cut to n intervals. Returns the `resamples` ratios (a resample whose
/// denominator is 0 gives +infinity).
/// REQUIRES: numerator.size() == denominator.size() >= 1; 1 <= block; resamples > 0.
std::vector<double> BlockBootstrapRatioOfSums(const std::vector<double>& numerator,
                                              const std::vector<double>& denominator, size_t block, uint64_t resamples,
                                              uint64_t seed);

/// The block length of BlockBootstrapRatioOfSums for n intervals: round(n^(1/3)), at least 1 (the
/// order that minimises the error of a block-bootstrap variance, Hall, Horowitz and Jing 1995).
size_t BlockLength(size_t n);

}  // namespace dbxb
