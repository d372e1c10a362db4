// IntervalRecorder: a latency time series, one small LatencyHistogram per elapsed interval (one second
// by default), for throughput-over-time and p99-over-time charts.
//
// Each worker thread owns one recorder; all recorders of a run share the same start time, so that
// interval i means the same wall-clock second everywhere and Merge() can add them interval by interval.
// Record() takes the completion time of the operation (the same clock read that ended its latency
// measurement), so the time series costs no extra clock read. The interval histograms use 2 significant
// digits (1 % precision, about 36 KiB per interval); Reserve() allocates them ahead of the run so that
// Record() never allocates; without it, the first record of each new interval allocates once.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/status.h"
#include "records/latency_histogram.h"

namespace dbxb {

class IntervalRecorder {
 public:
  static constexpr uint64_t kOneSecondNs = 1000ull * 1000 * 1000;
  static constexpr int kDefaultDigits = 2;

  /// `start_ns` is the run's start on the clock whose readings Record() gets.
  /// REQUIRES: interval_ns > 0.
  explicit IntervalRecorder(uint64_t start_ns, uint64_t interval_ns = kOneSecondNs,
                            int significant_digits = kDefaultDigits);

  /// Allocates the histograms of the first `intervals` intervals (e.g. the planned duration + 1).
  void Reserve(size_t intervals);

  /// Records an operation that completed at `now_ns` and took `latency_ns`. A completion before the
  /// start is counted in interval 0.
  void Record(uint64_t now_ns, uint64_t latency_ns) {
    if (now_ns >= current_end_ns_ || now_ns < current_begin_ns_) SelectInterval(now_ns);
    current_->Record(latency_ns);
  }

  /// Adds `other`'s intervals to this one's. InvalidArgument when the start, interval length or
  /// precision differ (the intervals would not line up).
  [[nodiscard]] Status Merge(const IntervalRecorder& other);

  uint64_t start_ns() const { return start_ns_; }
  uint64_t interval_ns() const { return interval_ns_; }
  /// Intervals up to and including the last one that holds a value or was reserved; an interval in
  /// which nothing completed (a stall, or reserved but not reached) is present with an empty histogram.
  size_t IntervalCount() const { return intervals_.size(); }
  /// The values of interval i.
  /// REQUIRES: i < IntervalCount().
  const LatencyHistogram& Interval(size_t i) const { return *intervals_[i]; }

  /// What the time-series charts plot, per interval.
  struct Point {
    double start_s = 0;       ///< interval start, seconds since start_ns()
    uint64_t operations = 0;  ///< operations completed in the interval
    double ops_per_sec = 0;   ///< operations / interval length
    uint64_t p50_ns = 0;
    uint64_t p99_ns = 0;
    uint64_t max_ns = 0;
  };
  /// One point per interval, in time order. The last interval may be partial: its ops_per_sec still
  /// divides by the full interval length, so callers that know the run's end should drop or rescale it.
  std::vector<Point> Series() const;

 private:
  void SelectInterval(uint64_t now_ns);  // the slow path: switch (and maybe allocate) the interval
  LatencyHistogram* Slot(size_t i);

  uint64_t start_ns_;
  uint64_t interval_ns_;
  int digits_;
  std::vector<std::unique_ptr<LatencyHistogram>> intervals_;
  LatencyHistogram* current_ = nullptr;
  uint64_t current_begin_ns_ = 1;  // empty range [1, 0): the first Record() selects its interval
  uint64_t current_end_ns_ = 0;
};

}  // namespace dbxb
