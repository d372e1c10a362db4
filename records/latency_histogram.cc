#include "records/latency_histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dbxb {
namespace {

uint64_t Pow10(int digits) {
  uint64_t p = 1;
  for (int i = 0; i < digits; ++i) p *= 10;
  return p;
}

}  // namespace

LatencyHistogram::LatencyHistogram(int significant_digits, uint64_t highest_trackable_ns)
    : significant_digits_(significant_digits), highest_trackable_(highest_trackable_ns) {
  assert(significant_digits >= 1 && significant_digits <= 5);
  assert(highest_trackable_ns >= 2 * Pow10(significant_digits));
  // Enough sub-buckets that one sub-bucket is at most 10^-digits of the smallest value in its bucket:
  // the second half of each bucket starts at sub_bucket_count / 2 >= 10^digits.
  const uint64_t largest_single_unit = 2 * Pow10(significant_digits);
  int sub_bucket_count_magnitude = 0;
  while ((uint64_t{1} << sub_bucket_count_magnitude) < largest_single_unit) ++sub_bucket_count_magnitude;
  sub_bucket_half_count_magnitude_ = sub_bucket_count_magnitude - 1;
  const uint64_t sub_bucket_count = uint64_t{1} << sub_bucket_count_magnitude;
  sub_bucket_half_count_ = sub_bucket_count / 2;
  sub_bucket_mask_ = sub_bucket_count - 1;

  // Bucket 0 covers [0, sub_bucket_count); each further bucket doubles the covered range.
  uint64_t smallest_untrackable = sub_bucket_count;
  size_t buckets = 1;
  while (smallest_untrackable <= highest_trackable_) {
    if (smallest_untrackable > (std::numeric_limits<uint64_t>::max() >> 1)) {
      ++buckets;
      break;
    }
    smallest_untrackable <<= 1;
    ++buckets;
  }
  // Bucket 0 uses all sub_bucket_count slots, the others only their upper half (the lower half of
  // bucket b is covered by bucket b-1 at finer resolution), hence (buckets + 1) half-counts.
  counts_.assign((buckets + 1) * sub_bucket_half_count_, 0);
  assert(CountsIndex(highest_trackable_) < counts_.size());
}

uint64_t LatencyHistogram::ValueFromIndex(size_t index) const {
  int64_t bucket = static_cast<int64_t>(index >> sub_bucket_half_count_magnitude_) - 1;
  uint64_t sub_bucket = (index & (sub_bucket_half_count_ - 1)) + sub_bucket_half_count_;
  if (bucket < 0) {
    sub_bucket -= sub_bucket_half_count_;
    bucket = 0;
  }
  return sub_bucket << bucket;
}

uint64_t LatencyHistogram::LowestEquivalentValue(uint64_t v) const {
  const int bucket = BucketIndex(v);
  return (v >> bucket) << bucket;
}

uint64_t LatencyHistogram::SizeOfEquivalentRange(uint64_t v) const {
  const int bucket = BucketIndex(v);
  return uint64_t{1} << bucket;
}

uint64_t LatencyHistogram::HighestEquivalentValue(uint64_t v) const {
  return LowestEquivalentValue(v) + SizeOfEquivalentRange(v) - 1;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.total_count_ == 0) return;
  if (SameLayout(other)) {
    for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += other.counts_[i];
    total_count_ += other.total_count_;
    sum_ += other.sum_;
  } else {
    for (size_t i = 0; i < other.counts_.size(); ++i) {
      const uint64_t n = other.counts_[i];
      if (n == 0) continue;
      const uint64_t v = std::min(other.ValueFromIndex(i), highest_trackable_);
      counts_[CountsIndex(v)] += n;
      total_count_ += n;
      sum_ += static_cast<unsigned __int128>(v) * n;
    }
  }
  clamped_ += other.clamped_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void LatencyHistogram::RecordCount(uint64_t ns, uint64_t count) {
  if (count == 0) return;
  const uint64_t v = ns < highest_trackable_ ? ns : highest_trackable_;
  if (ns > highest_trackable_) clamped_ += count;
  counts_[CountsIndex(v)] += count;
  total_count_ += count;
  sum_ += static_cast<unsigned __int128>(v) * count;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
}

void LatencyHistogram::AddCountAtIndex(size_t index, uint64_t count) {
  if (count == 0) return;
  const uint64_t lowest = ValueFromIndex(index);
  counts_[index] += count;
  total_count_ += count;
  // The bucket's middle, as HdrHistogram's mean takes it (its median equivalent value).
  sum_ += static_cast<unsigned __int128>(lowest + (SizeOfEquivalentRange(lowest) >> 1)) * count;
  min_ = std::min(min_, lowest);
  max_ = std::max(max_, HighestEquivalentValue(lowest));
}

void LatencyHistogram::SetExactStatistics(uint64_t min, uint64_t max, double mean) {
  min_ = min;
  max_ = max;
  const long double sum = static_cast<long double>(mean) * static_cast<long double>(total_count_);
  sum_ = sum > 0 ? static_cast<unsigned __int128>(sum + 0.5L) : 0;
}

void LatencyHistogram::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_count_ = 0;
  clamped_ = 0;
  sum_ = 0;
  min_ = std::numeric_limits<uint64_t>::max();
  max_ = 0;
}

double LatencyHistogram::StdDev() const {
  if (total_count_ < 2) return 0.0;
  const double mean = Mean();
  double acc = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    const uint64_t lo = ValueFromIndex(i);
    const double mid = static_cast<double>(lo + (SizeOfEquivalentRange(lo) >> 1));
    const double dev = mid - mean;
    acc += dev * dev * static_cast<double>(counts_[i]);
  }
  return std::sqrt(acc / static_cast<double>(total_count_));
}

uint64_t LatencyHistogram::ValueAtPercentile(double percentile) const {
  if (total_count_ == 0) return 0;
  if (!(percentile > 0)) return min_;  // also NaN
  percentile = std::min(percentile, 100.0);
  // The rank of the value: ceil(p/100 * n), but a product that is an integer up to rounding noise
  // (e.g. 0.7 * 10) must not be pushed to the next rank.
  const double n = static_cast<double>(total_count_);
  const double exact = percentile / 100.0 * n;
  const double nearest = std::round(exact);
  double rank = std::fabs(exact - nearest) <= 1e-9 * std::max(1.0, exact) ? nearest : std::ceil(exact);
  rank = std::clamp(rank, 1.0, n);
  const uint64_t target = static_cast<uint64_t>(rank);
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= target) return std::min(HighestEquivalentValue(ValueFromIndex(i)), max_);
  }
  return max_;  // unreachable: the counts add up to total_count_
}

LatencyHistogram::PercentileIterator::PercentileIterator(const LatencyHistogram& h, int ticks_per_half_distance)
    : h_(h), ticks_(std::max(1, ticks_per_half_distance)) {}

bool LatencyHistogram::PercentileIterator::Step() {
  if (index_ + 1 >= static_cast<int64_t>(h_.counts_.size())) return false;
  ++index_;
  count_to_index_ += h_.counts_[index_];
  return true;
}

bool LatencyHistogram::PercentileIterator::Next(PercentilePoint* point) {
  const uint64_t total = h_.total_count_;
  if (total == 0) return false;
  if (count_to_index_ >= total) {
    // Every value has been passed: one closing point at exactly 100 %.
    if (seen_last_) return false;
    seen_last_ = true;
    *point = {100.0, h_.ValueAtPercentile(100.0), total};
    return true;
  }
  if (index_ == -1 && !Step()) return false;
  do {
    const double current = 100.0 * static_cast<double>(count_to_index_) / static_cast<double>(total);
    if (h_.counts_[index_] != 0 && percentile_to_iterate_to_ <= current) {
      const uint64_t value = std::min(h_.HighestEquivalentValue(h_.ValueFromIndex(index_)), h_.max_);
      *point = {percentile_to_iterate_to_, value, count_to_index_};
      // Halve the remaining distance to 100 % every ticks_ steps: the step is 100 / (ticks * 2^k) with
      // 2^k the power of two just above 100 / (100 - level).
      const double remaining = 100.0 - percentile_to_iterate_to_;
      const int64_t halvings =
          remaining > 0 ? std::min<int64_t>(62, static_cast<int64_t>(std::log2(100.0 / remaining)) + 1) : 62;
      const double ticks = static_cast<double>(ticks_) * static_cast<double>(int64_t{1} << halvings);
      percentile_to_iterate_to_ += 100.0 / ticks;
      return true;
    }
  } while (Step());
  return false;
}

std::vector<LatencyHistogram::PercentilePoint> LatencyHistogram::PercentileCurve(int ticks_per_half_distance) const {
  std::vector<PercentilePoint> out;
  PercentileIterator it(*this, ticks_per_half_distance);
  PercentilePoint p;
  while (it.Next(&p)) out.push_back(p);
  return out;
}

}  // namespace dbxb
