#include "records/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace dbxb {
namespace {

// The exact p-th percentile by the same definition: the ceil(p/100 * n)-th smallest value.
uint64_t ExactPercentile(const std::vector<uint64_t>& sorted, double p) {
  if (p <= 0) return sorted.front();
  double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()) - 1e-9);
  rank = std::clamp(rank, 1.0, static_cast<double>(sorted.size()));
  return sorted[static_cast<size_t>(rank) - 1];
}

const double kPercentiles[] = {0,  0.1, 1,    5,     10,     25,      50,     75,   90,
                               95, 99,  99.9, 99.99, 99.999, 99.9999, 33.333, 66.7, 100};

void ExpectPercentilesMatch(std::vector<uint64_t> values) {
  LatencyHistogram h;
  for (uint64_t v : values) h.Record(v);
  std::sort(values.begin(), values.end());
  for (double p : kPercentiles) {
    const uint64_t exact = ExactPercentile(values, p);
    const uint64_t got = h.ValueAtPercentile(p);
    // Reported as the top of the exact value's bucket: never below it, at most 0.1 % above.
    EXPECT_GE(got, exact) << "p" << p;
    EXPECT_LE(static_cast<double>(got - exact), 1e-3 * static_cast<double>(exact)) << "p" << p << " exact " << exact;
  }
  EXPECT_EQ(h.Count(), values.size());
  EXPECT_EQ(h.Min(), values.front());
  EXPECT_EQ(h.Max(), values.back());
  long double sum = 0;
  for (uint64_t v : values) sum += v;
  const double mean = static_cast<double>(sum / values.size());
  EXPECT_NEAR(h.Mean(), mean, 1e-9 * mean);
  long double acc = 0;
  for (uint64_t v : values) acc += (v - mean) * (v - mean);
  const double sd = std::sqrt(static_cast<double>(acc / values.size()));
  EXPECT_NEAR(h.StdDev(), sd, 1e-3 * sd);
}

TEST(LatencyHistogramTest, PercentilesOfLogUniformSamplesMatchExactSort) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(0.0, std::log(1e10));  // 1 ns .. 10 s
  std::vector<uint64_t> values(100000);
  for (auto& v : values) v = static_cast<uint64_t>(std::exp(exponent(rng)));
  ExpectPercentilesMatch(std::move(values));
}

TEST(LatencyHistogramTest, PercentilesOfExponentialSamplesMatchExactSort) {
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> latency(1.0 / 50000.0);  // mean 50 us
  std::vector<uint64_t> values(100000);
  for (auto& v : values) v = static_cast<uint64_t>(latency(rng)) + 200;
  ExpectPercentilesMatch(std::move(values));
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 2048; ++v) h.Record(v);
  EXPECT_EQ(h.ValueAtPercentile(50), 1023u);  // rank 1024 of 2048
  EXPECT_EQ(h.ValueAtPercentile(100), 2047u);
  for (uint64_t v : {0ull, 1ull, 1000ull, 2047ull}) {
    EXPECT_EQ(h.LowestEquivalentValue(v), v);
    EXPECT_EQ(h.HighestEquivalentValue(v), v);
  }
}

TEST(LatencyHistogramTest, BucketGeometryKeepsThreeDigits) {
  LatencyHistogram h;
  EXPECT_EQ(h.SizeOfEquivalentRange(2047), 1u);
  EXPECT_EQ(h.SizeOfEquivalentRange(2048), 2u);
  EXPECT_EQ(h.LowestEquivalentValue(2049), 2048u);
  EXPECT_EQ(h.HighestEquivalentValue(2048), 2049u);
  EXPECT_EQ(h.SizeOfEquivalentRange(4096), 4u);
  for (uint64_t v = 1; v < LatencyHistogram::kOneHourNs; v = v * 3 + 1) {
    const uint64_t lo = h.LowestEquivalentValue(v), hi = h.HighestEquivalentValue(v);
    ASSERT_LE(lo, v);
    ASSERT_GE(hi, v);
    ASSERT_LT(static_cast<double>(hi - lo), 1e-3 * static_cast<double>(lo) + 1) << v;
  }
}

TEST(LatencyHistogramTest, EmptyHistogram) {
  LatencyHistogram h;
  EXPECT_EQ(h.Count(), 0u);
  EXPECT_EQ(h.Min(), 0u);
  EXPECT_EQ(h.Max(), 0u);
  EXPECT_EQ(h.Mean(), 0.0);
  EXPECT_EQ(h.StdDev(), 0.0);
  EXPECT_EQ(h.ValueAtPercentile(50), 0u);
  EXPECT_TRUE(h.PercentileCurve().empty());
}

TEST(LatencyHistogramTest, SingleValue) {
  LatencyHistogram h;
  h.Record(123456);
  EXPECT_EQ(h.Count(), 1u);
  EXPECT_EQ(h.Min(), 123456u);
  EXPECT_EQ(h.Max(), 123456u);
  EXPECT_EQ(h.Mean(), 123456.0);
  EXPECT_EQ(h.StdDev(), 0.0);
  // Capped at the exact max, so a single value is reported exactly at every percentile.
  for (double p : kPercentiles) EXPECT_EQ(h.ValueAtPercentile(p), 123456u) << p;
}

TEST(LatencyHistogramTest, ZeroAndOne) {
  LatencyHistogram h;
  h.Record(0);
  h.Record(1);
  EXPECT_EQ(h.Min(), 0u);
  EXPECT_EQ(h.Max(), 1u);
  EXPECT_EQ(h.ValueAtPercentile(0), 0u);
  EXPECT_EQ(h.ValueAtPercentile(50), 0u);
  EXPECT_EQ(h.ValueAtPercentile(50.1), 1u);
  EXPECT_EQ(h.ValueAtPercentile(100), 1u);
  EXPECT_DOUBLE_EQ(h.Mean(), 0.5);
  EXPECT_DOUBLE_EQ(h.StdDev(), 0.5);
}

TEST(LatencyHistogramTest, PercentileArgumentIsClamped) {
  LatencyHistogram h;
  for (uint64_t v = 1; v <= 10; ++v) h.Record(v);
  EXPECT_EQ(h.ValueAtPercentile(-5), 1u);
  EXPECT_EQ(h.ValueAtPercentile(250), 10u);
  EXPECT_EQ(h.ValueAtPercentile(70), 7u);  // 0.7 * 10 is 7 up to rounding noise: rank 7, not 8
  EXPECT_EQ(h.ValueAtPercentile(70.01), 8u);
}

TEST(LatencyHistogramTest, ValuesBeyondOneHourAreClampedAndCounted) {
  LatencyHistogram h;
  const uint64_t hour = LatencyHistogram::kOneHourNs;
  h.Record(1000);
  h.Record(hour);
  h.Record(hour + 1);
  h.Record(UINT64_MAX);
  EXPECT_EQ(h.Count(), 4u);
  EXPECT_EQ(h.ClampedCount(), 2u);
  EXPECT_EQ(h.Max(), UINT64_MAX);  // exact, not clamped
  EXPECT_EQ(h.Min(), 1000u);
  // The top three values share the clamp bucket, reported as its highest equivalent value.
  EXPECT_EQ(h.ValueAtPercentile(100), h.HighestEquivalentValue(hour));
  EXPECT_GE(h.ValueAtPercentile(75), hour);
  EXPECT_EQ(h.ValueAtPercentile(25), 1000u);
  EXPECT_DOUBLE_EQ(h.Mean(), (1000.0 + 3.0 * static_cast<double>(hour)) / 4.0);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingAllIntoOne) {
  std::mt19937_64 rng(3);
  std::lognormal_distribution<double> latency(9.0, 1.5);
  LatencyHistogram all, a, b, c;
  for (int i = 0; i < 30000; ++i) {
    const uint64_t v = static_cast<uint64_t>(latency(rng));
    all.Record(v);
    (i % 3 == 0 ? a : i % 3 == 1 ? b : c).Record(v);
  }
  c.Record(LatencyHistogram::kOneHourNs * 2);
  all.Record(LatencyHistogram::kOneHourNs * 2);
  LatencyHistogram merged;
  merged.Merge(a);
  merged.Merge(b);
  merged.Merge(c);
  merged.Merge(LatencyHistogram());  // an empty histogram changes nothing
  EXPECT_EQ(merged.Count(), all.Count());
  EXPECT_EQ(merged.Min(), all.Min());
  EXPECT_EQ(merged.Max(), all.Max());
  EXPECT_EQ(merged.ClampedCount(), all.ClampedCount());
  EXPECT_DOUBLE_EQ(merged.Mean(), all.Mean());
  EXPECT_DOUBLE_EQ(merged.StdDev(), all.StdDev());
  for (double p : kPercentiles) EXPECT_EQ(merged.ValueAtPercentile(p), all.ValueAtPercentile(p)) << p;
  EXPECT_EQ(merged.PercentileCurve().size(), all.PercentileCurve().size());
}

TEST(LatencyHistogramTest, MergeAcrossPrecisionsKeepsCountsAndBounds) {
  LatencyHistogram fine(3), coarse(2);
  for (uint64_t v = 1000; v < 200000; v += 7) coarse.Record(v);
  fine.Merge(coarse);
  EXPECT_EQ(fine.Count(), coarse.Count());
  EXPECT_EQ(fine.Min(), coarse.Min());
  EXPECT_EQ(fine.Max(), coarse.Max());
  // Re-recorded at 2-digit resolution: within 1 % of the source's answer.
  EXPECT_NEAR(static_cast<double>(fine.ValueAtPercentile(50)), static_cast<double>(coarse.ValueAtPercentile(50)),
              0.01 * static_cast<double>(coarse.ValueAtPercentile(50)));
}

TEST(LatencyHistogramTest, ResetForgetsValues) {
  LatencyHistogram h;
  h.Record(5);
  h.Record(LatencyHistogram::kOneHourNs + 5);
  h.Reset();
  EXPECT_EQ(h.Count(), 0u);
  EXPECT_EQ(h.ClampedCount(), 0u);
  EXPECT_EQ(h.Max(), 0u);
  h.Record(9);
  EXPECT_EQ(h.Min(), 9u);
  EXPECT_EQ(h.ValueAtPercentile(50), 9u);
}

TEST(LatencyHistogramTest, PercentileCurveIsMonotoneAndEndsAtMax) {
  std::mt19937_64 rng(11);
  std::exponential_distribution<double> latency(1.0 / 10000.0);
  LatencyHistogram h;
  for (int i = 0; i < 100000; ++i) h.Record(static_cast<uint64_t>(latency(rng)));
  const auto curve = h.PercentileCurve(5);
  ASSERT_GT(curve.size(), 20u);
  EXPECT_EQ(curve.front().percentile, 0.0);
  EXPECT_EQ(curve.back().percentile, 100.0);
  EXPECT_EQ(curve.back().value, h.Max());
  EXPECT_EQ(curve.back().count_at_or_below, h.Count());
  for (size_t i = 1; i < curve.size(); ++i) {
    EXPECT_GE(curve[i].percentile, curve[i - 1].percentile);
    EXPECT_GE(curve[i].value, curve[i - 1].value);
    EXPECT_GE(curve[i].count_at_or_below, curve[i - 1].count_at_or_below);
  }
  // Levels 0, 10, 20, 30, 40 (5 ticks per half) before 50, then 55, 60, 65, 70 before 75.
  EXPECT_DOUBLE_EQ(curve[1].percentile, 10.0);
  EXPECT_DOUBLE_EQ(curve[5].percentile, 50.0);
  EXPECT_DOUBLE_EQ(curve[6].percentile, 55.0);
  // Every point reports a level reached by its count, and agrees with ValueAtPercentile.
  for (const auto& p : curve) {
    EXPECT_GE(100.0 * static_cast<double>(p.count_at_or_below) / static_cast<double>(h.Count()), p.percentile - 1e-9);
    if (p.percentile > 0 && p.percentile < 100) {
      EXPECT_EQ(p.value, h.ValueAtPercentile(p.percentile)) << p.percentile;
    }
  }
}

TEST(LatencyHistogramTest, LowerPrecisionUsesLessMemoryAndStaysWithinOnePercent) {
  LatencyHistogram h(2);
  for (uint64_t v = 100; v < 1000000; v = v * 11 / 10) h.Record(v);
  EXPECT_LE(h.HighestEquivalentValue(999999) - h.LowestEquivalentValue(999999), 999999u / 100);
}

}  // namespace
}  // namespace dbxb
