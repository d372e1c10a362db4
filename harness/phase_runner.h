// The phase runner: runs one Phase (workloads/phase.h) on its threads and measures every operation, as
// workloads/phase.h describes the calls. Warm-up is executed but never recorded; measured time starts
// for all threads together. Closed loop by default; open loop (PhaseSpec::target_rate) also records the
// latency from each operation's intended start (coordinated omission corrected). Phase::Settle
// (PhaseSpec::settle) is timed apart, into PhaseResult::settle_ns. How it times and stops, and what the
// hot loop costs: phase_runner.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/raw_latency_writer.h"
#include "records/interval_recorder.h"
#include "records/latency_histogram.h"
#include "records/result.h"
#include "workloads/phase.h"

namespace dbxb {

/// A clock to replace the real clock in tests. Both functions are called from every worker thread
/// (and now_ns from the barrier's completion), so they must be thread-safe.
struct PhaseTestClock {
  std::function<uint64_t()> now_ns;
  /// Returns at or after `ns` on now_ns's clock (a fake clock simply advances to it).
  std::function<void(uint64_t ns)> sleep_until_ns;
};

struct PhaseRunOptions {
  /// Keep every measured operation for --raw-latencies (32 bytes per operation, in memory).
  bool keep_raw_latencies = false;
  /// Density of the percentile curves in the summaries (HdrHistogram's ticks per half distance).
  int percentile_ticks_per_half_distance = 5;
  /// Length of one point of the time series.
  uint64_t series_interval_ns = 1'000'000'000;
  /// Keep, per operation type, a full-precision histogram (3 digits, as the phase's own) of every
  /// interval of the time series, for HdrHistogram interval logs (--hdr-log). Costs one more histogram
  /// record per operation and about 270 KiB per interval, thread and operation type (twice in open loop).
  bool keep_interval_histograms = false;
  /// Tests only: the clock to read instead of the real one (ProcessTscClock() or CLOCK_MONOTONIC).
  const PhaseTestClock* test_clock = nullptr;
  /// Called once every thread has warmed up, before the measured start is taken (on the thread that
  /// arrived last), e.g. to wait for the other client processes of the run (harness/client_barrier.h).
  /// An interrupt it requests stops the phase before its first measured operation.
  std::function<void()> at_measured_start;
};

/// Whose phase it is: the labels RunPhase copies into its record.
struct PhaseIdentity {
  std::string suite;
  std::string workload;  ///< "" when the suite has a single workload
  std::string dataset;   ///< "" when the suite has no data sets
  std::string engine;
  KeyValues engine_settings;  ///< the adapter's native settings as applied
};

/// Names `r` (a PhaseResult, a CapacityResult) as phase `phase` of `identity`: suite, workload, data set,
/// phase and engine.
template <class Record>
void NamePhase(const PhaseIdentity& identity, const std::string& phase, Record& r) {
  r.suite = identity.suite;
  r.workload = identity.workload;
  r.dataset = identity.dataset;
  r.phase = phase;
  r.engine = identity.engine;
}

/// What a phase run produced.
struct PhaseRun {
  /// The phase's complete record (see RunPhase).
  PhaseResult result;
  /// Per thread, in thread order, when keep_raw_latencies (empty otherwise or when the phase failed
  /// before its threads started).
  std::vector<std::unique_ptr<RawLatencyBuffer>> raw_latencies;
  /// The merged service-time histogram of every measured operation (for callers that want more than
  /// the summary, e.g. the overhead measurement).
  std::unique_ptr<LatencyHistogram> service_time;
  /// When keep_interval_histograms: per operation type (PhaseSpec::op_types order) its histograms interval
  /// by interval, every thread added; the same for the latency from the intended start in open loop (else
  /// empty). Intervals start at the phase's measured start (PhaseResult::start_unix_s on the wall clock).
  std::vector<IntervalRecorder> interval_service;
  std::vector<IntervalRecorder> interval_from_intended;
};

/// Runs `phase` and returns its complete record: `identity`'s labels, the spec's name, parameters and
/// memory_method (its kMemoryMethodParameter), and the measurements, or error_occurred with the first
/// failure ("thread 2: ..."), incomplete when interrupted (then a failing TearDown, whose checks assume a
/// finished phase, is not a failure). Never fails as a whole.
PhaseRun RunPhase(const PhaseIdentity& identity, Phase& phase, const PhaseRunOptions& options = {});

class TscClock;
/// The clock the measured loops read (unless PhaseRunOptions::test_clock): the calibrated TSC when
/// TscClock::Usable() and the environment does not say DBXB_CLOCK=monotonic, else null (and
/// CLOCK_MONOTONIC is read). Calibrated once per process on first call; thread-safe.
const TscClock* ProcessTscClock();
/// Which clock that is and why, for the recorded configuration, e.g. "tsc (2299.998 MHz, ...)".
std::string PhaseClockDescription();

}  // namespace dbxb
