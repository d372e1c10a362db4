#include "workloads/zipfian.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "workloads/prng.h"

namespace dbxb {
namespace {

double NaiveZeta(uint64_t from, uint64_t to, double theta) {
  long double sum = 0;
  for (uint64_t i = to; i > from; --i) sum += std::pow(static_cast<long double>(i), -static_cast<long double>(theta));
  return static_cast<double>(sum);
}

TEST(ZetaTest, EulerMaclaurinAgreesWithTermByTermSummation) {
  // Spans above 131,072 terms take the Euler-Maclaurin path.
  for (double theta : {0.99, 0.5}) {
    for (auto [from, to] : {std::pair<uint64_t, uint64_t>{0, 1000}, {0, 200'000}, {70'000, 210'000}, {5, 140'000}}) {
      const double want = NaiveZeta(from, to, theta);
      EXPECT_NEAR(ZetaRange(from, to, theta), want, 1e-12 * want) << theta << " " << from << ".." << to;
    }
  }
  EXPECT_EQ(ZetaRange(10, 10, 0.99), 0.0);
  EXPECT_EQ(ZetaRange(10, 3, 0.99), 0.0);
  EXPECT_DOUBLE_EQ(Zeta(1, 0.99), 1.0);
  EXPECT_DOUBLE_EQ(Zeta(2, 0.99), 1.0 + std::pow(0.5, 0.99));
}

TEST(ZetaTest, YcsbsHardCodedZetaIsZetaOfTenBillion) {
  // YCSB's ScrambledZipfianGenerator hard-codes zeta = 26.46902820178302 for its 10^10-rank space.
  EXPECT_NEAR(Zeta(10'000'000'000ull, 0.99), 26.46902820178302, 1e-10);
}

TEST(ZipfianRanksTest, ProbabilitiesSumToOneAndMatchZipfForTheTopTwoRanks) {
  for (uint64_t n : {1ull, 2ull, 3ull, 10ull, 1000ull, 100000ull}) {
    ZipfianRanks z(n);
    double sum = 0;
    for (uint64_t r = 0; r < n; ++r) sum += z.RankProbability(r);
    EXPECT_NEAR(sum, 1.0, 1e-9) << n;
    EXPECT_EQ(z.RankProbability(n), 0.0);
    const double zeta = Zeta(n, 0.99);
    EXPECT_NEAR(z.RankProbability(0), 1.0 / zeta, 1e-15) << n;
    if (n >= 2) {
      EXPECT_NEAR(z.RankProbability(1), std::pow(2.0, -0.99) / zeta, 1e-15) << n;
    }
  }
}

TEST(ZipfianRanksTest, GraysApproximationStaysWithinTwentyPercentOfZipf) {
  ZipfianRanks z(100000);
  for (uint64_t r = 2; r < 1000; ++r) {
    const double ideal = 1.0 / (std::pow(static_cast<double>(r + 1), 0.99) * z.zeta());
    const double ratio = z.RankProbability(r) / ideal;
    EXPECT_GT(ratio, 0.95) << r;
    EXPECT_LT(ratio, 1.2) << r;
  }
}

TEST(ZipfianRanksTest, RankIsMonotoneInUAndCoversTheRange) {
  ZipfianRanks z(1000);
  uint64_t last = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t r = z.Rank(i / 100000.0);
    ASSERT_GE(r, last);
    ASSERT_LT(r, 1000u);
    last = r;
  }
  EXPECT_EQ(z.Rank(0.0), 0u);
  EXPECT_EQ(z.Rank(std::nextafter(1.0, 0.0)), 999u);
}

TEST(ZipfianRanksTest, GrowingOneItemAtATimeEqualsBuildingForTheNewCount) {
  ZipfianRanks grown(1000);
  for (uint64_t n = 1001; n <= 3000; ++n) grown.Resize(n);
  ZipfianRanks fresh(3000);
  EXPECT_NEAR(grown.zeta(), fresh.zeta(), 1e-12 * fresh.zeta());
  for (int i = 0; i < 10000; ++i) {
    const double u = (i + 0.5) / 10000.0;
    ASSERT_EQ(grown.Rank(u), fresh.Rank(u)) << u;
  }
  grown.Resize(500);  // shrinking recomputes
  EXPECT_NEAR(grown.zeta(), Zeta(500, 0.99), 1e-12);
  EXPECT_EQ(grown.items(), 500u);
}

TEST(ZipfianRanksTest, IntegerPowerPathAgreesWithPow) {
  // theta = 0.99 takes the repeated-squaring path; recompute each rank with pow() as YCSB does.
  ZipfianRanks z(10'000'000);
  const double zeta = z.zeta(), theta = 0.99, alpha = 1 / (1 - theta), n = 1e7;
  const double eta = (1 - std::pow(2.0 / n, 1 - theta)) / (1 - (1 + std::pow(0.5, theta)) / zeta);
  Xoshiro256 rng(5);
  int differ = 0;
  for (int i = 0; i < 200000; ++i) {
    const double u = rng.NextDouble();
    if (u * zeta < 1 + std::pow(0.5, theta)) continue;
    const auto want = static_cast<uint64_t>(n * std::pow(eta * u - eta + 1, alpha));
    const uint64_t got = z.Rank(u);
    ASSERT_LE(got > want ? got - want : want - got, 1u) << u;
    differ += got != want;
  }
  EXPECT_LE(differ, 5);  // only draws within ~1e-14 of a rank boundary may move
}

TEST(ZipfianRanksTest, RankEachIsRankForEveryDraw) {
  // The batch path (vector lanes where available) must give Rank()'s very values: random draws, draws
  // at and beside the head thresholds, u -> 1, for small, default and huge item counts and other thetas.
  for (auto [n, theta] : {std::pair<uint64_t, double>{1, 0.99},
                          {2, 0.99},
                          {3, 0.99},
                          {1000, 0.99},
                          {10'000'000, 0.99},
                          {10'000'000'000ull, 0.99},
                          {uint64_t{1} << 52, 0.99},
                          {(uint64_t{1} << 52) + 1, 0.99},
                          {uint64_t{1} << 62, 0.99},
                          {100000, 0.5},
                          {100000, 0.7}}) {
    ZipfianRanks z(n, theta);
    std::vector<double> u;
    Xoshiro256 rng(n);
    for (int i = 0; i < 4000; ++i) u.push_back(rng.NextDouble());
    for (double edge : {1 / z.zeta(), (1 + std::pow(0.5, theta)) / z.zeta()}) {
      double x = edge;
      for (int i = 0; i < 8; ++i) x = std::nextafter(x, 0.0);
      for (int i = 0; i < 16; ++i, x = std::nextafter(x, 1.0)) u.push_back(x);
    }
    double top = 1.0;
    for (int i = 0; i < 16; ++i) u.push_back(top = std::nextafter(top, 0.0));
    u.push_back(0.0);
    while (u.size() % 8 != 0) u.push_back(0.5);
    for (size_t i = 0; i < u.size(); i += 8) {
      double batch[8];
      uint64_t ranks[8];
      std::copy(u.begin() + i, u.begin() + i + 8, batch);
      z.RankEach(batch, ranks);
      for (int j = 0; j < 8; ++j) ASSERT_EQ(ranks[j], z.Rank(batch[j])) << "n " << n << " u " << batch[j];
    }
  }
}

// Samples `z` and checks the counts of ranks 0..49 (and the rest as one cell) by chi-square.
void ExpectSamplesFit(const ZipfianRanks& z, uint64_t seed) {
  constexpr int kCells = 50, kSamples = 500000;
  std::vector<double> counts(kCells + 1, 0);
  Xoshiro256 rng(seed);
  for (int i = 0; i < kSamples; ++i) ++counts[std::min<uint64_t>(z.Rank(rng.NextDouble()), kCells)];
  double chi2 = 0, rest = 1;
  for (int r = 0; r <= kCells; ++r) {
    const double p = r < kCells ? z.RankProbability(r) : rest;
    rest -= p;
    const double d = counts[r] - p * kSamples;
    chi2 += d * d / (p * kSamples);
  }
  EXPECT_LT(std::fabs(chi2 - kCells), 5 * std::sqrt(2.0 * kCells)) << "theta " << z.theta() << " chi2 " << chi2;
}

TEST(ZipfianRanksTest, OtherThetasSampleTheirDistribution) {
  ExpectSamplesFit(ZipfianRanks(100000, 0.5), 1);  // alpha = 2: repeated squaring
  ExpectSamplesFit(ZipfianRanks(100000, 0.7), 2);  // alpha = 3.33...: pow()
  ExpectSamplesFit(ZipfianRanks(100000, 0.99), 3);
}

}  // namespace
}  // namespace dbxb
