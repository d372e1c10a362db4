#include "stats/compare_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "stats/statistics.h"
#include "tests/fixtures/compare/synthetic_runs.h"

namespace dbxb {
namespace {

using testdata::LognormalTimes;

std::vector<double> Scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

TEST(WelchTTest, HandComputed) {
  // means 2.5 and 5, variances 5/3 and 20/3: t = -2.5 / sqrt(5/12 + 20/12) = -sqrt(3).
  EXPECT_NEAR(WelchT({1, 2, 3, 4}, {2, 4, 6, 8}), -std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(WelchT({2, 4, 6, 8}, {1, 2, 3, 4}), std::sqrt(3.0), 1e-12);
  // Unequal sizes: means 2 and 11, variances 1 and 2: t = -9 / sqrt(1/3 + 2/2).
  EXPECT_NEAR(WelchT({1, 2, 3}, {10, 12}), -9 / std::sqrt(1.0 / 3 + 1.0), 1e-12);
}

TEST(WelchTTest, DegenerateInputs) {
  EXPECT_TRUE(std::isnan(WelchT({1}, {1, 2})));
  EXPECT_TRUE(std::isnan(WelchT({5, 5}, {5, 5, 5})));
  EXPECT_EQ(WelchT({6, 6}, {5, 5}), INFINITY);
  EXPECT_EQ(WelchT({4, 4}, {5, 5}), -INFINITY);
}

// The exact p-value of the mixed bootstrap for a tiny sample, by enumerating every equally likely
// resample: an independent check of the resampling and of Criterion's p-value definition.
TEST(BootstrapTTestTest, ConvergesToExactEnumeration) {
  const std::vector<double> current = {3, 4.5}, baseline = {1, 2};
  const std::vector<double> pooled = {3, 4.5, 1, 2};
  const double t_obs = WelchT(current, baseline);
  double finite = 0, below = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 4; ++d) {
          const double t = WelchT({pooled[a], pooled[b]}, {pooled[c], pooled[d]});
          if (!std::isfinite(t)) continue;
          ++finite;
          below += t < t_obs;
        }
  const double exact = 2 * std::min(below, finite - below) / finite;
  ASSERT_GT(exact, 0.01);  // the check means something only if the p-value is not ~0
  const TTestResult r = BootstrapTTest(current, baseline, 200000, 7);
  EXPECT_DOUBLE_EQ(r.t, t_obs);
  EXPECT_NEAR(r.p_value, exact, 0.005);
  EXPECT_NEAR(static_cast<double>(r.finite_resamples) / 200000, finite / 256, 0.005);
}

TEST(BootstrapTTestTest, SeededAndDeterministic) {
  const auto a = LognormalTimes(100, 0.05, 50, 1), b = LognormalTimes(101, 0.05, 50, 2);
  const TTestResult x = BootstrapTTest(a, b, 5000, 11), y = BootstrapTTest(a, b, 5000, 11);
  EXPECT_EQ(x.p_value, y.p_value);
  EXPECT_EQ(x.t, y.t);
  EXPECT_NE(BootstrapTTest(a, b, 5000, 12).p_value, x.p_value);
}

TEST(BootstrapTTestTest, ClearShiftGivesTinyP) {
  const auto base = LognormalTimes(100, 0.02, 100, 3);
  const TTestResult r = BootstrapTTest(LognormalTimes(110, 0.02, 100, 4), base, 2000, 5);
  EXPECT_GT(r.t, 10);
  EXPECT_EQ(r.p_value, 0);
  const TTestResult faster = BootstrapTTest(LognormalTimes(90, 0.02, 100, 4), base, 2000, 5);
  EXPECT_LT(faster.t, -10);
  EXPECT_EQ(faster.p_value, 0);
}

TEST(BootstrapTTestTest, ConstantSamples) {
  EXPECT_EQ(BootstrapTTest({5, 5, 5}, {5, 5}, 100, 1).p_value, 1);  // no evidence of any change
  const TTestResult r = BootstrapTTest({6, 6, 6}, {5, 5, 5}, 1000, 1);
  EXPECT_EQ(r.t, INFINITY);
  EXPECT_EQ(r.p_value, 0);
}

// Under the null hypothesis p is about uniform: p < 0.05 in about 5 % of the pairs, p < 0.5 in
// about half. 200 pairs: the bounds are more than 3 standard deviations wide.
TEST(BootstrapTTestTest, NullPValuesAreCalibrated) {
  int below_05 = 0, below_50 = 0;
  const int kPairs = 200;
  for (int i = 0; i < kPairs; ++i) {
    const auto a = LognormalTimes(1000, 0.03, 100, 1000 + 2 * i), b = LognormalTimes(1000, 0.03, 100, 1001 + 2 * i);
    const double p = BootstrapTTest(a, b, 1000, i).p_value;
    ASSERT_GE(p, 0);
    ASSERT_LE(p, 1);
    below_05 += p < 0.05;
    below_50 += p < 0.5;
  }
  EXPECT_LE(below_05, 20) << "p < 0.05 in " << below_05 << " of " << kPairs << " null pairs";
  EXPECT_GE(below_05, 2);
  EXPECT_GE(below_50, 78);
  EXPECT_LE(below_50, 122);
}

// The counting resampler against the plain one: same draws into the sorted values, same statistics.
TEST(BootstrapMeanAndMedianTest, EqualsResamplingTheSortedValues) {
  for (size_t n : {2, 3, 10, 101}) {
    std::vector<double> values = LognormalTimes(100, 0.2, n, n);
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const MeanMedianDistributions d = BootstrapMeanAndMedian(values, 500, 9);
    const std::vector<double> means =
        BootstrapDistribution(sorted, 500, 9, [](const std::vector<double>& v) { return Mean(v); });
    const std::vector<double> medians =
        BootstrapDistribution(sorted, 500, 9, [](const std::vector<double>& v) { return Median(v); });
    ASSERT_EQ(d.mean.size(), 500u);
    for (size_t r = 0; r < 500; ++r) {
      ASSERT_NEAR(d.mean[r], means[r], 1e-9 * means[r]) << "n " << n << ", resample " << r;
      ASSERT_DOUBLE_EQ(d.median[r], medians[r]) << "n " << n << ", resample " << r;
    }
  }
}

TEST(BootstrapRelativeChangeTest, PointEstimatesAreExactRatios) {
  const std::vector<double> base = {10, 20, 30, 40, 50};
  const std::vector<double> cur = {11, 22, 33, 44, 55};
  const RelativeChange c = BootstrapRelativeChange(cur, base, BootstrapOptions{2000, 0.95, 3});
  EXPECT_NEAR(c.mean.point, 0.1, 1e-12);
  EXPECT_NEAR(c.median.point, 0.1, 1e-12);
  EXPECT_LT(c.mean.lower, 0.1);
  EXPECT_GT(c.mean.upper, 0.1);
  EXPECT_GT(c.mean.std_error, 0);
}

TEST(BootstrapRelativeChangeTest, IntervalWidthFollowsTheNoise) {
  const auto base = LognormalTimes(1000, 0.01, 100, 21);
  const RelativeChange quiet =
      BootstrapRelativeChange(Scaled(LognormalTimes(1000, 0.01, 100, 22), 1.1), base, BootstrapOptions{2000, 0.95, 1});
  // SE of the ratio of two means of 100 values with CV 1 %: about 0.01 * sqrt(2 / 100) = 0.14 %.
  EXPECT_NEAR(quiet.mean.point, 0.1, 0.006);
  EXPECT_NEAR(quiet.mean.upper - quiet.mean.lower, 2 * 1.96 * 0.0014 * 1.1, 0.002);
  const auto noisy_base = LognormalTimes(1000, 0.1, 100, 21);
  const RelativeChange noisy = BootstrapRelativeChange(Scaled(LognormalTimes(1000, 0.1, 100, 22), 1.1), noisy_base,
                                                       BootstrapOptions{2000, 0.95, 1});
  EXPECT_GT(noisy.mean.upper - noisy.mean.lower, 5 * (quiet.mean.upper - quiet.mean.lower));
}

// The 95 % interval of the mean change covers the true change in about 95 % of the pairs.
TEST(BootstrapRelativeChangeTest, IntervalsCoverTheTrueChange) {
  int covered = 0;
  const int kPairs = 100;
  for (int i = 0; i < kPairs; ++i) {
    const auto base = LognormalTimes(1000, 0.03, 100, 500 + 2 * i);
    const auto cur = LognormalTimes(1050, 0.03, 100, 501 + 2 * i);
    const RelativeChange c = BootstrapRelativeChange(cur, base, BootstrapOptions{1000, 0.95, static_cast<uint64_t>(i)});
    covered += c.mean.lower <= 0.05 && 0.05 <= c.mean.upper;
  }
  EXPECT_GE(covered, 87);
  EXPECT_LE(covered, 100);
}

}  // namespace
}  // namespace dbxb

namespace dbxb {
namespace {

TEST(BlockBootstrapRatioOfSumsTest, WholeSeriesBlocksAreRotationsWithTheTotalRatio) {
  // One block of all n intervals, started anywhere (circularly), holds every interval once: every
  // resample is the series' own ratio of sums, 60 / 6 = 10.
  const std::vector<double> num = {10, 20, 30}, den = {1, 2, 3};
  for (double r : BlockBootstrapRatioOfSums(num, den, 3, 50, 1)) EXPECT_DOUBLE_EQ(r, 10);
}

TEST(BlockBootstrapRatioOfSumsTest, ResamplesStayWithinTheIntervalRatios) {
  // Every resample's ratio of sums is a weighted mean of the intervals' ratios (5, 10, 20 and 40).
  const std::vector<double> num = {5, 20, 60, 160}, den = {1, 2, 3, 4};
  const std::vector<double> d = BlockBootstrapRatioOfSums(num, den, 2, 2000, 9);
  ASSERT_EQ(d.size(), 2000u);
  for (double r : d) {
    EXPECT_GE(r, 5);
    EXPECT_LE(r, 40);
  }
  EXPECT_EQ(d, BlockBootstrapRatioOfSums(num, den, 2, 2000, 9));  // seeded
  EXPECT_NE(d, BlockBootstrapRatioOfSums(num, den, 2, 2000, 10));
}

TEST(BlockLengthTest, CubeRoot) {
  EXPECT_EQ(BlockLength(1), 1u);
  EXPECT_EQ(BlockLength(2), 1u);
  EXPECT_EQ(BlockLength(10), 2u);
  EXPECT_EQ(BlockLength(27), 3u);
  EXPECT_EQ(BlockLength(60), 4u);
}

}  // namespace
}  // namespace dbxb
