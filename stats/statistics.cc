#include "stats/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double QuantileInPlace(std::vector<double>* values, double q) {
  // nth_element places the lower closest rank; the upper one is the minimum of what lies above it.
  std::vector<double>& v = *values;
  if (v.empty()) return kNaN;
  const double rank = q * static_cast<double>(v.size() - 1);
  const double integer = std::floor(rank);
  const double fraction = rank - integer;
  const auto lo = static_cast<size_t>(integer);
  std::nth_element(v.begin(), v.begin() + lo, v.end());
  const double floor_value = v[lo];
  if (lo + 1 >= v.size()) return floor_value;
  const double ceiling_value = *std::min_element(v.begin() + lo + 1, v.end());
  // The same expression as Quantile(), so both give bit-identical results.
  return floor_value + (ceiling_value - floor_value) * fraction;
}

double Mean(const std::vector<double>& values) {
  if (values.empty()) return kNaN;
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

double Median(const std::vector<double>& values) {
  std::vector<double> copy = values;
  return QuantileInPlace(&copy, 0.5);
}

double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return kNaN;
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const double integer = std::floor(rank);
  const double fraction = rank - integer;
  const auto lo = static_cast<size_t>(integer);
  if (lo + 1 >= sorted.size()) return sorted.back();
  return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * fraction;
}

double StdDev(const std::vector<double>& values) {
  if (values.size() < 2) return kNaN;
  const double mean = Mean(values);
  double sum_sq = 0;
  for (double v : values) sum_sq += (v - mean) * (v - mean);
  return std::sqrt(sum_sq / static_cast<double>(values.size() - 1));
}

double MedianAbsDev(const std::vector<double>& values) {
  if (values.empty()) return kNaN;
  const double median = Median(values);
  std::vector<double> deviations(values.size());
  for (size_t i = 0; i < values.size(); ++i) deviations[i] = std::fabs(values[i] - median);
  return QuantileInPlace(&deviations, 0.5) * kMadNormalScale;
}

double Slope(const std::vector<Sample>& samples) {
  double xy = 0, xx = 0;
  for (const Sample& s : samples) {
    const auto x = static_cast<double>(s.iterations);
    xy += x * s.total_ns;
    xx += x * x;
  }
  if (xx == 0) return kNaN;
  return xy / xx;
}

std::vector<double> PerIterationTimes(const std::vector<Sample>& samples) {
  std::vector<double> times;
  times.reserve(samples.size());
  for (const Sample& s : samples)
    times.push_back(s.iterations == 0 ? kNaN : s.total_ns / static_cast<double>(s.iterations));
  return times;
}

TukeyFences ComputeTukeyFences(const std::vector<double>& values) {
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const double q1 = Quantile(sorted, 0.25);
  const double q3 = Quantile(sorted, 0.75);
  const double iqr = q3 - q1;
  return TukeyFences{q1 - 3.0 * iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr, q3 + 3.0 * iqr};
}

OutlierCounts ClassifyOutliers(const std::vector<double>& values, TukeyFences* fences) {
  const TukeyFences f = ComputeTukeyFences(values);
  if (fences != nullptr) *fences = f;
  OutlierCounts counts;
  for (double v : values) {
    if (v < f.low_severe) {
      ++counts.low_severe;
    } else if (v > f.high_severe) {
      ++counts.high_severe;
    } else if (v < f.low_mild) {
      ++counts.low_mild;
    } else if (v > f.high_mild) {
      ++counts.high_mild;
    }
  }
  return counts;
}

}  // namespace dbxb
