// The phase runner: runs one Phase (workloads/phase.h) on its threads and measures every operation.
//
// What it does, in order: Phase::SetUp; one PhaseWorker per thread (Phase::NewWorker); the threads
// start, each runs its warm-up (unrecorded), then all meet at a barrier whose last arrival reads the
// clock: that reading is the phase's measured start, shared by every thread, its interval time series
// and its raw latencies. Each thread then runs its measured operations and calls Finish; the workers
// are destroyed and Phase::TearDown runs.
//
// Timing. Closed loop (the default): one clock read per operation boundary — the completion of
// operation n is the start of operation n+1 — so the service time of an operation also holds the
// runner's own bookkeeping for it (histogram record, interval record, raw append: a few ns, measured
// by harness/bench/op_path_bench). The clock is the calibrated time-stamp counter where it is invariant
// and the kernel trusts it (harness/tsc_clock.h: a third of clock_gettime's cost on a VM), else
// CLOCK_MONOTONIC; PhaseClockDescription() says which, and the run records it. Open loop (PhaseSpec::target_rate > 0): thread i of T issues its
// operation n at the intended time start + (n + i/T) * T / target_rate (the threads interleave
// evenly), sleeping until then (clock_nanosleep with a 1 ns timer slack, re-checked against the clock) when it is ahead;
// when it is behind it issues at once. Each operation then records its service time (completion -
// actual issue) and its latency from the intended start (completion - intended), which keeps the
// queueing delay a slow operation causes for its successors (coordinated omission corrected).
// Warm-up always runs closed loop.
//
// Stopping. A thread stops after its share of PhaseSpec::operations (OperationsForThread), when its
// last completion passes the duration bound (open loop: also when the next intended start would), when
// another thread failed, or at the first operation boundary after InterruptRequested() (the result is
// then marked incomplete). The first failing status (a worker's NextOp or Finish, a bad op index, an
// invalid spec, SetUp/NewWorker/TearDown) fails the phase: error_occurred with the reason, prefixed
// with the thread ("thread 2: Corruption: ..."). RunPhase itself never fails.
//
// Hot loop cost: no allocation (interval histograms and raw-latency blocks are allocated ahead, except
// one interval histogram per new second of a phase not bounded by duration and one raw block per 64 Ki
// operations), one virtual call (NextOp), one clock read, two relaxed atomic loads (stop flag and
// interrupt), one or two histogram records, one interval record.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/latency_histogram.h"
#include "harness/raw_latency_writer.h"
#include "reports/result.h"
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
  /// Tests only: the clock to read instead of the real one (ProcessTscClock() or CLOCK_MONOTONIC).
  const PhaseTestClock* test_clock = nullptr;
};

/// What a phase run produced.
struct PhaseRun {
  /// Filled except the labels the caller knows: suite, workload, engine, dataset, engine_settings,
  /// memory_method. `phase` is PhaseSpec::name.
  PhaseResult result;
  /// Per thread, in thread order, when keep_raw_latencies (empty otherwise or when the phase failed
  /// before its threads started).
  std::vector<std::unique_ptr<RawLatencyBuffer>> raw_latencies;
  /// The merged service-time histogram of every measured operation (for callers that want more than
  /// the summary, e.g. the overhead measurement).
  std::unique_ptr<LatencyHistogram> service_time;
};

/// Runs `phase` as described above. Never fails as a whole: errors are recorded in the result.
PhaseRun RunPhase(Phase& phase, const PhaseRunOptions& options = {});

class TscClock;
/// The clock the measured loops read (unless PhaseRunOptions::test_clock): the calibrated TSC when
/// TscClock::Usable() and the environment does not say DBXB_CLOCK=monotonic, else null (and
/// CLOCK_MONOTONIC is read). Calibrated once per process on first call; thread-safe.
const TscClock* ProcessTscClock();
/// Which clock that is and why, for the recorded configuration, e.g. "tsc (2299.998 MHz, ...)".
std::string PhaseClockDescription();

/// Count, mean, standard deviation, min, the percentiles of LatencySummary, max and the percentile
/// curve of `h` (all 0 and an empty curve when `h` is empty).
LatencySummary SummarizeLatency(const LatencyHistogram& h, int ticks_per_half_distance = 5);

}  // namespace dbxb
