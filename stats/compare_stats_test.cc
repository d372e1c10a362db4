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
