#include "stats/bootstrap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/statistics.h"

namespace dbxb {
namespace {

// Draws from N(mean, sigma) by Box-Muller on the seeded generator.
double Normal(Xoshiro256& rng, double mean, double sigma) {
  const double u1 = 1.0 - rng.NextDouble();  // (0, 1]: log() stays finite
  const double u2 = rng.NextDouble();
  return mean + sigma * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// The generator itself (known answers, Below, NextDouble): common/prng_test.cc.

TEST(BootstrapTest, SummarizeDistributionTakesPercentilesAndStdDev) {
  std::vector<double> d;
  for (int i = 101; i >= 1; --i) d.push_back(i);  // unsorted on purpose
  Interval in = SummarizeDistribution(50.0, &d, 0.95);
  EXPECT_DOUBLE_EQ(in.point, 50.0);
  EXPECT_NEAR(in.lower, 3.5, 1e-12);   // rank 0.025 * 100 = 2.5 between 3 and 4
  EXPECT_NEAR(in.upper, 98.5, 1e-12);  // rank 97.5
  EXPECT_NEAR(in.std_error, std::sqrt(101.0 * 102.0 / 12.0), 1e-9);
}

TEST(BootstrapTest, SameSeedSameIntervalDifferentSeedDifferent) {
  Xoshiro256 gen(3);
  std::vector<double> v;
  for (int i = 0; i < 40; ++i) v.push_back(Normal(gen, 10, 2));
  auto mean = [](const std::vector<double>& x) { return Mean(x); };
  const Interval a = Bootstrap(v, mean, {2000, 0.95, 11});
  const Interval b = Bootstrap(v, mean, {2000, 0.95, 11});
  const Interval c = Bootstrap(v, mean, {2000, 0.95, 12});
  EXPECT_EQ(a, b);
  EXPECT_NE(a.lower, c.lower);
  EXPECT_NE(a.upper, c.upper);
  EXPECT_LT(a.lower, a.point);
  EXPECT_GT(a.upper, a.point);
}

TEST(BootstrapTest, PercentileIntervalOfMeanCoversTrueMean) {
  // 200 data sets of n = 50 from N(100, 15): a 95 % interval should cover 100 in about 190 of them.
  // With 200 trials the binomial spread is about 3; the percentile bootstrap runs a little narrow.
  Xoshiro256 gen(2024);
  auto mean = [](const std::vector<double>& x) { return Mean(x); };
  int covered = 0;
  for (uint64_t trial = 0; trial < 200; ++trial) {
    std::vector<double> v(50);
    for (double& x : v) x = Normal(gen, 100, 15);
    const Interval in = Bootstrap(v, mean, {1000, 0.95, trial});
    if (in.lower <= 100 && 100 <= in.upper) ++covered;
  }
  RecordProperty("covered_of_200", covered);
  EXPECT_GE(covered, 176);  // 88 %
  EXPECT_LE(covered, 198);  // 99 %
}

// Samples with repeated per-iteration times (ties matter for the median walks) and varied iterations.
std::vector<Sample> MixedSamples(size_t n, uint64_t seed) {
  Xoshiro256 gen(seed);
  std::vector<Sample> s;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t iters = 1 + gen.Below(9);
    const double per_iter = (i % 4 == 0) ? 50.0 : std::round(Normal(gen, 50, 8));
    s.push_back({iters, per_iter * static_cast<double>(iters)});
  }
  return s;
}

void ExpectFusedMatchesReference(size_t n, uint64_t seed) {
  const std::vector<Sample> samples = MixedSamples(n, seed);
  const std::vector<double> times = PerIterationTimes(samples);
  constexpr uint64_t kResamples = 300;
  const SampleDistributions fused = BootstrapSamples(samples, true, kResamples, seed);
  ASSERT_EQ(fused.mean.size(), kResamples);
  ASSERT_EQ(fused.slope.size(), kResamples);

  // The generic bootstrap consumes the generator identically, so it resamples the same indices.
  auto median = [](const std::vector<double>& x) { return Median(x); };
  auto mad = [](const std::vector<double>& x) { return MedianAbsDev(x); };
  auto mean = [](const std::vector<double>& x) { return Mean(x); };
  auto sd = [](const std::vector<double>& x) { return StdDev(x); };
  const std::vector<double> ref_median = BootstrapDistribution(times, kResamples, seed, median);
  const std::vector<double> ref_mad = BootstrapDistribution(times, kResamples, seed, mad);
  const std::vector<double> ref_mean = BootstrapDistribution(times, kResamples, seed, mean);
  const std::vector<double> ref_sd = BootstrapDistribution(times, kResamples, seed, sd);

  // The slope resamples pairs: replay the same index stream by hand.
  Xoshiro256 rng(seed);
  std::vector<Sample> pairs(n);
  for (uint64_t r = 0; r < kResamples; ++r) {
    for (size_t k = 0; k < n; ++k) pairs[k] = samples[rng.Below(n)];
    EXPECT_NEAR(fused.slope[r], Slope(pairs), 1e-12 * Slope(pairs)) << "resample " << r;
  }
  for (uint64_t r = 0; r < kResamples; ++r) {
    // Order statistics pick the same elements, so these are exact.
    EXPECT_EQ(fused.median[r], ref_median[r]) << "resample " << r;
    EXPECT_EQ(fused.median_abs_dev[r], ref_mad[r]) << "resample " << r;
    // Sums are accumulated in a different order.
    EXPECT_NEAR(fused.mean[r], ref_mean[r], 1e-12 * ref_mean[r]) << "resample " << r;
    EXPECT_NEAR(fused.std_dev[r], ref_sd[r], 1e-9 * ref_sd[r] + 1e-12) << "resample " << r;
  }
}

TEST(BootstrapTest, FusedResamplingMatchesGenericEvenCount) { ExpectFusedMatchesReference(20, 5); }
TEST(BootstrapTest, FusedResamplingMatchesGenericOddCount) { ExpectFusedMatchesReference(13, 6); }
TEST(BootstrapTest, FusedResamplingMatchesGenericTwoSamples) { ExpectFusedMatchesReference(2, 7); }

TEST(BootstrapTest, FusedWithoutSlopeLeavesItEmpty) {
  const SampleDistributions d = BootstrapSamples(MixedSamples(10, 1), false, 50, 1);
  EXPECT_EQ(d.mean.size(), 50u);
  EXPECT_TRUE(d.slope.empty());
}

}  // namespace
}  // namespace dbxb
