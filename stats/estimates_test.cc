#include "stats/estimates.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/prng.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

SamplingConfig FastConfig(uint64_t seed = 0) {
  SamplingConfig c;
  c.bootstrap_resamples = 2000;  // the default 100,000 is exercised by the benchmark, not here
  c.seed = seed;
  return c;
}

// Linear sampling of a routine taking ~100 ns per iteration plus 2 us of fixed cost per sample, with
// deterministic noise. The fixed cost adds 2000 * sum(x) / sum(x^2) = 9.84 ns to the slope through the
// origin but 2000 * mean(1 / x) = 26.6 ns to the per-iteration mean.
std::vector<Sample> LinearSamples(size_t n = 30) {
  Xoshiro256 gen(77);
  std::vector<Sample> s;
  for (size_t i = 1; i <= n; ++i) {
    const uint64_t iters = 10 * i;
    const double noise = 1.0 + 0.05 * (gen.NextDouble() - 0.5);
    s.push_back({iters, 2000.0 + 100.0 * static_cast<double>(iters) * noise});
  }
  return s;
}

void ExpectOrdered(const Interval& in) {
  EXPECT_TRUE(std::isfinite(in.point));
  EXPECT_LE(in.lower, in.point);
  EXPECT_GE(in.upper, in.point);
  EXPECT_GE(in.std_error, 0.0);
}

TEST(EstimatesTest, ValidateSamplingConfig) {
  EXPECT_TRUE(ValidateSamplingConfig(SamplingConfig{}).ok());
  SamplingConfig c;
  c.sample_count = 9;
  EXPECT_TRUE(ValidateSamplingConfig(c).IsInvalidArgument());
  c = {};
  c.warmup_seconds = 0;
  EXPECT_TRUE(ValidateSamplingConfig(c).IsInvalidArgument());
  c = {};
  c.measurement_seconds = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(ValidateSamplingConfig(c).IsInvalidArgument());
  c = {};
  c.bootstrap_resamples = 0;
  EXPECT_TRUE(ValidateSamplingConfig(c).IsInvalidArgument());
  c = {};
  c.confidence_level = 1.0;
  EXPECT_TRUE(ValidateSamplingConfig(c).IsInvalidArgument());
}

TEST(EstimatesTest, LinearModeFillsEverything) {
  const std::vector<Sample> samples = LinearSamples();
  const std::vector<double> times = PerIterationTimes(samples);
  BenchmarkResult r;
  ASSERT_TRUE(Analyze(samples, SamplingMode::kLinear, 4, FastConfig(), &r).ok());
  const Estimates& e = r.estimates;
  EXPECT_DOUBLE_EQ(e.mean.point, Mean(times));
  EXPECT_DOUBLE_EQ(e.median.point, Median(times));
  EXPECT_DOUBLE_EQ(e.std_dev.point, StdDev(times));
  EXPECT_DOUBLE_EQ(e.median_abs_dev.point, MedianAbsDev(times));
  ASSERT_TRUE(e.slope.has_value());
  EXPECT_DOUBLE_EQ(e.slope->point, Slope(samples));
  EXPECT_NEAR(e.slope->point, 100.0 + 2000.0 * 4650.0 / 945500.0, 1.0);
  EXPECT_NEAR(e.mean.point, 126.6, 1.0);
  for (const Interval* in : {&e.mean, &e.median, &e.std_dev, &e.median_abs_dev, &*e.slope}) {
    ExpectOrdered(*in);
    EXPECT_GT(in->std_error, 0.0);
    EXPECT_LT(in->lower, in->upper);
  }

  // Throughput comes from the slope: 4 elements per iteration.
  EXPECT_DOUBLE_EQ(r.throughput.point, 4e9 / e.slope->point);
  ExpectOrdered(r.throughput);
  // The bounds swap; they agree with the time bounds up to interpolation between order statistics.
  EXPECT_NEAR(r.throughput.lower, 4e9 / e.slope->upper, 1e-3 * r.throughput.point);
  EXPECT_NEAR(r.throughput.upper, 4e9 / e.slope->lower, 1e-3 * r.throughput.point);
  EXPECT_NEAR(r.throughput.std_error, 4e9 * e.slope->std_error / (e.slope->point * e.slope->point),
              0.05 * r.throughput.std_error);
}

TEST(EstimatesTest, FlatModeHasNoSlopeAndThroughputFromMean) {
  std::vector<Sample> samples;
  for (int i = 0; i < 20; ++i) samples.push_back({50, 50.0 * (1000 + 10 * (i % 7))});
  BenchmarkResult r;
  r.estimates.slope = Interval{1, 1, 1, 1};  // stale value must be cleared
  ASSERT_TRUE(Analyze(samples, SamplingMode::kFlat, 1, FastConfig(), &r).ok());
  EXPECT_FALSE(r.estimates.slope.has_value());
  EXPECT_DOUBLE_EQ(r.throughput.point, 1e9 / r.estimates.mean.point);
  ExpectOrdered(r.throughput);
}

TEST(EstimatesTest, OutliersAreCountedNotRemoved) {
  std::vector<Sample> samples;
  for (int i = 0; i < 19; ++i) samples.push_back({1, 100.0 + i % 3});
  samples.push_back({1, 1000.0});
  BenchmarkResult r;
  ASSERT_TRUE(Analyze(samples, SamplingMode::kFlat, 0, FastConfig(), &r).ok());
  EXPECT_EQ(r.outliers.high_severe, 1u);
  EXPECT_EQ(r.outliers.total(), 1u);
  EXPECT_DOUBLE_EQ(r.estimates.mean.point, Mean(PerIterationTimes(samples)));  // includes the 1000
}

TEST(EstimatesTest, DeterministicUnderSeed) {
  const std::vector<Sample> samples = LinearSamples();
  BenchmarkResult a, b, c;
  ASSERT_TRUE(Analyze(samples, SamplingMode::kLinear, 1, FastConfig(9), &a).ok());
  ASSERT_TRUE(Analyze(samples, SamplingMode::kLinear, 1, FastConfig(9), &b).ok());
  ASSERT_TRUE(Analyze(samples, SamplingMode::kLinear, 1, FastConfig(10), &c).ok());
  EXPECT_EQ(a.estimates.mean.lower, b.estimates.mean.lower);
  EXPECT_EQ(a.estimates.slope->upper, b.estimates.slope->upper);
  EXPECT_EQ(a.estimates.median_abs_dev.std_error, b.estimates.median_abs_dev.std_error);
  EXPECT_EQ(a.throughput.lower, b.throughput.lower);
  EXPECT_NE(a.estimates.mean.lower, c.estimates.mean.lower);
  EXPECT_NE(a.estimates.slope->upper, c.estimates.slope->upper);
}

TEST(EstimatesTest, AllEqualSamplesCollapseWithoutNaN) {
  std::vector<Sample> samples(12, Sample{8, 800.0});
  BenchmarkResult r;
  ASSERT_TRUE(Analyze(samples, SamplingMode::kLinear, 2, FastConfig(), &r).ok());
  const Estimates& e = r.estimates;
  for (const Interval* in : {&e.mean, &e.median, &*e.slope}) {
    EXPECT_DOUBLE_EQ(in->point, 100.0);
    EXPECT_DOUBLE_EQ(in->lower, 100.0);
    EXPECT_DOUBLE_EQ(in->upper, 100.0);
    EXPECT_DOUBLE_EQ(in->std_error, 0.0);
  }
  EXPECT_DOUBLE_EQ(e.std_dev.point, 0.0);
  EXPECT_DOUBLE_EQ(e.std_dev.upper, 0.0);
  EXPECT_DOUBLE_EQ(e.median_abs_dev.point, 0.0);
  EXPECT_EQ(r.outliers.total(), 0u);
  EXPECT_DOUBLE_EQ(r.throughput.point, 2e7);
  EXPECT_DOUBLE_EQ(r.throughput.lower, 2e7);
}

TEST(EstimatesTest, UnusableInputIsInvalidArgumentAndLeavesResultAlone) {
  const SamplingConfig config = FastConfig();
  auto rejects = [&](const std::vector<Sample>& samples, const SamplingConfig& cfg) {
    BenchmarkResult r;
    r.estimates.mean.point = -1;
    Status s = Analyze(samples, SamplingMode::kLinear, 1, cfg, &r);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(r.estimates.mean.point, -1);
  };
  rejects({}, config);
  rejects({{1, 10.0}}, config);
  rejects({{1, 10.0}, {0, 10.0}}, config);
  rejects({{1, 10.0}, {2, 0.0}}, config);
  rejects({{1, 10.0}, {2, -5.0}}, config);
  rejects({{1, 10.0}, {2, std::numeric_limits<double>::quiet_NaN()}}, config);
  rejects({{1, 10.0}, {2, std::numeric_limits<double>::infinity()}}, config);
  SamplingConfig no_resamples = config;
  no_resamples.bootstrap_resamples = 0;
  rejects(LinearSamples(), no_resamples);
  SamplingConfig bad_level = config;
  bad_level.confidence_level = 0;
  rejects(LinearSamples(), bad_level);
}

}  // namespace
}  // namespace dbxb
