#include "stats/t_tests.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/distributions.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// A test from an estimate, its standard error and degrees of freedom, with the degenerate cases of the
// header: no spread and no difference is no evidence (t NaN, p 1); no spread and a difference is
// certain (t +-infinity, p 0); an unknown spread is no evidence.
TTest TestOf(double estimate, double std_error, double df) {
  TTest r;
  r.estimate = estimate;
  r.std_error = std_error;
  r.df = df;
  if (std::isnan(std_error) || !(df > 0)) {
    r.std_error = kNaN;
    r.t = kNaN;
    r.p_value = 1;
    return r;
  }
  if (std_error > 0) {
    r.t = estimate / std_error;
  } else {
    r.t = estimate == 0 ? kNaN : std::copysign(kInf, estimate);
  }
  r.p_value = StudentTTwoSidedP(r.t, df);
  return r;
}

TTest NoEvidence(double estimate) { return TestOf(estimate, kNaN, 0); }

}  // namespace

Interval TTest::IntervalAt(double level) const {
  if (std::isnan(std_error)) return Interval{estimate, -kInf, kInf, kNaN};
  if (std_error == 0) return Interval{estimate, estimate, estimate, 0};
  const double half = StudentTQuantile((1 + level) / 2, df) * std_error;
  return Interval{estimate, estimate - half, estimate + half, std_error};
}

TTest OneSampleTTest(const std::vector<double>& values) {
  if (values.size() < 2) return NoEvidence(values.empty() ? kNaN : values[0]);
  const double n = static_cast<double>(values.size());
  return TestOf(Mean(values), std::sqrt(SampleVariance(values) / n), n - 1);
}

TTest WelchTTest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return NoEvidence(Mean(a) - Mean(b));
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = SampleVariance(a) / na, vb = SampleVariance(b) / nb;
  const double se2 = va + vb;
  // Welch-Satterthwaite; with no spread on either side the smaller group's n - 1.
  const double df = se2 > 0 ? se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1)) : std::min(na, nb) - 1;
  return TestOf(Mean(a) - Mean(b), std::sqrt(se2), df);
}

double TrimmedMean(const std::vector<double>& values, double gamma) {
  if (values.empty()) return kNaN;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  const double cut = gamma * n;
  double sum = 0, weights = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    // Rank from the nearer end minus the cut, clamped to [0, 1]: 0 for trimmed values, 1 inside.
    const double rank = std::min(static_cast<double>(i) + 1, n - static_cast<double>(i));
    const double w = std::clamp(rank - cut, 0.0, 1.0);
    sum += w * sorted[i];
    weights += w;
  }
  return sum / weights;
}

TTest TrimmedMeanTest(const std::vector<double>& values, double gamma) {
  const size_t n = values.size();
  const double estimate = TrimmedMean(values, gamma);
  const double nn = static_cast<double>(n);
  const double df = (1 - 2 * gamma) * nn - 1;
  if (n < 2 || !(df > 0)) return NoEvidence(estimate);
  std::vector<double> winsorized = values;
  std::sort(winsorized.begin(), winsorized.end());
  const auto g = static_cast<size_t>(std::floor(gamma * nn));
  const double low = winsorized[g], high = winsorized[n - 1 - g];
  for (double& x : winsorized) x = std::clamp(x, low, high);
  return TestOf(estimate, std::sqrt(SampleVariance(winsorized)) / ((1 - 2 * gamma) * std::sqrt(nn)), df);
}

}  // namespace dbxb
