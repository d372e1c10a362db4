// Known answers: closed forms of the t distribution for 1 and 2 degrees of freedom, and values from an
// independent numerical integration of the t density (mpmath).
#include "stats/distributions.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dbxb {
namespace {

TEST(StudentT, CdfMatchesClosedForms) {
  for (double t : {-10.0, -2.0, -0.3, 0.0, 0.7, 3.0, 50.0}) {
    EXPECT_NEAR(StudentTCdf(t, 1), 0.5 + std::atan(t) / M_PI, 1e-12) << t;             // Cauchy
    EXPECT_NEAR(StudentTCdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-12) << t;  // df = 2
  }
  EXPECT_NEAR(StudentTCdf(1.5, 5), 0.9030481598787665, 1e-9);  // numerical integration
  EXPECT_DOUBLE_EQ(StudentTCdf(INFINITY, 3), 1);
  EXPECT_DOUBLE_EQ(StudentTCdf(-INFINITY, 3), 0);
}

TEST(StudentT, TwoSidedP) {
  EXPECT_NEAR(StudentTTwoSidedP(2.0, 2), 1 - 2 / std::sqrt(6.0), 1e-12);
  EXPECT_DOUBLE_EQ(StudentTTwoSidedP(NAN, 3), 1);
  EXPECT_DOUBLE_EQ(StudentTTwoSidedP(-INFINITY, 3), 0);
  // Fractional degrees of freedom (a trimmed mean of 6 rounds has 2.6): mpmath's betainc.
  EXPECT_NEAR(StudentTTwoSidedP(5.11057848216425, 2.6), 0.0203690628885685, 1e-9);
}

TEST(StudentT, Quantiles) {
  EXPECT_NEAR(StudentTQuantile(0.975, 2), 4.302652729911275, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.975, 5), 2.5705818366147395, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.975, 10), 2.2281388519649385, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.75, 1), 1.0, 1e-10);  // tan(pi / 4)
  EXPECT_NEAR(StudentTQuantile(0.025, 5), -2.5705818366147395, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.975, 2.6), 3.47818241069113, 1e-8);
  // Far in the tail of a tiny df the quantile is huge but finite: an interval that decides nothing.
  EXPECT_GT(StudentTQuantile(0.999, 0.2), 1e6);
}

TEST(NormalQuantile, KnownValues) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-10);
  EXPECT_NEAR(NormalQuantile(0.5), 0, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.05), -1.6448536269514722, 1e-10);
  EXPECT_NEAR(NormalCdf(1.959963984540054), 0.975, 1e-12);
}

}  // namespace
}  // namespace dbxb
