// LatencyHistogram: our implementation of the HdrHistogram algorithm for per-operation latencies.
//
// Values (nanoseconds) land in log-linear buckets: bucket b holds sub-buckets of width 2^b, and each
// bucket spans one power of two, so every recorded value is known to within a relative error of
// 10^-significant_digits (3 digits: at most 1/1024 < 0.1 %). Values below 2^ceil(log2(2*10^digits))
// (2048 for 3 digits) are exact. The trackable range is 0 .. highest_trackable_ns (default one hour);
// larger values are clamped to highest_trackable_ns in the buckets and counted by ClampedCount(),
// while Min() and Max() are always exact.
//
// Record() is the hot path: no allocation and no branch beyond the bucket index (a count of leading
// zeros). A histogram is not thread-safe: give each thread its own and Merge() them after the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace dbxb {

class LatencyHistogram {
 public:
  static constexpr uint64_t kOneHourNs = 3600ull * 1000 * 1000 * 1000;

  /// REQUIRES: 1 <= significant_digits <= 5; highest_trackable_ns >= 2 * 10^significant_digits.
  /// Memory: about (log2(highest / 10^digits) + 2) * 10^digits * 8 bytes (270 KiB for 3 digits, 1 h).
  explicit LatencyHistogram(int significant_digits = 3, uint64_t highest_trackable_ns = kOneHourNs);

  /// Records one value. Values above highest_trackable_ns() are clamped (and counted as clamped).
  void Record(uint64_t ns) {
    const uint64_t v = ns < highest_trackable_ ? ns : highest_trackable_;
    clamped_ += ns > highest_trackable_;
    ++counts_[CountsIndex(v)];
    ++total_count_;
    sum_ += v;
    min_ = ns < min_ ? ns : min_;
    max_ = ns > max_ ? ns : max_;
  }

  /// Adds every value recorded in `other`. With the same configuration this adds the bucket counts, so
  /// the result equals having recorded everything into one histogram; otherwise each of `other`'s
  /// buckets is re-recorded at its lowest equivalent value.
  void Merge(const LatencyHistogram& other);

  /// Records `count` occurrences of `ns` (clamped as Record() does).
  void RecordCount(uint64_t ns, uint64_t count);

  /// Forgets all values; keeps the configuration and the memory.
  void Reset();

  uint64_t Count() const { return total_count_; }
  /// Values that exceeded highest_trackable_ns() (they are included in Count()).
  uint64_t ClampedCount() const { return clamped_; }
  /// Exact smallest and largest recorded values; 0 when empty.
  uint64_t Min() const { return total_count_ == 0 ? 0 : min_; }
  uint64_t Max() const { return max_; }
  /// Exact mean of the recorded values (clamped values count as highest_trackable_ns()); 0 when empty.
  double Mean() const {
    return total_count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(total_count_);
  }
  /// Population standard deviation, computed from the buckets around the exact mean (each value taken
  /// at the middle of its bucket, so it carries the histogram's relative precision); 0 when Count() < 2.
  double StdDev() const;

  /// The value at or below which `percentile` % of the recorded values fall: the highest value
  /// equivalent to (in the same bucket as) the ceil(percentile/100 * Count())-th smallest value, capped
  /// at the exact Max(). ValueAtPercentile(0) is the exact Min(). `percentile` is clamped to [0, 100].
  /// 0 when empty.
  uint64_t ValueAtPercentile(double percentile) const;

  /// Bucket geometry, as HdrHistogram defines it.
  uint64_t LowestEquivalentValue(uint64_t v) const;
  uint64_t HighestEquivalentValue(uint64_t v) const;
  uint64_t SizeOfEquivalentRange(uint64_t v) const;

  int significant_digits() const { return significant_digits_; }
  uint64_t highest_trackable_ns() const { return highest_trackable_; }

  /// The counts array, indexed as HdrHistogram indexes it (lowest discernible value 1, unit magnitude 0:
  /// its V2 encoding serialises exactly these counts). For encoders and decoders (records/hdr_encoding.h).
  size_t CountsLength() const { return counts_.size(); }
  uint64_t CountAtIndex(size_t index) const { return counts_[index]; }
  /// Index of the bucket holding v. REQUIRES: v <= highest_trackable_ns().
  size_t IndexOf(uint64_t v) const { return CountsIndex(v); }
  /// Lowest value of the bucket at `index`. REQUIRES: index < CountsLength().
  uint64_t ValueAtIndex(size_t index) const { return ValueFromIndex(index); }
  /// Adds `count` values to the bucket at `index` without knowing them: Min() and Max() take the bucket's
  /// lowest and highest equivalent values and Mean() its middle (as HdrHistogram does for a decoded
  /// histogram) until SetExactStatistics() says better. REQUIRES: index < CountsLength().
  void AddCountAtIndex(size_t index, uint64_t count);
  /// Replaces the min, max and mean derived from buckets by exact ones known from elsewhere (a results
  /// file). REQUIRES: Count() > 0, and the values lie in the recorded range's buckets.
  void SetExactStatistics(uint64_t min, uint64_t max, double mean);

  /// One point of the percentile curve.
  struct PercentilePoint {
    double percentile = 0;  ///< the percentile level this point reports
    uint64_t value = 0;     ///< highest equivalent value of the bucket reaching that level
    uint64_t count_at_or_below = 0;
  };

  /// Walks the recorded distribution at percentile levels that get denser towards 100 % (HdrHistogram's
  /// percentile iteration): `ticks_per_half_distance` steps between 0 and 50 %, as many between 50 and
  /// 75 %, and so on, ending with one point at 100 %. Feeds the percentile-curve charts.
  /// The histogram must outlive the iterator and stay unchanged while it is used.
  class PercentileIterator {
   public:
    /// REQUIRES: ticks_per_half_distance >= 1.
    PercentileIterator(const LatencyHistogram& h, int ticks_per_half_distance);
    /// Fills `*point` with the next point; false when the walk is over (at once for an empty histogram).
    bool Next(PercentilePoint* point);

   private:
    bool Step();  // advances to the next bucket index; false past the end
    const LatencyHistogram& h_;
    int ticks_;
    int64_t index_ = -1;
    uint64_t count_to_index_ = 0;
    double percentile_to_iterate_to_ = 0;
    bool seen_last_ = false;
  };

  /// All points of the percentile walk, in order.
  std::vector<PercentilePoint> PercentileCurve(int ticks_per_half_distance = 5) const;

 private:
  // Bucket index of v: which power-of-two range (above the first sub_bucket_count values) holds v.
  int BucketIndex(uint64_t v) const {
    return 63 - __builtin_clzll(v | sub_bucket_mask_) - sub_bucket_half_count_magnitude_;
  }
  size_t CountsIndex(uint64_t v) const {
    const int bucket = BucketIndex(v);
    const uint64_t sub_bucket = v >> bucket;
    return (static_cast<size_t>(bucket + 1) << sub_bucket_half_count_magnitude_) + sub_bucket - sub_bucket_half_count_;
  }
  uint64_t ValueFromIndex(size_t index) const;
  bool SameLayout(const LatencyHistogram& other) const {
    return significant_digits_ == other.significant_digits_ && highest_trackable_ == other.highest_trackable_;
  }

  int significant_digits_;
  uint64_t highest_trackable_;
  int sub_bucket_half_count_magnitude_;  // log2(sub_bucket_count) - 1
  uint64_t sub_bucket_half_count_;
  uint64_t sub_bucket_mask_;  // sub_bucket_count - 1
  std::vector<uint64_t> counts_;

  uint64_t total_count_ = 0;
  uint64_t clamped_ = 0;
  unsigned __int128 sum_ = 0;  // of clamped values; 64 bits would overflow after 5 million hours
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

}  // namespace dbxb
