// t tests of run-level estimates, each with the interval around its estimate: the one-sample (paired)
// t test, Welch's two-sample test, and the trimmed-mean test that `ab` gates on. Small free functions
// over vectors; every variance is SampleVariance (stats/statistics.h), every distribution is in
// stats/distributions.h.
#pragma once

#include <cstddef>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// A t test of "the estimated quantity is 0", and the t interval around the estimate: the one result
/// type of every test here.
struct TTest {
  double estimate = 0;   ///< the mean, the difference of means, the trimmed mean
  double std_error = 0;  ///< NaN when there is too little data to estimate it
  double df = 0;         ///< degrees of freedom (may be fractional); 0 with the std_error NaN
  double t = 0;          ///< estimate / std_error (NaN for 0 / 0, +-infinity for x / 0)
  double p_value = 1;    ///< two-sided

  /// estimate -+ StudentTQuantile((1 + level) / 2, df) x std_error: the two-sided interval at `level`,
  /// its std_error the test's. Exactly [estimate, estimate] when std_error is 0; [-inf, +inf] (no
  /// evidence) when it is NaN. REQUIRES: 0 < level < 1.
  Interval IntervalAt(double level) const;
};

/// One-sample t test of "the mean of `values` is 0" (a paired test when the values are paired
/// differences, e.g. log ratios of rounds): se = s / sqrt(n), df = n - 1. Fewer than 2 values: no
/// evidence (std_error NaN, p 1). Every value equal: std_error 0, so p is 0 unless they are 0.
TTest OneSampleTTest(const std::vector<double>& values);

/// Welch's two-sample t test of "mean(a) - mean(b) is 0": se = sqrt(var(a)/n_a + var(b)/n_b), df by
/// Welch-Satterthwaite (the smaller side's n - 1 when neither side varies). Either side with fewer than 2
/// values: no evidence.
TTest WelchTTest(const std::vector<double>& a, const std::vector<double>& b);

/// The proportion trimmed from each end by the robust paired verdicts: 20 %, Wilcox's usual choice.
inline constexpr double kTrimProportion = 0.2;

/// The gamma-trimmed mean with fractional trimming: gamma n values are dropped from each end of the
/// sorted values, the boundary value of each end counting with weight 1 - frac(gamma n), so that the
/// estimate (and the test below) change smoothly with n. NaN when empty. REQUIRES: 0 <= gamma < 0.5.
double TrimmedMean(const std::vector<double>& values, double gamma);

/// Yuen's trimmed-mean t test of "the trimmed mean of `values` is 0" (one sample, or paired differences
/// such as the log ratios of rounds): estimate = TrimmedMean; se = s_w / ((1 - 2 gamma) sqrt(n)), s_w the
/// standard deviation of the values winsorized floor(gamma n) from each end (Wilcox's trimse, with the
/// nominal gamma); df = (1 - 2 gamma) n - 1, the continuous form of n - 2g - 1, so that one more round
/// never lowers it (with integer g, 5 rounds would have fewer degrees of freedom than 4). With gamma 0
/// it is exactly OneSampleTTest. Fewer than 2 values, or df <= 0: no evidence. A single wild round moves
/// neither the estimate nor the standard error much, where it widens a mean's interval by its whole size.
TTest TrimmedMeanTest(const std::vector<double>& values, double gamma);

}  // namespace dbxb
