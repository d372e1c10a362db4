// The phase runner's internals (harness/phase_runner.cc): what the threads of a phase share, what each
// thread measured, and the summary of those measurements into the phase's record (phase_summary.cc).
// Only the phase runner includes this header.
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "common/status.h"
#include "harness/phase_runner.h"
#include "harness/raw_latency_writer.h"
#include "harness/resources.h"
#include "records/interval_recorder.h"
#include "records/latency_histogram.h"
#include "workloads/phase.h"
#include "workloads/write_tally.h"

namespace dbxb::phase_internal {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// What every thread of a phase shares. Written before the threads start or by the barrier's
// completion (which happens-before every thread's release), except the atomics and the error.
struct Shared {
  const PhaseSpec* spec = nullptr;
  uint32_t op_types = 0;
  bool keep_raw = false;
  bool keep_intervals = false;
  uint64_t series_interval_ns = 0;
  uint64_t start_ns = 0;
  double start_unix_s = 0;  // the same instant on the wall clock (for logs and merges across hosts)
  uint64_t deadline_ns = kNever;
  double period_ns = 0;  // open loop: time between two operations of one thread
  // Resources of the measured part: read by the barrier's completion, before the start clock, and
  // again after the threads joined.
  ResourceMeter meter;
  const std::vector<std::unique_ptr<PhaseWorker>>* workers = nullptr;
  WriteTally written_at_start;

  alignas(64) std::atomic<bool> stop{false};
  std::atomic<bool> interrupted{false};

  std::mutex mu;
  Status error;  // the first failure, with its thread
  void Fail(uint32_t thread, const Status& st) {
    std::lock_guard<std::mutex> lock(mu);
    if (error.ok()) error = st.WithContext(fmt::format("thread {}", thread));
    stop.store(true, std::memory_order_relaxed);
  }
};

// One thread's measurements, allocated by that thread (first-touch memory on its node).
struct alignas(64) ThreadState {
  std::vector<LatencyHistogram> service;
  std::vector<LatencyHistogram> from_intended;  // open loop only
  std::unique_ptr<IntervalRecorder> series;
  std::vector<IntervalRecorder> interval_service;        // per op type, when Shared::keep_intervals
  std::vector<IntervalRecorder> interval_from_intended;  // the same, open loop
  std::unique_ptr<RawLatencyBuffer> raw;
  uint64_t warmup_ops = 0;
  uint64_t ops = 0;
  uint64_t late = 0;  // open loop: operations issued after their intended start
  uint64_t last_end_ns = 0;
  bool started = false;  // reached the measured loop
};

/// Fills `run` from the joined threads' measurements: counts, duration and rates, the latency
/// summaries overall and per operation type, the time series, and (when `options` asks) the interval
/// histograms and the raw latencies, which it moves out of `states`. Requires the threads joined.
void Summarize(const PhaseSpec& spec, const Shared& sh, std::vector<std::unique_ptr<ThreadState>>& states,
               const PhaseRunOptions& options, PhaseRun* run);

}  // namespace dbxb::phase_internal
