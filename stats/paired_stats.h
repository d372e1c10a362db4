// Statistics of run-level estimates: several runs (or paired rounds) per side, as `dbx-bench ab` and
// `dbx-bench compare BASE... -- CURRENT...` gate on them. Small free functions over vectors.
//
// Ratios of times and rates are compared on the log scale: the geometric mean of per-round ratios is
// exp(mean(log ratio)), so a 10 % slowdown and a 10 % speed-up weigh alike and one slow round cannot
// dominate as it would in an arithmetic mean of ratios.
//
// The distributions (Student's t, the normal) are computed here rather than taken from a library:
// the continued fraction of the regularized incomplete beta function (Numerical Recipes, 6.4) gives
// the t distribution to about 1e-12, far below what a gate needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "records/result.h"
#include "stats/bootstrap.h"

namespace dbxb {

/// exp(mean(log x)). NaN when `values` is empty or a value is not finite and > 0.
double GeometricMean(const std::vector<double>& values);

/// Student's t distribution function P(T <= t) with `df` degrees of freedom. REQUIRES: df > 0.
double StudentTCdf(double t, double df);

/// The p-quantile of Student's t with `df` degrees of freedom. REQUIRES: 0 < p < 1, df > 0.
double StudentTQuantile(double p, double df);

/// The p-quantile of the standard normal distribution. REQUIRES: 0 < p < 1.
double NormalQuantile(double p);

/// A t-test: the statistic, its degrees of freedom and the two-sided p-value.
struct TTest {
  double t = 0;
  double df = 0;
  double p_value = 1;
};

/// One-sample t-test of "the mean of `values` is 0" (a paired t-test when the values are paired
/// differences, e.g. log ratios of rounds): t = mean / (s / sqrt(n)), df = n - 1. p is 1 when n < 2
/// or every value is 0; 0 when the values are equal and not 0.
TTest OneSampleTTest(const std::vector<double>& values);

/// Welch's two-sample t-test of "mean(a) == mean(b)": t = (mean(a) - mean(b)) / se with the
/// Welch–Satterthwaite degrees of freedom. p is 1 when either side has fewer than 2 values or
/// neither side varies and the means are equal; 0 when neither varies and the means differ.
TTest WelchTTest(const std::vector<double>& a, const std::vector<double>& b);

/// The proportion trimmed from each end by the robust paired verdicts: 20 %, Wilcox's usual choice.
inline constexpr double kTrimProportion = 0.2;

/// How many values a `proportion`-trimmed statistic drops from each end of n: floor(proportion * n).
size_t TrimCount(size_t n, double proportion);

/// The mean of `values` without their TrimCount(n, proportion) smallest and largest. NaN when empty.
/// REQUIRES: 0 <= proportion < 0.5.
double TrimmedMean(const std::vector<double>& values, double proportion);

/// Tukey and McLaughlin's trimmed-mean t test of "the trimmed mean of `values` is 0" (one sample, or paired differences
/// such as the log ratios of rounds), with its confidence interval. With g = TrimCount(n, proportion) values trimmed
/// from each end and h = n - 2g kept: the standard error is s_w / ((1 - 2g/n) sqrt(n)), s_w the standard deviation of
/// the g-winsorized values, and t has h - 1 degrees of freedom. With g = 0 it is exactly OneSampleTTest and its t
/// interval. A single wild round moves neither the estimate nor the standard error much, where it widens a mean's
/// interval by its whole size.
struct TrimmedTest {
  TTest test;          ///< t, df = h - 1, two-sided p (degenerate cases as OneSampleTTest)
  Interval interval;   ///< point = the trimmed mean; lower, upper = its t interval at `level`
  size_t trimmed = 0;  ///< g, values dropped from each end
};
/// REQUIRES: 0 <= proportion < 0.5, 0 < level < 1. With fewer than 2 kept values: p 1, NaN interval.
TrimmedTest TrimmedMeanTest(const std::vector<double>& values, double proportion, double level);

/// The Wilcoxon signed-rank test of "the differences are symmetric about 0".
struct SignedRankTest {
  double w_plus = 0;   ///< sum of the (mid)ranks of |d| over the positive differences
  uint64_t n = 0;      ///< differences that are not 0 (zeros are dropped, Wilcoxon's rule)
  double p_value = 1;  ///< two-sided: 2 * min(P(W+ <= w_plus), P(W+ >= w_plus)), at most 1
};

/// Exact p-value (the distribution of W+ over all 2^n sign assignments of the midranks, so ties are
/// exact too) for n <= 200; the normal approximation with tie correction beyond. p is 1 for n = 0.
/// With n values the smallest possible p is 2 / 2^n (1/32 for 6 rounds).
SignedRankTest WilcoxonSignedRank(const std::vector<double>& differences);

/// Holm's step-down adjustment of m p-values, in their order: the i-th smallest becomes
/// max over j <= i of min(1, (m - j + 1) * p_(j)). Controls the family-wise error rate: rejecting every
/// adjusted p < alpha rejects a true null among the m with probability at most alpha.
std::vector<double> HolmAdjust(const std::vector<double>& p_values);

/// The confidence level at which a percentile bootstrap of the mean of n values covers about
/// `level`: Hesterberg's expanded percentile interval, 2 * Phi(sqrt(n / (n - 1)) * t_{n-1}) - 1 with
/// t_{n-1} the (1 + level) / 2 quantile of Student's t. Small samples' percentile intervals are too
/// narrow (they use sigma-hat / sqrt(n) with a normal quantile); 0.95 becomes about 0.995 for n = 6.
/// REQUIRES: n >= 2, 0 < level < 1.
double ExpandedBootstrapLevel(double level, size_t n);

/// The geometric mean of `ratios` (per-round current / baseline) with a bootstrap interval over the
/// rounds: options.resamples resamples of the ratios with replacement (Xoshiro256(options.seed)), the
/// geometric mean of each, and the percentile interval at ExpandedBootstrapLevel(options
/// .confidence_level, n). point, lower and upper are ratios (1.10 = 10 % larger).
/// REQUIRES: ratios.size() >= 2, all finite and > 0; options.resamples > 0.
Interval BootstrapGeometricMeanRatio(const std::vector<double>& ratios, const BootstrapOptions& options);

/// The ratio of geometric means GM(current) / GM(baseline) of two independent groups of run-level
/// estimates, with the Welch t interval of the difference of their log means at `level`.
/// REQUIRES: both sides have >= 2 values, all finite and > 0; 0 < level < 1.
Interval RatioOfGeometricMeans(const std::vector<double>& current, const std::vector<double>& baseline, double level);

}  // namespace dbxb
