#include "stats/compare_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/statistics.h"

namespace dbxb {
namespace {

struct MeanVariance {
  double mean;
  double variance;
};

// Two passes, as StdDev() does: the one-pass formula loses digits when the mean dwarfs the spread,
// which is the normal case for benchmark times.
MeanVariance MeanAndVariance(const double* values, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += values[i];
  const double mean = sum / static_cast<double>(n);
  double squares = 0;
  for (size_t i = 0; i < n; ++i) squares += (values[i] - mean) * (values[i] - mean);
  return {mean, squares / static_cast<double>(n - 1)};
}

double WelchTOf(const double* a, size_t n_a, const double* b, size_t n_b) {
  const MeanVariance x = MeanAndVariance(a, n_a);
  const MeanVariance y = MeanAndVariance(b, n_b);
  return (x.mean - y.mean) / std::sqrt(x.variance / static_cast<double>(n_a) + y.variance / static_cast<double>(n_b));
}

// a / b, with 0 / 0 (both resamples all zeros) as +infinity rather than NaN, which has no order and
// would break the percentile selection.
double Ratio(double a, double b) {
  const double r = a / b;
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
}

}  // namespace

double WelchT(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  return WelchTOf(a.data(), a.size(), b.data(), b.size());
}

TTestResult BootstrapTTest(const std::vector<double>& current, const std::vector<double>& baseline, uint64_t resamples,
                           uint64_t seed) {
  TTestResult result;
  result.t = WelchT(current, baseline);
  result.p_value = 1;
  if (std::isnan(result.t)) return result;

  std::vector<double> pooled(current);
  pooled.insert(pooled.end(), baseline.begin(), baseline.end());
  const size_t n_a = current.size();
  const size_t n = pooled.size();
  std::vector<double> resample(n);
  Xoshiro256 rng(seed);
  uint64_t below = 0;
  for (uint64_t r = 0; r < resamples; ++r) {
    for (size_t k = 0; k < n; ++k) resample[k] = pooled[rng.Below(n)];
    const double t = WelchTOf(resample.data(), n_a, resample.data() + n_a, n - n_a);
    if (!std::isfinite(t)) continue;
    ++result.finite_resamples;
    if (t < result.t) ++below;
  }
  if (result.finite_resamples == 0) return result;
  const uint64_t tail = std::min(below, result.finite_resamples - below);
  result.p_value = 2.0 * static_cast<double>(tail) / static_cast<double>(result.finite_resamples);
  return result;
}

MeanMedianDistributions BootstrapMeanAndMedian(const std::vector<double>& values, uint64_t resamples, uint64_t seed) {
  std::vector<double> sorted(values);
  std::sort(sorted.begin(), sorted.end());
  const uint64_t n = sorted.size();
  // The median of n values interpolates between ranks lo and lo + 1 (Quantile()'s rule at q = 0.5).
  const double rank = 0.5 * static_cast<double>(n - 1);
  const auto lo = static_cast<uint64_t>(std::floor(rank));
  const double fraction = rank - std::floor(rank);
  std::vector<uint32_t> count(n);
  MeanMedianDistributions out;
  out.mean.reserve(resamples);
  out.median.reserve(resamples);
  Xoshiro256 rng(seed);
  for (uint64_t r = 0; r < resamples; ++r) {
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t k = 0; k < n; ++k) ++count[rng.Below(n)];
    double sum = 0;
    for (uint64_t p = 0; p < n; ++p) sum += static_cast<double>(count[p]) * sorted[p];
    uint64_t seen = 0;
    double at_lo = 0, at_hi = 0;
    bool have_lo = false;
    for (uint64_t p = 0; p < n; ++p) {
      seen += count[p];
      if (!have_lo && seen > lo) {
        at_lo = sorted[p];
        have_lo = true;
      }
      if (seen > lo + 1) {
        at_hi = sorted[p];
        break;
      }
    }
    out.mean.push_back(sum / static_cast<double>(n));
    out.median.push_back(at_lo + (at_hi - at_lo) * fraction);
  }
  return out;
}

RelativeChange BootstrapRelativeChange(const std::vector<double>& current, const std::vector<double>& baseline,
                                       const BootstrapOptions& options) {
  const MeanMedianDistributions base = BootstrapMeanAndMedian(baseline, options.resamples, options.seed);
  const MeanMedianDistributions cur = BootstrapMeanAndMedian(current, options.resamples, options.seed + 1);
  std::vector<double> mean_change(options.resamples), median_change(options.resamples);
  for (uint64_t r = 0; r < options.resamples; ++r) {
    mean_change[r] = Ratio(cur.mean[r], base.mean[r]) - 1;
    median_change[r] = Ratio(cur.median[r], base.median[r]) - 1;
  }
  RelativeChange change;
  change.mean = SummarizeDistribution(Mean(current) / Mean(baseline) - 1, &mean_change, options.confidence_level);
  change.median =
      SummarizeDistribution(Median(current) / Median(baseline) - 1, &median_change, options.confidence_level);
  return change;
}

std::vector<double> BlockBootstrapRatioOfSums(const std::vector<double>& numerator,
                                              const std::vector<double>& denominator, size_t block, uint64_t resamples,
                                              uint64_t seed) {
  const size_t n = numerator.size();
  std::vector<double> out;
  out.reserve(resamples);
  Xoshiro256 rng(seed);
  for (uint64_t r = 0; r < resamples; ++r) {
    double num = 0, den = 0;
    for (size_t taken = 0; taken < n;) {
      const size_t start = rng.Below(n);
      for (size_t k = 0; k < block && taken < n; ++k, ++taken) {
        num += numerator[(start + k) % n];
        den += denominator[(start + k) % n];
      }
    }
    out.push_back(Ratio(num, den));
  }
  return out;
}

size_t BlockLength(size_t n) {
  return std::max<size_t>(1, static_cast<size_t>(std::lround(std::cbrt(static_cast<double>(n)))));
}

}  // namespace dbxb
