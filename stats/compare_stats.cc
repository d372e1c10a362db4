#include "stats/compare_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/statistics.h"

namespace dbxb {
namespace {

// a / b, with 0 / 0 (both resamples all zeros) as +infinity rather than NaN, which has no order and
// would break the percentile selection.
double Ratio(double a, double b) {
  const double r = a / b;
  return std::isnan(r) ? std::numeric_limits<double>::infinity() : r;
}

}  // namespace

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
