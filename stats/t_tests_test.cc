// Known answers computed by hand, and with mpmath (the t distribution with fractional degrees of freedom).
#include "stats/t_tests.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/distributions.h"

namespace dbxb {
namespace {

TEST(OneSampleTTest, HandComputed) {
  // mean 0.2, s 0.1, se 0.1 / sqrt(3): t = 2 sqrt(3); df 2, so P(|T| >= t) = 1 - t / sqrt(2 + t^2).
  const TTest r = OneSampleTTest({0.1, 0.2, 0.3});
  EXPECT_NEAR(r.estimate, 0.2, 1e-12);
  EXPECT_NEAR(r.std_error, 0.1 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(r.t, 2 * std::sqrt(3.0), 1e-12);
  EXPECT_DOUBLE_EQ(r.df, 2);
  EXPECT_NEAR(r.p_value, 1 - r.t / std::sqrt(2 + r.t * r.t), 1e-12);
  EXPECT_NEAR(r.p_value, 0.0741799, 1e-6);
  const Interval i = r.IntervalAt(0.95);
  EXPECT_NEAR(i.upper - 0.2, 4.302652729911275 * 0.1 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(0.2 - i.lower, i.upper - 0.2, 1e-12);
}

TEST(OneSampleTTest, DegenerateCases) {
  const TTest one = OneSampleTTest({0.5});  // one value: no evidence, an unbounded interval
  EXPECT_DOUBLE_EQ(one.p_value, 1);
  EXPECT_TRUE(std::isinf(one.IntervalAt(0.95).lower));
  EXPECT_TRUE(std::isinf(one.IntervalAt(0.95).upper));
  EXPECT_DOUBLE_EQ(OneSampleTTest({0, 0, 0}).p_value, 1);  // nothing changed
  const TTest same = OneSampleTTest({0.1, 0.1});           // the same shift every round: certain
  EXPECT_DOUBLE_EQ(same.p_value, 0);
  EXPECT_TRUE(std::isinf(same.t));
  EXPECT_DOUBLE_EQ(same.IntervalAt(0.99).lower, 0.1);
  EXPECT_DOUBLE_EQ(same.IntervalAt(0.99).upper, 0.1);
  EXPECT_DOUBLE_EQ(OneSampleTTest({-0.1, -0.2, -0.3}).p_value, OneSampleTTest({0.1, 0.2, 0.3}).p_value);
}

TEST(WelchTTest, HandComputed) {
  // a: mean 2, var 1; b: mean 5.5, var 5/3. se^2 = 1/3 + 5/12 = 3/4; t = -3.5 / sqrt(0.75).
  // df = 0.5625 / ((1/3)^2 / 2 + (5/12)^2 / 3) = 4.959183673...; p by numerical integration.
  const TTest r = WelchTTest({1, 2, 3}, {4, 5, 6, 7});
  EXPECT_NEAR(r.estimate, -3.5, 1e-12);
  EXPECT_NEAR(r.t, -3.5 / std::sqrt(0.75), 1e-12);
  EXPECT_NEAR(r.df, 4.959183673469387, 1e-12);
  EXPECT_NEAR(r.p_value, 0.010076943347952394, 1e-8);
  EXPECT_DOUBLE_EQ(WelchTTest({1}, {2, 3}).p_value, 1);
  EXPECT_DOUBLE_EQ(WelchTTest({2, 2}, {2, 2}).p_value, 1);
  EXPECT_DOUBLE_EQ(WelchTTest({2, 2}, {3, 3}).p_value, 0);
  EXPECT_DOUBLE_EQ(WelchTTest({2, 2}, {3, 3}).df, 1);
}

TEST(TrimmedMean, FractionalTrimming) {
  // n = 5: exactly one value from each end.
  EXPECT_DOUBLE_EQ(TrimmedMean({9, 1, 2, 3, -9}, 0.2), 2);
  // n = 6: 1.2 values from each end: the second from each end counts 0.8.
  EXPECT_NEAR(TrimmedMean({-0.30, 0.05, 0.08, 0.09, 0.10, 0.12}, 0.2), 0.29 / 3.6, 1e-15);
  // n = 10: two from each end.
  EXPECT_DOUBLE_EQ(TrimmedMean({9, -9, 1, 2, 3, 4, 5, 6, 100, -100}, 0.2), 3.5);
  EXPECT_DOUBLE_EQ(TrimmedMean({4}, 0.2), 4);
  EXPECT_DOUBLE_EQ(TrimmedMean({1, 2, 3}, 0), 2);
  EXPECT_TRUE(std::isnan(TrimmedMean({}, 0.2)));
}

TEST(TrimmedMeanTest, HandComputedSixRounds) {
  // n = 6, gamma 0.2: trimmed mean 0.29 / 3.6 (above). Winsorized floor(1.2) = 1 from each end:
  // 0.05 0.05 0.08 0.09 0.10 0.10, s_w^2 = 0.000536667; se = s_w / (0.6 sqrt(6)) = 0.0157625; df 2.6.
  const std::vector<double> v = {0.10, 0.05, 0.12, 0.08, -0.30, 0.09};
  const TTest r = TrimmedMeanTest(v, kTrimProportion);
  EXPECT_NEAR(r.estimate, 0.0805555555555556, 1e-12);
  EXPECT_NEAR(r.std_error, 0.0157625121767901, 1e-12);
  EXPECT_NEAR(r.df, 2.6, 1e-12);
  EXPECT_NEAR(r.t, 5.11057848216425, 1e-9);
  EXPECT_NEAR(r.p_value, 0.0203690628885685, 1e-9);
  const Interval i = r.IntervalAt(0.95);
  EXPECT_NEAR(i.lower, 0.0257306629539394, 1e-8);
  EXPECT_NEAR(i.upper, 0.135380448157172, 1e-8);
  // The one wild value is trimmed: the plain t-test of the same values finds nothing.
  EXPECT_GT(OneSampleTTest(v).p_value, 0.5);
}

TEST(TrimmedMeanTest, NoTrimIsTheOneSampleTTest) {
  const std::vector<double> v = {0.01, 0.03, -0.02, 0.05, 0.02};
  const TTest r = TrimmedMeanTest(v, 0);
  const TTest t = OneSampleTTest(v);
  EXPECT_NEAR(r.t, t.t, 1e-12);
  EXPECT_NEAR(r.p_value, t.p_value, 1e-12);
  EXPECT_DOUBLE_EQ(r.df, 4);
}

// One more round never lowers the degrees of freedom or, for the same spread, widens the interval: with
// integer trimming (g = floor(0.2 n)) 5 rounds had 2 degrees of freedom and 4 had 3.
TEST(TrimmedMeanTest, MoreRoundsNeverLessEvidence) {
  double previous_df = 0, previous_half = INFINITY;
  for (size_t n = 2; n <= 40; ++n) {
    std::vector<double> v;
    for (size_t i = 0; i < n; ++i) v.push_back(i % 2 ? 0.01 : -0.01);
    const TTest r = TrimmedMeanTest(v, kTrimProportion);
    EXPECT_GT(r.df, previous_df) << n;
    const Interval i = r.IntervalAt(0.95);
    const double half = (i.upper - i.lower) / 2;
    EXPECT_LE(half, previous_half * 1.0000001) << n;
    previous_df = r.df;
    previous_half = half;
  }
}

TEST(TrimmedMeanTest, TwoRoundsDecideAlmostNothing) {
  // df = 0.2: the 95 % interval of two rounds 1 % apart spans far more than any gate.
  const TTest r = TrimmedMeanTest({0.10, 0.11}, kTrimProportion);
  EXPECT_NEAR(r.df, 0.2, 1e-12);
  const Interval i = r.IntervalAt(0.95);
  EXPECT_LT(i.lower, -1);
  EXPECT_GT(i.upper, 1);
  EXPECT_DOUBLE_EQ(TrimmedMeanTest({0.5}, kTrimProportion).p_value, 1);
}

TEST(TrimmedMeanTest, ConstantValuesAreExact) {
  const TTest r = TrimmedMeanTest({0.2, 0.2, 0.2, 0.2}, kTrimProportion);
  EXPECT_DOUBLE_EQ(r.std_error, 0);
  EXPECT_DOUBLE_EQ(r.IntervalAt(0.999).lower, 0.2);
  EXPECT_DOUBLE_EQ(r.p_value, 0);
}

}  // namespace
}  // namespace dbxb
