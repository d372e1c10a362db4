#include "workloads/zipfian.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dbxb {
namespace {

constexpr uint64_t kExactTerms = uint64_t{1} << 16;

// sum_{i=from+1}^{to} i^-theta term by term, smallest terms first so that they are not lost.
double DirectSum(uint64_t from, uint64_t to, double theta) {
  double sum = 0;
  for (uint64_t i = to; i > from; --i) sum += std::pow(static_cast<double>(i), -theta);
  return sum;
}

// sum_{i=a+1}^{b} i^-theta by Euler-Maclaurin: the integral, the end-point correction and the B2, B4
// terms. With a >= 65536 the first omitted term is below 1e-30, far under double precision.
double EulerMaclaurinSum(uint64_t a, uint64_t b, double theta) {
  const double x = static_cast<double>(a), y = static_cast<double>(b);
  const double one_minus = 1.0 - theta;
  // (y^(1-theta) - x^(1-theta)) / (1-theta), written with expm1 so that theta near 1 keeps its digits.
  const double integral = std::pow(x, one_minus) * std::expm1(one_minus * std::log(y / x)) / one_minus;
  auto f = [&](double v) { return std::pow(v, -theta); };
  auto f1 = [&](double v) { return -theta * std::pow(v, -theta - 1); };
  auto f3 = [&](double v) { return -theta * (theta + 1) * (theta + 2) * std::pow(v, -theta - 3); };
  // sum_{i=a}^{b} f(i) = integral + (f(a) + f(b))/2 + (f'(b) - f'(a))/12 - (f'''(b) - f'''(a))/720 + ...
  // and the sum we want leaves out f(a).
  return integral + (f(y) - f(x)) / 2 + (f1(y) - f1(x)) / 12 - (f3(y) - f3(x)) / 720;
}

}  // namespace

double ZetaRange(uint64_t from, uint64_t to, double theta) {
  assert(theta > 0 && theta < 1);
  if (to <= from) return 0;
  if (to - from <= 2 * kExactTerms) return DirectSum(from, to, theta);
  // Sum exactly until the terms are smooth enough for the expansion (index >= 65536).
  const uint64_t a = std::max(from, kExactTerms);
  return DirectSum(from, a, theta) + EulerMaclaurinSum(a, to, theta);
}

namespace {
// The highest rank as a double that converts to int64_t (Rank() converts through it).
double LastRank(uint64_t items) { return std::min(static_cast<double>(items - 1), 0x1p62); }
}  // namespace

ZipfianRanks::ZipfianRanks(uint64_t items, double theta) : ZipfianRanks(items, theta, Zeta(items, theta)) {}

ZipfianRanks::ZipfianRanks(uint64_t items, double theta, double zeta_items)
    : items_(items),
      items_d_(static_cast<double>(items)),
      last_rank_d_(LastRank(items)),
      theta_(theta),
      alpha_(1.0 / (1.0 - theta)),
      half_pow_theta_(std::pow(0.5, theta)),
      zeta_n_(zeta_items) {
  assert(items >= 1);
  assert(theta > 0 && theta < 1);
  const double rounded = std::round(alpha_);
  int_alpha_ = std::fabs(alpha_ - rounded) < 1e-9 * alpha_ && rounded <= 1024 ? static_cast<unsigned>(rounded) : 0;
  UpdateEta();
}

void ZipfianRanks::UpdateEta() {
  // With one or two items Rank() never reaches the closed form (u * zeta < 1 + 2^-theta = zeta(2)).
  const double zeta2 = 1.0 + half_pow_theta_;
  eta_ = items_ > 2 ? (1.0 - std::pow(2.0 / items_d_, 1.0 - theta_)) / (1.0 - zeta2 / zeta_n_) : 0.0;
}

void ZipfianRanks::Resize(uint64_t items) {
  assert(items >= 1);
  if (items == items_) return;
  // Growing: add the new terms (YCSB's incremental zeta). Unlike YCSB, eta is recomputed for the new
  // count too; YCSB keeps the constructor's count there, which skews the ranks after growth.
  zeta_n_ = items > items_ ? zeta_n_ + ZetaRange(items_, items, theta_) : Zeta(items, theta_);
  items_ = items;
  items_d_ = static_cast<double>(items);
  last_rank_d_ = LastRank(items);
  UpdateEta();
}

double ZipfianRanks::RankProbability(uint64_t rank) const {
  if (rank >= items_) return 0;
  const double p0 = std::min(1.0, 1.0 / zeta_n_);
  const double p01 = std::min(1.0, (1.0 + half_pow_theta_) / zeta_n_);
  if (rank == 0) return p0;
  if (rank == 1) return p01 - p0;
  // Rank(u) = floor(n * (eta (u - 1) + 1)^alpha) is increasing in u above u = p01, where it equals 2;
  // it is r from u = cut(r) to cut(r + 1), with cut(x) = ((x/n)^(1-theta) - 1) / eta + 1.
  auto cut = [&](uint64_t x) {
    return std::pow(static_cast<double>(x) / items_d_, 1.0 - theta_) - 1.0;  // times 1/eta, plus 1, below
  };
  const double lo = std::max(p01, cut(rank) / eta_ + 1.0);
  const double hi = rank + 1 >= items_ ? 1.0 : std::min(1.0, cut(rank + 1) / eta_ + 1.0);
  return std::max(0.0, hi - lo);
}

}  // namespace dbxb
