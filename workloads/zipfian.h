// The zipfian rank generator of YCSB (Gray et al., "Quickly Generating Billion-Record Synthetic
// Databases", SIGMOD 1994), the core of the zipfian, scrambled zipfian and latest key choosers.
//
// Rank 0 is the most popular. Ranks 0 and 1 have exactly the zipfian probabilities 1/zeta(n) and
// 2^-theta/zeta(n); from rank 2 on, Gray's closed form approximates 1/((i+1)^theta zeta(n)) (for
// theta = 0.99 it gives rank 2 about 17-19 % more than the ideal, the excess shrinking with the rank).
// This is deliberate: it is the distribution YCSB generates, so our workloads match YCSB's.
// RankProbability() gives the exact probability of each rank under this generator.
//
// One difference from YCSB, for speed: when 1/(1-theta) is an integer up to rounding (100 for
// theta = 0.99, as 1/(1-0.99) evaluates to 99.99999999999991), the power in the closed form is taken
// by repeated squaring with that integer instead of pow(): about 5 ns instead of 20. The result differs
// from pow() by about 1e-14 relative, which moves a draw to the neighbouring rank (of practically equal
// probability) only when it lands that close to a rank boundary.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace dbxb {

/// sum_{i = from+1}^{to} i^-theta (0 when to <= from). Exact summation for short spans; longer spans
/// sum their first 65,536 terms and take the rest from the Euler-Maclaurin formula (relative error
/// below 1e-14), so zeta of 10^10 items costs microseconds instead of minutes.
/// REQUIRES: 0 < theta < 1.
double ZetaRange(uint64_t from, uint64_t to, double theta);

/// zeta(n, theta) = sum_{i=1}^{n} i^-theta.
inline double Zeta(uint64_t n, double theta) { return ZetaRange(0, n, theta); }

class ZipfianRanks {
 public:
  /// YCSB's zipfian constant.
  static constexpr double kDefaultTheta = 0.99;

  /// REQUIRES: items >= 1; 0 < theta < 1. Computes zeta(items, theta).
  ZipfianRanks(uint64_t items, double theta = kDefaultTheta);
  /// Uses a precomputed zeta(items, theta).
  ZipfianRanks(uint64_t items, double theta, double zeta_items);

  /// The rank for a uniform draw `u` in [0, 1): in [0, items()).
  uint64_t Rank(double u) const {
    const double base = Base(u);
    const double power = int_alpha_ == 100 ? Power100(base)
                         : int_alpha_ != 0 ? IntegerPower(base, int_alpha_)
                                           : std::pow(base, alpha_);
    return RankOf(u, power);
  }

  /// ranks[i] = Rank(u[i]) for every i (the same values), with the choice of the power made once and
  /// the arithmetic of the draws in separate loops, so that it overlaps and vectorises.
  template <size_t K>
  void RankEach(const double (&u)[K], uint64_t (&ranks)[K]) const {
    double power[K];
    for (size_t i = 0; i < K; ++i) power[i] = Base(u[i]);
    if (int_alpha_ == 100) {
      for (double& p : power) p = Power100(p);
    } else if (int_alpha_ != 0) {
      for (double& p : power) p = IntegerPower(p, int_alpha_);
    } else {
      for (double& p : power) p = std::pow(p, alpha_);
    }
    for (size_t i = 0; i < K; ++i) ranks[i] = RankOf(u[i], power[i]);
  }

  /// Changes the number of items. Growing adds the new terms to zeta incrementally (cheap for the
  /// one-item-at-a-time growth of inserts); shrinking recomputes it. REQUIRES: items >= 1.
  void Resize(uint64_t items);

  uint64_t items() const { return items_; }
  double theta() const { return theta_; }
  double zeta() const { return zeta_n_; }

  /// The exact probability that Rank(u) returns `rank` for u uniform in [0, 1).
  double RankProbability(uint64_t rank) const;

 private:
  void UpdateEta();
  // The base of the closed form's power: positive, as 0 <= eta < 1.
  double Base(double u) const { return eta_ * u - eta_ + 1.0; }
  // The rank from u and the power: branch-free, the closed form computed for every u and the head
  // ranks selected after it with masks, because a branch that the draw decides (rank 0 or 1: 5-10 % of
  // the draws) costs more when mispredicted than the arithmetic it would skip. The clamp keeps the
  // conversion in range (u close to 1 may round up to items).
  uint64_t RankOf(double u, double power) const {
    const double uz = u * zeta_n_;
    const uint64_t tail = static_cast<uint64_t>(static_cast<int64_t>(std::min(items_d_ * power, last_rank_d_)));
    const uint64_t head = static_cast<uint64_t>(uz >= 1.0);                           // rank 0 or 1
    const uint64_t in_tail = 0 - static_cast<uint64_t>(uz >= 1.0 + half_pow_theta_);  // all ones or 0
    return (tail & in_tail) | (head & ~in_tail);
  }
  // x^100 (theta = 0.99): IntegerPower(x, 100)'s very products, (x^4 * x^32) * x^64, unrolled.
  static double Power100(double x) {
    const double x2 = x * x, x4 = x2 * x2, x8 = x4 * x4, x16 = x8 * x8, x32 = x16 * x16, x64 = x32 * x32;
    return (x4 * x32) * x64;
  }
  // x^e by repeated squaring: a few multiplications instead of pow(), and the same bits everywhere.
  static double IntegerPower(double x, unsigned e) {
    double r = 1.0;
    for (; e != 0; e >>= 1, x *= x)
      if (e & 1) r *= x;
    return r;
  }

  uint64_t items_;
  double items_d_;
  double last_rank_d_;  // items - 1
  double theta_;
  double alpha_;           // 1 / (1 - theta)
  unsigned int_alpha_;     // alpha when it is an integer up to rounding (100 for theta = 0.99), else 0
  double half_pow_theta_;  // 2^-theta
  double zeta_n_;
  double eta_;
};

}  // namespace dbxb
