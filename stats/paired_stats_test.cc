// Known answers computed by hand (closed forms of the t distribution for 1 and 2 degrees of freedom,
// enumerated signed-rank distributions) or by an independent numerical integration of the t density.
#include "stats/paired_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace dbxb {
namespace {

TEST(GeometricMean, OfPositiveValues) {
  EXPECT_DOUBLE_EQ(GeometricMean({1, 4, 16}), 4);
  EXPECT_DOUBLE_EQ(GeometricMean({2, 8}), 4);
  EXPECT_DOUBLE_EQ(GeometricMean({0.5, 2}), 1);
}

TEST(GeometricMean, NaNForNothingOrNonPositive) {
  EXPECT_TRUE(std::isnan(GeometricMean({})));
  EXPECT_TRUE(std::isnan(GeometricMean({1, 0})));
  EXPECT_TRUE(std::isnan(GeometricMean({1, -2})));
  EXPECT_TRUE(std::isnan(GeometricMean({1, INFINITY})));
}

TEST(StudentT, CdfMatchesClosedForms) {
  for (double t : {-10.0, -2.0, -0.3, 0.0, 0.7, 3.0, 50.0}) {
    EXPECT_NEAR(StudentTCdf(t, 1), 0.5 + std::atan(t) / M_PI, 1e-12) << t;             // Cauchy
    EXPECT_NEAR(StudentTCdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-12) << t;  // df = 2
  }
  EXPECT_NEAR(StudentTCdf(1.5, 5), 0.9030481598787665, 1e-9);  // numerical integration
  EXPECT_DOUBLE_EQ(StudentTCdf(INFINITY, 3), 1);
  EXPECT_DOUBLE_EQ(StudentTCdf(-INFINITY, 3), 0);
}

TEST(StudentT, Quantiles) {
  EXPECT_NEAR(StudentTQuantile(0.975, 2), 4.302652729911275, 1e-9);  // 1 / sqrt(2 p (1 - p)) - ... closed form
  EXPECT_NEAR(StudentTQuantile(0.975, 5), 2.5705818366147395, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.975, 10), 2.2281388519649385, 1e-9);
  EXPECT_NEAR(StudentTQuantile(0.75, 1), 1.0, 1e-10);  // tan(pi / 4)
  EXPECT_NEAR(StudentTQuantile(0.025, 5), -2.5705818366147395, 1e-9);
}

TEST(NormalQuantile, KnownValues) {
  EXPECT_NEAR(NormalQuantile(0.975), 1.959963984540054, 1e-10);
  EXPECT_NEAR(NormalQuantile(0.5), 0, 1e-12);
  EXPECT_NEAR(NormalQuantile(0.05), -1.6448536269514722, 1e-10);
}

TEST(OneSampleTTest, HandComputed) {
  // mean 0.2, s 0.1, se 0.1 / sqrt(3): t = 2 sqrt(3); df 2, so P(|T| >= t) = 1 - t / sqrt(2 + t^2).
  const TTest r = OneSampleTTest({0.1, 0.2, 0.3});
  EXPECT_NEAR(r.t, 2 * std::sqrt(3.0), 1e-12);
  EXPECT_DOUBLE_EQ(r.df, 2);
  EXPECT_NEAR(r.p_value, 1 - r.t / std::sqrt(2 + r.t * r.t), 1e-12);
  EXPECT_NEAR(r.p_value, 0.0741799, 1e-6);
}

TEST(OneSampleTTest, DegenerateCases) {
  EXPECT_DOUBLE_EQ(OneSampleTTest({0.5}).p_value, 1);       // one value: no test
  EXPECT_DOUBLE_EQ(OneSampleTTest({0, 0, 0}).p_value, 1);   // nothing changed
  EXPECT_DOUBLE_EQ(OneSampleTTest({0.1, 0.1}).p_value, 0);  // the same shift every round
  EXPECT_TRUE(std::isinf(OneSampleTTest({0.1, 0.1}).t));
  // The sign does not matter for a two-sided p.
  EXPECT_DOUBLE_EQ(OneSampleTTest({-0.1, -0.2, -0.3}).p_value, OneSampleTTest({0.1, 0.2, 0.3}).p_value);
}

TEST(WelchTTest, HandComputed) {
  // a: mean 2, var 1; b: mean 5.5, var 5/3. se^2 = 1/3 + 5/12 = 3/4; t = -3.5 / sqrt(0.75).
  // df = 0.5625 / ((1/3)^2 / 2 + (5/12)^2 / 3) = 4.959183673...; p by numerical integration.
  const TTest r = WelchTTest({1, 2, 3}, {4, 5, 6, 7});
  EXPECT_NEAR(r.t, -3.5 / std::sqrt(0.75), 1e-12);
  EXPECT_NEAR(r.df, 4.959183673469387, 1e-12);
  EXPECT_NEAR(r.p_value, 0.010076943347952394, 1e-8);
  EXPECT_DOUBLE_EQ(WelchTTest({1}, {2, 3}).p_value, 1);
  EXPECT_DOUBLE_EQ(WelchTTest({2, 2}, {2, 2}).p_value, 1);
  EXPECT_DOUBLE_EQ(WelchTTest({2, 2}, {3, 3}).p_value, 0);
}

TEST(WilcoxonSignedRank, ExactWithoutTies) {
  // |d| ranks 1..5, W+ = 1 + 3 + 4 + 5 = 13; of the 32 sign patterns, W+ >= 13 in 3 (W+ <= 2 mirrored).
  const SignedRankTest r = WilcoxonSignedRank({1, -2, 3, 4, 5});
  EXPECT_DOUBLE_EQ(r.w_plus, 13);
  EXPECT_EQ(r.n, 5u);
  EXPECT_DOUBLE_EQ(r.p_value, 2 * 3.0 / 32);
}

TEST(WilcoxonSignedRank, SmallestPossiblePIsTwoOverTwoToTheN) {
  EXPECT_DOUBLE_EQ(WilcoxonSignedRank({0.1, 0.2, 0.1, 0.3, 0.15, 0.12}).p_value, 2.0 / 64);
  EXPECT_DOUBLE_EQ(WilcoxonSignedRank({-1, -2, -3}).p_value, 2.0 / 8);
}

TEST(WilcoxonSignedRank, TiesUseMidranksExactly) {
  // |d| = 1, 1, 1, 2: midranks 2, 2, 2, 4; W+ = 8. Doubled ranks {4, 4, 4, 8}: of the 16 subsets, 4
  // have a sum >= 16 (two or three 4s with the 8), 15 a sum <= 16. p = 2 * 4/16.
  const SignedRankTest r = WilcoxonSignedRank({1, 1, -1, 2});
  EXPECT_DOUBLE_EQ(r.w_plus, 8);
  EXPECT_DOUBLE_EQ(r.p_value, 0.5);
}

TEST(WilcoxonSignedRank, ZerosAreDropped) {
  const SignedRankTest r = WilcoxonSignedRank({0, 1, -2, 0, 3, 4, 5});
  EXPECT_EQ(r.n, 5u);
  EXPECT_DOUBLE_EQ(r.p_value, 2 * 3.0 / 32);
  EXPECT_DOUBLE_EQ(WilcoxonSignedRank({0, 0}).p_value, 1);
}

TEST(WilcoxonSignedRank, NormalApproximationForLargeN) {
  // 300 alternating differences of rising size: W+ is near its mean, p near 1; all positive: p ~ 0.
  std::vector<double> alternating, positive;
  for (int i = 1; i <= 300; ++i) {
    alternating.push_back(i % 2 ? i : -i);
    positive.push_back(i);
  }
  EXPECT_GT(WilcoxonSignedRank(alternating).p_value, 0.8);
  EXPECT_LT(WilcoxonSignedRank(positive).p_value, 1e-12);
}

TEST(TrimmedMeanTest, HandComputedSixRounds) {
  // n = 6, 20 %: g = 1 from each end. Sorted: -0.30 | 0.05 0.08 0.09 0.10 | 0.12; trimmed mean 0.08.
  // Winsorized: 0.05 0.05 0.08 0.09 0.10 0.10, s_w^2 = 0.00268333 / 5 = 0.000536667; se^2 = 6 s_w^2 / 4^2
  // = 0.00020125, se = 0.0141863; t = 5.63926 with 3 df, p = 0.011033; t_3(0.975) = 3.182446.
  const std::vector<double> v = {0.10, 0.05, 0.12, 0.08, -0.30, 0.09};
  EXPECT_EQ(TrimCount(6, kTrimProportion), 1u);
  EXPECT_DOUBLE_EQ(TrimmedMean(v, kTrimProportion), 0.08);
  const TrimmedTest r = TrimmedMeanTest(v, kTrimProportion, 0.95);
  EXPECT_EQ(r.trimmed, 1u);
  EXPECT_DOUBLE_EQ(r.test.df, 3);
  EXPECT_NEAR(r.test.t, 5.639259, 1e-5);
  EXPECT_NEAR(r.test.p_value, 0.0110332, 1e-6);
  EXPECT_NEAR(r.interval.point, 0.08, 1e-12);
  EXPECT_NEAR(r.interval.lower, 0.0348530, 1e-6);
  EXPECT_NEAR(r.interval.upper, 0.1251470, 1e-6);
  EXPECT_NEAR(r.interval.std_error, 0.0141863, 1e-6);
  // The one wild value is trimmed: the plain t-test of the same values finds nothing.
  EXPECT_GT(OneSampleTTest(v).p_value, 0.5);
}

TEST(TrimmedMeanTest, NoTrimIsTheOneSampleTTest) {
  const std::vector<double> v = {0.01, 0.03, -0.02, 0.05};  // g = floor(0.8) = 0
  const TrimmedTest r = TrimmedMeanTest(v, kTrimProportion, 0.95);
  const TTest t = OneSampleTTest(v);
  EXPECT_EQ(r.trimmed, 0u);
  EXPECT_NEAR(r.test.t, t.t, 1e-12);
  EXPECT_NEAR(r.test.p_value, t.p_value, 1e-12);
  EXPECT_DOUBLE_EQ(r.test.df, 3);
  const double half = StudentTQuantile(0.975, 3) * r.interval.std_error;
  EXPECT_NEAR(r.interval.upper - r.interval.point, half, 1e-12);
}

TEST(TrimmedMeanTest, TenValuesTrimTwoFromEachEnd) {
  const std::vector<double> v = {9, -9, 1, 2, 3, 4, 5, 6, 100, -100};
  EXPECT_EQ(TrimCount(10, kTrimProportion), 2u);
  EXPECT_DOUBLE_EQ(TrimmedMean(v, kTrimProportion), 3.5);  // 1..6
  EXPECT_DOUBLE_EQ(TrimmedMeanTest(v, kTrimProportion, 0.95).test.df, 5);
}

TEST(TrimmedMeanTest, TooFewKeptValuesIsNoEvidence) {
  const TrimmedTest r = TrimmedMeanTest({0.5}, kTrimProportion, 0.95);
  EXPECT_DOUBLE_EQ(r.test.p_value, 1);
  EXPECT_TRUE(std::isnan(r.interval.lower));
}

TEST(HolmAdjust, HandComputed) {
  // Sorted: 0.005 * 4 = 0.02, 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 -> monotone 0.06.
  const std::vector<double> adjusted = HolmAdjust({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adjusted.size(), 4u);
  EXPECT_DOUBLE_EQ(adjusted[0], 0.03);
  EXPECT_DOUBLE_EQ(adjusted[1], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[2], 0.06);
  EXPECT_DOUBLE_EQ(adjusted[3], 0.02);
}

TEST(HolmAdjust, CappedAtOneAndEmpty) {
  const std::vector<double> adjusted = HolmAdjust({0.5, 0.9});
  EXPECT_DOUBLE_EQ(adjusted[0], 1);
  EXPECT_DOUBLE_EQ(adjusted[1], 1);
  EXPECT_TRUE(HolmAdjust({}).empty());
  EXPECT_DOUBLE_EQ(HolmAdjust({0.02})[0], 0.02);
}

TEST(ExpandedBootstrapLevel, Hesterberg) {
  // 2 * Phi(sqrt(n / (n - 1)) * t_{n-1, 0.975}) - 1.
  EXPECT_NEAR(ExpandedBootstrapLevel(0.95, 6), 0.9951363936670024, 1e-9);
  EXPECT_NEAR(ExpandedBootstrapLevel(0.95, 20), 0.9682383401593033, 1e-9);
  EXPECT_GT(ExpandedBootstrapLevel(0.95, 1000), 0.95);
  EXPECT_LT(ExpandedBootstrapLevel(0.95, 1000), 0.952);
}

TEST(BootstrapGeometricMeanRatio, PointIsTheGeometricMeanAndTheIntervalHoldsIt) {
  const std::vector<double> ratios = {1.08, 1.12, 1.10, 1.09, 1.11, 1.10};
  const Interval i = BootstrapGeometricMeanRatio(ratios, {20000, 0.95, 7});
  EXPECT_DOUBLE_EQ(i.point, GeometricMean(ratios));
  EXPECT_LT(i.lower, i.point);
  EXPECT_GT(i.upper, i.point);
  // A resampled geometric mean lies within the extremes.
  EXPECT_GE(i.lower, 1.08);
  EXPECT_LE(i.upper, 1.12);
  EXPECT_GT(i.lower, 1.05);                                             // a steady 10 % shift is clear of 5 %
  EXPECT_EQ(i, BootstrapGeometricMeanRatio(ratios, {20000, 0.95, 7}));  // seeded
}

TEST(BootstrapGeometricMeanRatio, ConstantRatiosGiveAPointInterval) {
  const Interval i = BootstrapGeometricMeanRatio({1.25, 1.25, 1.25}, {1000, 0.95, 1});
  EXPECT_DOUBLE_EQ(i.point, 1.25);
  EXPECT_DOUBLE_EQ(i.lower, 1.25);
  EXPECT_DOUBLE_EQ(i.upper, 1.25);
}

TEST(RatioOfGeometricMeans, HandComputed) {
  // Logs: current {1, 3}, baseline {0, 2}: difference 1, each variance 2, se sqrt(2), df 2.
  const double e = std::exp(1.0);
  const Interval r = RatioOfGeometricMeans({e, e * e * e}, {1, e * e}, 0.95);
  const double half = 4.302652729911275 * std::sqrt(2.0);
  EXPECT_NEAR(r.point, e, 1e-12);
  EXPECT_NEAR(std::log(r.lower), 1 - half, 1e-8);
  EXPECT_NEAR(std::log(r.upper), 1 + half, 1e-8);
}

}  // namespace
}  // namespace dbxb
