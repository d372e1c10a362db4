// Descriptive statistics over per-iteration times: small free functions over std::vector<double>.
//
// The definitions follow Criterion.rs so that our numbers mean what its users expect:
//  - quantiles interpolate linearly between the closest ranks: the q-quantile of sorted x[0..n-1] is
//    x[floor(h)] + (x[floor(h)+1] - x[floor(h)]) * (h - floor(h)) with h = q * (n - 1)
//    (Hyndman & Fan type 7, the default of R and NumPy);
//  - the median is the 0.5-quantile; the standard deviation divides by n - 1;
//  - the median absolute deviation is the median of |x - median|, scaled by 1.4826 so that it estimates
//    sigma for normal data;
//  - outliers are classified with Tukey's fences on the interpolated quartiles.
//
// Undefined results (the mean of nothing, the deviation of one value) are quiet NaN, never a crash;
// Analyze() in estimates.h rejects such input with InvalidArgument before it gets here.
// REQUIRES everywhere: no NaN among the values (they have no order).
#pragma once

#include <cstdint>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// Scale that makes the median absolute deviation a consistent estimator of sigma for normal data.
inline constexpr double kMadNormalScale = 1.4826;

/// Arithmetic mean. NaN when `values` is empty.
double Mean(const std::vector<double>& values);

/// The 0.5-quantile (the average of the two middle values for even n). NaN when empty. O(n).
double Median(const std::vector<double>& values);

/// The q-quantile of `sorted` by linear interpolation between closest ranks (see above).
/// REQUIRES: `sorted` is sorted ascending; 0 <= q <= 1. NaN when empty.
double Quantile(const std::vector<double>& sorted, double q);

/// Quantile() of `values` in any order, reordering them: O(n) selection instead of a sort.
/// REQUIRES: 0 <= q <= 1. NaN when empty.
double QuantileInPlace(std::vector<double>* values, double q);

/// Sample standard deviation (divides by n - 1), computed in two passes. NaN when n < 2.
double StdDev(const std::vector<double>& values);

/// Median absolute deviation from the median, times kMadNormalScale. NaN when empty.
double MedianAbsDev(const std::vector<double>& values);

/// Least-squares slope through the origin of time against iterations: sum(x * y) / sum(x^2), with
/// x = iterations and y = total_ns. This is Criterion's linear-sampling estimate of the time of one
/// iteration. NaN when `samples` is empty or every sample has zero iterations.
double Slope(const std::vector<Sample>& samples);

/// total_ns / iterations for each sample, in order. Samples with zero iterations give NaN.
std::vector<double> PerIterationTimes(const std::vector<Sample>& samples);

/// Tukey's fences: q1 - 3 IQR, q1 - 1.5 IQR, q3 + 1.5 IQR, q3 + 3 IQR.
struct TukeyFences {
  double low_severe = 0;
  double low_mild = 0;
  double high_mild = 0;
  double high_severe = 0;
};

/// The fences of `values` from its interpolated quartiles. All NaN when empty.
TukeyFences ComputeTukeyFences(const std::vector<double>& values);

/// Counts the values beyond the fences. A value below low_severe is low-severe, else below low_mild
/// low-mild; symmetrically for high. Comparisons are strict, so equal values are never outliers.
/// Stores the fences in *fences when it is not null.
OutlierCounts ClassifyOutliers(const std::vector<double>& values, TukeyFences* fences = nullptr);

}  // namespace dbxb
