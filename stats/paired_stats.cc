#include "stats/paired_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "common/prng.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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

// Two-sided p of a t statistic: P(|T| >= |t|).
double TwoSidedP(double t, double df) {
  if (std::isnan(t)) return 1;
  if (std::isinf(t)) return 0;
  return std::min(1.0, RegularizedBeta(df / 2, 0.5, df / (df + t * t)));
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// The x in [lo, hi] with cdf(x) = p, by bisection (cdf increasing).
template <typename Cdf>
double Invert(Cdf cdf, double p, double lo, double hi) {
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = lo + (hi - lo) / 2;
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

double SumOf(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

double SampleVariance(const std::vector<double>& v) {
  const double mean = SumOf(v) / static_cast<double>(v.size());
  double squares = 0;
  for (double x : v) squares += (x - mean) * (x - mean);
  return squares / static_cast<double>(v.size() - 1);
}

// A t statistic from a difference and its squared standard error, with the degenerate cases of the
// header: no spread and no difference is no evidence (t NaN, p 1); no spread and a difference is
// certain (t +-infinity, p 0).
TTest TestOf(double difference, double variance_of_difference, double df) {
  TTest r;
  r.df = df;
  if (variance_of_difference > 0) {
    r.t = difference / std::sqrt(variance_of_difference);
  } else {
    r.t = difference == 0 ? kNaN : std::copysign(std::numeric_limits<double>::infinity(), difference);
  }
  r.p_value = TwoSidedP(r.t, df);
  return r;
}

}  // namespace

double GeometricMean(const std::vector<double>& values) {
  if (values.empty()) return kNaN;
  double sum = 0;
  for (double v : values) {
    if (!(v > 0) || !std::isfinite(v)) return kNaN;
    sum += std::log(v);
  }
  return std::exp(sum / static_cast<double>(values.size()));
}

double StudentTCdf(double t, double df) {
  if (std::isnan(t)) return kNaN;
  if (std::isinf(t)) return t > 0 ? 1 : 0;
  const double tail = 0.5 * RegularizedBeta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - tail : tail;
}

double StudentTQuantile(double p, double df) {
  return Invert([df](double t) { return StudentTCdf(t, df); }, p, -1e8, 1e8);
}

double NormalQuantile(double p) { return Invert(NormalCdf, p, -40, 40); }

TTest OneSampleTTest(const std::vector<double>& values) {
  if (values.size() < 2) return TTest{kNaN, 0, 1};
  const double n = static_cast<double>(values.size());
  return TestOf(SumOf(values) / n, SampleVariance(values) / n, n - 1);
}

size_t TrimCount(size_t n, double proportion) {
  return static_cast<size_t>(std::floor(proportion * static_cast<double>(n)));
}

double TrimmedMean(const std::vector<double>& values, double proportion) {
  if (values.empty()) return kNaN;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t g = TrimCount(sorted.size(), proportion);
  const std::vector<double> kept(sorted.begin() + static_cast<std::ptrdiff_t>(g),
                                 sorted.end() - static_cast<std::ptrdiff_t>(g));
  return SumOf(kept) / static_cast<double>(kept.size());
}

TrimmedTest TrimmedMeanTest(const std::vector<double>& values, double proportion, double level) {
  TrimmedTest r;
  const size_t n = values.size();
  r.trimmed = TrimCount(n, proportion);
  const size_t h = n - 2 * r.trimmed;
  if (h < 2) {
    r.test = TTest{kNaN, 0, 1};
    r.interval = Interval{TrimmedMean(values, proportion), kNaN, kNaN, kNaN};
    return r;
  }
  std::vector<double> winsorized = values;
  std::sort(winsorized.begin(), winsorized.end());
  const double low = winsorized[r.trimmed], high = winsorized[n - 1 - r.trimmed];
  for (double& x : winsorized) x = std::clamp(x, low, high);
  const double nn = static_cast<double>(n), hh = static_cast<double>(h);
  const double point = TrimmedMean(values, proportion);
  // se^2 = s_w^2 / ((1 - 2g/n)^2 n) = n s_w^2 / h^2.
  const double variance = nn * SampleVariance(winsorized) / (hh * hh);
  r.test = TestOf(point, variance, hh - 1);
  const double half = StudentTQuantile((1 + level) / 2, hh - 1) * std::sqrt(variance);
  r.interval = Interval{point, point - half, point + half, std::sqrt(variance)};
  return r;
}

TTest WelchTTest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) return TTest{kNaN, 0, 1};
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = SampleVariance(a) / na, vb = SampleVariance(b) / nb;
  const double se2 = va + vb;
  // Welch–Satterthwaite; with no spread on either side the smaller group's n - 1.
  const double df = se2 > 0 ? se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1)) : std::min(na, nb) - 1;
  return TestOf(SumOf(a) / na - SumOf(b) / nb, se2, df);
}

SignedRankTest WilcoxonSignedRank(const std::vector<double>& differences) {
  std::vector<double> d;
  for (double x : differences)
    if (x != 0) d.push_back(x);
  SignedRankTest r;
  r.n = d.size();
  if (d.empty()) return r;
  const size_t n = d.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return std::fabs(d[i]) < std::fabs(d[j]); });
  // Doubled midranks are whole numbers: ties at sorted positions i..j (1-based i+1..j+1) get i + j + 2.
  std::vector<uint64_t> rank2(n);
  double tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && std::fabs(d[order[j + 1]]) == std::fabs(d[order[i]])) ++j;
    for (size_t k = i; k <= j; ++k) rank2[order[k]] = i + j + 2;
    const double t = static_cast<double>(j - i + 1);
    tie_term += t * t * t - t;
    i = j + 1;
  }
  uint64_t w2 = 0;  // doubled W+
  for (size_t i = 0; i < n; ++i)
    if (d[i] > 0) w2 += rank2[i];
  r.w_plus = static_cast<double>(w2) / 2;
  const double nn = static_cast<double>(n);
  if (n > 200) {
    const double mean = nn * (nn + 1) / 4;
    const double var = nn * (nn + 1) * (2 * nn + 1) / 24 - tie_term / 48;
    const double z = (std::fabs(r.w_plus - mean) - 0.5) / std::sqrt(var);  // continuity correction
    r.p_value = std::min(1.0, 2 * (1 - NormalCdf(std::max(0.0, z))));
    return r;
  }
  // P(doubled W+ = s) over the 2^n equally likely sign assignments, one difference at a time.
  const uint64_t total = std::accumulate(rank2.begin(), rank2.end(), uint64_t{0});
  std::vector<double> prob(total + 1, 0.0), next(total + 1);
  prob[0] = 1;
  for (uint64_t r2 : rank2) {
    std::fill(next.begin(), next.end(), 0.0);
    for (uint64_t s = 0; s + r2 <= total; ++s) {
      if (prob[s] == 0) continue;
      next[s] += prob[s] / 2;
      next[s + r2] += prob[s] / 2;
    }
    prob.swap(next);
  }
  double at_most = 0, at_least = 0;
  for (uint64_t s = 0; s <= total; ++s) {
    if (s <= w2) at_most += prob[s];
    if (s >= w2) at_least += prob[s];
  }
  r.p_value = std::min(1.0, 2 * std::min(at_most, at_least));
  return r;
}

std::vector<double> HolmAdjust(const std::vector<double>& p_values) {
  const size_t m = p_values.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) { return p_values[i] < p_values[j]; });
  std::vector<double> adjusted(m);
  double running = 0;
  for (size_t k = 0; k < m; ++k) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - k) * p_values[order[k]]));
    adjusted[order[k]] = running;
  }
  return adjusted;
}

double ExpandedBootstrapLevel(double level, size_t n) {
  const double nn = static_cast<double>(n);
  const double t = StudentTQuantile((1 + level) / 2, nn - 1);
  return 2 * NormalCdf(std::sqrt(nn / (nn - 1)) * t) - 1;
}

Interval BootstrapGeometricMeanRatio(const std::vector<double>& ratios, const BootstrapOptions& options) {
  std::vector<double> logs;
  logs.reserve(ratios.size());
  for (double r : ratios) logs.push_back(std::log(r));
  const size_t n = logs.size();
  std::vector<double> distribution;
  distribution.reserve(options.resamples);
  Xoshiro256 rng(options.seed);
  for (uint64_t r = 0; r < options.resamples; ++r) {
    double sum = 0;
    for (size_t k = 0; k < n; ++k) sum += logs[rng.Below(n)];
    distribution.push_back(std::exp(sum / static_cast<double>(n)));
  }
  return SummarizeDistribution(GeometricMean(ratios), &distribution,
                               ExpandedBootstrapLevel(options.confidence_level, n));
}

Interval RatioOfGeometricMeans(const std::vector<double>& current, const std::vector<double>& baseline, double level) {
  std::vector<double> lc, lb;
  for (double v : current) lc.push_back(std::log(v));
  for (double v : baseline) lb.push_back(std::log(v));
  const double nc = static_cast<double>(lc.size()), nb = static_cast<double>(lb.size());
  const double difference = SumOf(lc) / nc - SumOf(lb) / nb;
  const double vc = SampleVariance(lc) / nc, vb = SampleVariance(lb) / nb;
  const double se = std::sqrt(vc + vb);
  const double df = se > 0 ? (vc + vb) * (vc + vb) / (vc * vc / (nc - 1) + vb * vb / (nb - 1)) : std::min(nc, nb) - 1;
  const double half = se > 0 ? StudentTQuantile((1 + level) / 2, df) * se : 0;
  Interval out;
  out.point = std::exp(difference);
  out.lower = std::exp(difference - half);
  out.upper = std::exp(difference + half);
  out.std_error = out.point * se;  // delta method
  return out;
}

}  // namespace dbxb
