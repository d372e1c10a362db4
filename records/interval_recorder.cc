#include "records/interval_recorder.h"

#include <fmt/format.h>

#include <cassert>

namespace dbxb {

IntervalRecorder::IntervalRecorder(uint64_t start_ns, uint64_t interval_ns, int significant_digits)
    : start_ns_(start_ns), interval_ns_(interval_ns), digits_(significant_digits) {
  assert(interval_ns > 0);
}

LatencyHistogram* IntervalRecorder::Slot(size_t i) {
  // Intervals nothing completed in (a stall) get an empty histogram too: the series has no holes.
  while (intervals_.size() <= i) intervals_.push_back(std::make_unique<LatencyHistogram>(digits_));
  return intervals_[i].get();
}

void IntervalRecorder::Reserve(size_t intervals) {
  for (size_t i = 0; i < intervals; ++i) Slot(i);
}

void IntervalRecorder::SelectInterval(uint64_t now_ns) {
  const size_t i = now_ns <= start_ns_ ? 0 : static_cast<size_t>((now_ns - start_ns_) / interval_ns_);
  current_ = Slot(i);
  // Interval 0 also takes everything before the start, so that such completions stay on the fast path.
  current_begin_ns_ = i == 0 ? 0 : start_ns_ + i * interval_ns_;
  current_end_ns_ = start_ns_ + (i + 1) * interval_ns_;
}

Status IntervalRecorder::Merge(const IntervalRecorder& other) {
  if (other.start_ns_ != start_ns_ || other.interval_ns_ != interval_ns_ || other.digits_ != digits_)
    return Status::InvalidArgument(
        fmt::format("cannot merge interval recorders with different geometry (start {} vs {}, interval {} vs "
                    "{} ns, {} vs {} digits)",
                    start_ns_, other.start_ns_, interval_ns_, other.interval_ns_, digits_, other.digits_));
  // Slot() may grow the vector, but the histograms themselves never move, so current_ stays valid.
  for (size_t i = 0; i < other.intervals_.size(); ++i) Slot(i)->Merge(*other.intervals_[i]);
  return Status::Ok();
}

std::vector<IntervalRecorder::Point> IntervalRecorder::Series() const {
  std::vector<Point> out;
  out.reserve(intervals_.size());
  const double seconds = static_cast<double>(interval_ns_) / 1e9;
  for (size_t i = 0; i < intervals_.size(); ++i) {
    Point p;
    p.start_s = static_cast<double>(i) * seconds;
    const LatencyHistogram& h = *intervals_[i];
    p.operations = h.Count();
    p.ops_per_sec = static_cast<double>(h.Count()) / seconds;
    p.p50_ns = h.ValueAtPercentile(50);
    p.p99_ns = h.ValueAtPercentile(99);
    p.max_ns = h.Max();
    out.push_back(p);
  }
  return out;
}

}  // namespace dbxb
