// Expected values were computed independently with Python's `statistics` module (mean, median, stdev,
// quantiles(method="inclusive"), which is the linear-interpolation definition) and by hand.
#include "stats/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dbxb {
namespace {

constexpr double kTol = 1e-12;

const std::vector<double> kOdd = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
const std::vector<double> kEven = {10, 12, 11, 13, 12, 11, 10, 30, 12, 2, 11.5, -20};
const std::vector<double> kFourClasses = {50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 40, 71, 20, 95};

TEST(StatisticsTest, MeanMedianStdDevMadOddCount) {
  EXPECT_NEAR(Mean(kOdd), 4.0, kTol);
  EXPECT_NEAR(Median(kOdd), 4.0, kTol);
  EXPECT_NEAR(StdDev(kOdd), 2.3664319132398464, kTol);
  EXPECT_NEAR(MedianAbsDev(kOdd), 1.4826, kTol);  // deviations' median is 1
}

TEST(StatisticsTest, MeanMedianStdDevMadEvenCount) {
  EXPECT_NEAR(Mean(kEven), 9.5416666666666661, kTol);
  EXPECT_NEAR(Median(kEven), 11.25, kTol);  // (11 + 11.5) / 2
  EXPECT_NEAR(StdDev(kEven), 11.227924468876155, kTol);
  EXPECT_NEAR(MedianAbsDev(kEven), 1.0 * 1.4826, kTol);  // (0.75 + 1.25) / 2
}

TEST(StatisticsTest, StdDevIsStableForLargeOffsets) {
  // A one-pass sum-of-squares formula loses every digit here; two passes do not.
  std::vector<double> v = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  EXPECT_NEAR(StdDev(v), std::sqrt(30.0), 1e-6);
}

TEST(StatisticsTest, QuantileInterpolatesBetweenClosestRanks) {
  const std::vector<double> sorted = {1, 2, 4, 8, 16};
  EXPECT_DOUBLE_EQ(Quantile(sorted, 0.0), 1.0);
  EXPECT_NEAR(Quantile(sorted, 0.1), 1.4, kTol);  // rank 0.4
  EXPECT_DOUBLE_EQ(Quantile(sorted, 0.25), 2.0);  // rank 1
  EXPECT_DOUBLE_EQ(Quantile(sorted, 0.5), 4.0);
  EXPECT_NEAR(Quantile(sorted, 0.9), 12.8, kTol);  // rank 3.6: 8 + 0.6 * 8
  EXPECT_DOUBLE_EQ(Quantile(sorted, 1.0), 16.0);
  EXPECT_DOUBLE_EQ(Quantile({7.0}, 0.3), 7.0);
}

TEST(StatisticsTest, QuantileInPlaceEqualsQuantileOfSorted) {
  std::vector<double> v;
  for (int i = 0; i < 101; ++i) v.push_back(static_cast<double>((i * 37) % 101) * 0.5);  // a permutation
  std::vector<double> sorted = v;
  std::sort(sorted.begin(), sorted.end());
  for (double q : {0.0, 0.025, 0.25, 0.5, 0.731, 0.975, 1.0}) {
    std::vector<double> copy = v;
    EXPECT_EQ(QuantileInPlace(&copy, q), Quantile(sorted, q)) << "q = " << q;
  }
  std::vector<double> empty;
  EXPECT_TRUE(std::isnan(QuantileInPlace(&empty, 0.5)));
}

TEST(StatisticsTest, TukeyFencesAndClasses) {
  TukeyFences f;
  OutlierCounts c = ClassifyOutliers(kFourClasses, &f);
  // q1 = 51.75, q3 = 59.25, IQR = 7.5
  EXPECT_NEAR(f.low_severe, 29.25, kTol);
  EXPECT_NEAR(f.low_mild, 40.5, kTol);
  EXPECT_NEAR(f.high_mild, 70.5, kTol);
  EXPECT_NEAR(f.high_severe, 81.75, kTol);
  EXPECT_EQ(c.low_severe, 1u);   // 20
  EXPECT_EQ(c.low_mild, 1u);     // 40
  EXPECT_EQ(c.high_mild, 1u);    // 71
  EXPECT_EQ(c.high_severe, 1u);  // 95
  EXPECT_EQ(c.total(), 4u);

  c = ClassifyOutliers(kEven, &f);  // q1 = 10, q3 = 12: fences 4, 7, 15, 18
  EXPECT_NEAR(f.low_severe, 4.0, kTol);
  EXPECT_NEAR(f.high_severe, 18.0, kTol);
  EXPECT_EQ(c.low_severe, 2u);  // 2 and -20
  EXPECT_EQ(c.low_mild, 0u);
  EXPECT_EQ(c.high_mild, 0u);
  EXPECT_EQ(c.high_severe, 1u);  // 30

  c = ClassifyOutliers(kOdd);  // q1 = 2.5, q3 = 5: the 9 is beyond 8.75 only
  EXPECT_EQ(c.high_mild, 1u);
  EXPECT_EQ(c.total(), 1u);
}

TEST(StatisticsTest, ValueOnAFenceIsNotAnOutlier) {
  // q1 = 1, q3 = 2 (IQR 1): the high-mild fence is exactly 3.5.
  std::vector<double> v = {1, 1, 1, 2, 2, 2, 3.5};
  TukeyFences f;
  OutlierCounts c = ClassifyOutliers(v, &f);
  EXPECT_DOUBLE_EQ(f.high_mild, 3.5);
  EXPECT_EQ(c.total(), 0u);
}

TEST(StatisticsTest, SlopeThroughOrigin) {
  std::vector<Sample> s = {{1, 10.5}, {2, 19.0}, {3, 31.0}, {4, 39.5}, {5, 52.0}};
  EXPECT_NEAR(Slope(s), 10.172727272727272, kTol);  // 559.5 / 55
  EXPECT_TRUE(std::isnan(Slope({})));
  EXPECT_TRUE(std::isnan(Slope({{0, 5.0}})));
}

TEST(StatisticsTest, PerIterationTimes) {
  std::vector<double> t = PerIterationTimes({{4, 100}, {5, 100}, {0, 3}});
  ASSERT_EQ(t.size(), 3u);
  EXPECT_DOUBLE_EQ(t[0], 25.0);
  EXPECT_DOUBLE_EQ(t[1], 20.0);
  EXPECT_TRUE(std::isnan(t[2]));
}

TEST(StatisticsTest, DegenerateInputGivesNaNOrZeroNotACrash) {
  const std::vector<double> empty;
  EXPECT_TRUE(std::isnan(Mean(empty)));
  EXPECT_TRUE(std::isnan(Median(empty)));
  EXPECT_TRUE(std::isnan(Quantile(empty, 0.5)));
  EXPECT_TRUE(std::isnan(StdDev(empty)));
  EXPECT_TRUE(std::isnan(MedianAbsDev(empty)));
  EXPECT_EQ(ClassifyOutliers(empty).total(), 0u);

  const std::vector<double> one = {42};
  EXPECT_DOUBLE_EQ(Mean(one), 42.0);
  EXPECT_DOUBLE_EQ(Median(one), 42.0);
  EXPECT_TRUE(std::isnan(StdDev(one)));
  EXPECT_DOUBLE_EQ(MedianAbsDev(one), 0.0);

  const std::vector<double> equal(20, 7.5);
  EXPECT_DOUBLE_EQ(Mean(equal), 7.5);
  EXPECT_DOUBLE_EQ(Median(equal), 7.5);
  EXPECT_DOUBLE_EQ(StdDev(equal), 0.0);
  EXPECT_DOUBLE_EQ(MedianAbsDev(equal), 0.0);
  EXPECT_EQ(ClassifyOutliers(equal).total(), 0u);
}

}  // namespace
}  // namespace dbxb
