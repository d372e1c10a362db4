#include "workloads/zipfian.h"

#include <gtest/gtest.h>

#include <cmath>

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
    for (auto [from, to] : {std::pair<uint64_t, uint64_t>{0, 1000}, {0, 300'000}, {70'000, 250'000}, {5, 150'000}}) {
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

}  // namespace
}  // namespace dbxb
