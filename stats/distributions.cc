#include "stats/distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dbxb {
namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz's method).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEpsilon = 1e-15;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 1000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEpsilon) break;
  }
  return h;
}

// I_x(a, b), the regularized incomplete beta function.
double RegularizedBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

// The x in [lo, hi] with cdf(x) = p, by bisection (cdf increasing).
template <typename Cdf>
double Invert(Cdf cdf, double p, double lo, double hi) {
  for (int i = 0; i < 400 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo + (hi - lo) / 2)); ++i) {
    const double mid = lo + (hi - lo) / 2;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

}  // namespace

double StudentTCdf(double t, double df) {
  if (std::isnan(t)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double tail = 0.5 * RegularizedBeta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double StudentTTwoSidedP(double t, double df) {
  if (std::isnan(t)) return 1;
  if (std::isinf(t)) return 0;
  return std::min(1.0, RegularizedBeta(df / 2, 0.5, df / (df + t * t)));
}

double StudentTQuantile(double p, double df) {
  return Invert([df](double t) { return StudentTCdf(t, df); }, p, -1e12, 1e12);
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double NormalQuantile(double p) { return Invert(NormalCdf, p, -40, 40); }

}  // namespace dbxb
