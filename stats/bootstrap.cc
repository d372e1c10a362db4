#include "stats/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "stats/statistics.h"

namespace dbxb {
namespace {

// The interpolated median of a multiset of `n` values that `next_run` yields in ascending order as
// (value, count) runs. Uses the same arithmetic as Quantile() so the results match it bit for bit.
// REQUIRES: n >= 2 (so the upper closest rank exists).
template <typename NextRun>
double MedianOfRuns(NextRun next_run, uint64_t n) {
  const double rank = 0.5 * static_cast<double>(n - 1);
  const double integer = std::floor(rank);
  const double fraction = rank - integer;
  const auto lo = static_cast<uint64_t>(integer);
  uint64_t seen = 0;
  double floor_value = 0;
  bool have_floor = false;
  for (;;) {
    const auto [value, count] = next_run();
    if (!have_floor && seen + count > lo) {
      floor_value = value;
      have_floor = true;
    }
    if (seen + count > lo + 1) return floor_value + (value - floor_value) * fraction;
    seen += count;
  }
}

struct Run {
  double value;
  uint64_t count;
};

// The sums of one resample, kept in registers by living in small functions of their own.
struct WeightedSums {
  double value = 0;
  double xy = 0;
  double xx = 0;
};

WeightedSums SumWeighted(const uint32_t* count, const double* value, const double* xy, const double* xx, uint64_t n) {
  WeightedSums s;
  for (uint64_t p = 0; p < n; ++p) {
    const auto c = static_cast<double>(count[p]);
    s.value += c * value[p];
    s.xy += c * xy[p];
    s.xx += c * xx[p];
  }
  return s;
}

double SumWeightedSquares(const uint32_t* count, const double* value, double mean, uint64_t n) {
  double sum = 0;
  for (uint64_t p = 0; p < n; ++p) sum += static_cast<double>(count[p]) * (value[p] - mean) * (value[p] - mean);
  return sum;
}

// The samples in ascending order of per-iteration time: value[p] is the p-th smallest, xy[p] and xx[p] are
// its sample's terms of the slope, and position_of[i] is where the original sample i went.
struct SortedSamples {
  std::vector<double> value, xy, xx;
  std::vector<uint64_t> position_of;
};

// Sorts `samples` (stably) by per-iteration time, so that a resample is a count per sorted position,
// already in sorted order.
SortedSamples SortByTime(const std::vector<Sample>& samples) {
  const uint64_t n = samples.size();
  const std::vector<double> times = PerIterationTimes(samples);
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), uint64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return times[a] < times[b]; });
  SortedSamples sorted{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n),
                       std::vector<uint64_t>(n)};
  for (uint64_t p = 0; p < n; ++p) {
    const Sample& s = samples[order[p]];
    const auto x = static_cast<double>(s.iterations);
    sorted.value[p] = times[order[p]];
    sorted.xy[p] = x * s.total_ns;
    sorted.xx[p] = x * x;
    sorted.position_of[order[p]] = p;
  }
  return sorted;
}

// Empty distributions with room for `resamples` entries each (the slope's only when `with_slope`).
SampleDistributions ReserveDistributions(uint64_t resamples, bool with_slope) {
  SampleDistributions out;
  out.mean.reserve(resamples);
  out.median.reserve(resamples);
  out.std_dev.reserve(resamples);
  out.median_abs_dev.reserve(resamples);
  if (with_slope) out.slope.reserve(resamples);
  return out;
}

// Draws the next resample of `n` from `rng`: count[p] becomes how often sorted position p was drawn.
void DrawResample(Xoshiro256& rng, const uint64_t* position_of, uint32_t* count, uint64_t n) {
  std::fill(count, count + n, 0);
  for (uint64_t k = 0; k < n; ++k) ++count[position_of[rng.Below(n)]];
}

// The (unscaled) median absolute deviation from `median` of the resample `count` of the sorted values `v`.
double MedianAbsDevOfRuns(const double* v, const uint32_t* count, uint64_t n, double median) {
  // |value - median| falls towards the median and rises after it: merging the two monotone halves
  // walks the deviations in ascending order without sorting them.
  const auto split = static_cast<uint64_t>(std::lower_bound(v, v + n, median) - v);
  uint64_t left = split, right = split;  // next below: left - 1; next above: right
  return MedianOfRuns(
      [&] {
        const bool take_left =
            left > 0 && (right >= n || std::fabs(v[left - 1] - median) <= std::fabs(v[right] - median));
        if (take_left) {
          --left;
          return Run{std::fabs(v[left] - median), count[left]};
        }
        const Run run{std::fabs(v[right] - median), count[right]};
        ++right;
        return run;
      },
      n);
}

}  // namespace

Interval SummarizeDistribution(double point, std::vector<double>* distribution, double confidence_level) {
  Interval interval;
  interval.point = point;
  interval.std_error = StdDev(*distribution);
  if (distribution->size() < 2) interval.std_error = 0;
  // Selection, not a sort: sorting five distributions of 10^5 doubles was a fifth of Analyze().
  interval.lower = QuantileInPlace(distribution, (1.0 - confidence_level) / 2.0);
  interval.upper = QuantileInPlace(distribution, (1.0 + confidence_level) / 2.0);
  return interval;
}

std::vector<double> BootstrapDistribution(const std::vector<double>& values, uint64_t resamples, uint64_t seed,
                                          FunctionRef<double(const std::vector<double>&)> statistic) {
  Xoshiro256 rng(seed);
  const uint64_t n = values.size();
  std::vector<double> resample(n);
  std::vector<double> distribution;
  distribution.reserve(resamples);
  for (uint64_t r = 0; r < resamples; ++r) {
    for (uint64_t k = 0; k < n; ++k) resample[k] = values[rng.Below(n)];
    distribution.push_back(statistic(resample));
  }
  return distribution;
}

Interval Bootstrap(const std::vector<double>& values, FunctionRef<double(const std::vector<double>&)> statistic,
                   const BootstrapOptions& options) {
  std::vector<double> distribution = BootstrapDistribution(values, options.resamples, options.seed, statistic);
  return SummarizeDistribution(statistic(values), &distribution, options.confidence_level);
}

SampleDistributions BootstrapSamples(const std::vector<Sample>& samples, bool with_slope, uint64_t resamples,
                                     uint64_t seed) {
  const uint64_t n = samples.size();
  const SortedSamples sorted = SortByTime(samples);
  SampleDistributions out = ReserveDistributions(resamples, with_slope);
  Xoshiro256 rng(seed);
  std::vector<uint32_t> count_storage(n);  // 32 bits: converts to double in one instruction
  uint32_t* const count = count_storage.data();
  const double* const v = sorted.value.data();
  const auto dn = static_cast<double>(n);
  for (uint64_t r = 0; r < resamples; ++r) {
    DrawResample(rng, sorted.position_of.data(), count, n);

    const WeightedSums sums = SumWeighted(count, v, sorted.xy.data(), sorted.xx.data(), n);
    const double mean = sums.value / dn;
    const double sum_sq = SumWeightedSquares(count, v, mean, n);

    uint64_t next = 0;
    const double median = MedianOfRuns([&] { return Run{v[next], count[next++]}; }, n);
    const double mad = MedianAbsDevOfRuns(v, count, n, median);

    out.mean.push_back(mean);
    out.median.push_back(median);
    out.std_dev.push_back(std::sqrt(sum_sq / (dn - 1)));
    out.median_abs_dev.push_back(mad * kMadNormalScale);
    if (with_slope) out.slope.push_back(sums.xy / sums.xx);
  }
  return out;
}

}  // namespace dbxb
