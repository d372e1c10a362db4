// Capacity at a latency target (`run --sla p99<=1ms`): for one engine and one phase, the highest open-loop
// rate whose latency meets the target and whose achieved throughput keeps up with it.
//
// The search, step by step (each step is the phase run once by the phase runner, from its set-up, with
// its warm-up; the tool's settle, when the phase settles, comes before the probe only: the steps are one
// sustained load, so the background work the writes of one step leave is part of the next, and a data
// set the probe brought into memory stays there):
//   probe    the phase closed loop for min_step_seconds: its throughput X is what the engine can do at
//            all on these threads, and where the ramp starts from.
//   ramp     open loop at X × start_fraction, doubling while steps pass; when the first fails, halving
//            while steps fail (down to X × floor_fraction, and never below the lowest rate a step of
//            max_step_seconds can still judge: min_tail_operations beyond the percentile; below that,
//            no rate meets the SLA).
//   bisect   between the highest passing rate L and the lowest failing rate U, at their geometric mean,
//            until U / L <= 1 + resolution.
//   confirm  a miss that would bound the search from above (the first open-loop step's, and every miss
//            once a rate has passed) is run again at the same rate: the rate fails only if it misses
//            twice. One stall of the machine in one step (a page-cache flush, another process) would
//            otherwise cap the search for good: on the quiet 2-core VM, a first step that missed once
//            (p99 1.29 ms, then 21 µs at half the rate) held LMDB's cached select-pk to 249,000 ops/s in
//            a run whose repeat reached 1,130,000. Misses while ramping down are not repeated: the first
//            one was confirmed, and those below it are long steps at low rates.
// A step passes when the SLA's latency (from the intended start by default, or the service time) at its
// percentile is within the bound, and achieved >= keep_up × target. The capacity is L, bounded by U.
//
// Step length: a step must hold tail_operations operations beyond the SLA's percentile (100 by default:
// 10,000 operations for p99, 100,000 for p99.9), so that the percentile comes from 100 values above it,
// not from a handful; and at least min_step_seconds (2 s: time for an open-loop queue to show); at most
// max_step_seconds (a slow rate that cannot gather the tail in that time says so in the result's note).
// With 10,000 operations the observed p99 lies between the true p98.8 and p99.2 about 95 % of the time
// (binomial: ±2·sqrt(n·q·(1−q)) ranks).
//
// Deterministic: every step re-runs the phase with the run's seed (the same keys in the same order);
// the rates depend only on the probe's measurement and the outcomes.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "harness/phase_runner.h"
#include "records/result.h"
#include "workloads/phase.h"

namespace dbxb {

/// A latency target: the `percentile` of a phase's latency at most `bound_ns`.
struct Sla {
  double percentile = 99;
  double bound_ns = 1e6;
  bool service_time = false;  ///< false: latency from the intended start (coordinated omission corrected)
  std::string text;           ///< as given, e.g. "p99<=1ms"
};

/// The rate of the harness-floor measurement that opens every search: an empty operation, open loop on
/// one thread, measured like the SLA. What it gives is the most any engine could meet here.
inline constexpr double kHarnessFloorRate = 10'000;

/// How a capacity search runs.
struct CapacityPlan {
  Sla sla;
  double keep_up = 0.95;           ///< achieved / target a step must reach
  double resolution = 0.05;        ///< bisect until upper / lower <= 1 + resolution
  double min_step_seconds = 2;     ///< every step (and the probe) at least this long
  double max_step_seconds = 60;    ///< no step longer
  uint64_t tail_operations = 100;  ///< operations a step must hold beyond the SLA's percentile
  /// The fewest operations beyond the percentile a step may hold at all: no rate is tried so low that a
  /// step of max_step_seconds holds fewer (for p99 in 60 s: 16.7 ops/s). Steps between this and
  /// tail_operations are run and said to be short in the note.
  uint64_t min_tail_operations = 10;
  double start_fraction = 1.0 / 8;     ///< the ramp starts at probe throughput × this
  double floor_fraction = 1.0 / 1024;  ///< the ramp down gives up below probe throughput × this
  double ceiling_factor = 4;           ///< the ramp up gives up above probe throughput × this
  uint32_t max_steps = 30;             ///< open-loop steps, at most
};

/// The most operations a step may need for its percentile: tail_operations / (1 − percentile / 100).
double OperationsForPercentile(const CapacityPlan& plan);

/// How long the step at `rate` runs: the operations OperationsForPercentile needs at that rate, at least
/// min_step_seconds, at most max_step_seconds.
double StepSeconds(const CapacityPlan& plan, double rate);

/// The lowest rate a search tries: a step of max_step_seconds at it holds min_tail_operations beyond the
/// percentile.
double MinimumRate(const CapacityPlan& plan);

/// Operations the open-loop schedule places in the first `seconds` of a phase on `threads` threads at
/// `rate` (thread i of T issues operation n at (n + i/T) × T / rate).
uint64_t ScheduledOperations(double rate, uint32_t threads, double seconds);

/// The sequence of rates of a search, fed one outcome at a time (no clock, no engine: the caller runs
/// the steps). Not thread-safe.
class CapacitySearch {
 public:
  /// `probe_ops_per_sec`: the closed-loop throughput. REQUIRES: > 0.
  CapacitySearch(const CapacityPlan& plan, double probe_ops_per_sec);

  /// The rate of the next step, or nullopt when the search is done.
  std::optional<double> next_rate() const { return done_ ? std::nullopt : std::optional<double>(next_); }
  /// "confirm", "bisect" or "ramp": the role of the next step.
  const char* next_role() const { return confirming_ ? "confirm" : bisecting() ? "bisect" : "ramp"; }
  /// Records whether the step at next_rate() passed, and chooses the next rate.
  void Record(bool passed);

  /// The highest passing rate (0: none yet) and the lowest failing rate above it (0: none yet), with the
  /// index (in Record order) of their steps, -1 when none.
  double lower() const { return lower_; }
  double upper() const { return upper_; }
  int lower_step() const { return lower_step_; }
  int upper_step() const { return upper_step_; }
  /// How the search ended (or stands), in one sentence.
  const std::string& conclusion() const { return conclusion_; }

 private:
  bool bisecting() const { return lower_ > 0 && upper_ > 0; }
  void Finish(std::string conclusion);
  void FinishIfOutOfSteps();

  CapacityPlan plan_;
  double probe_;
  double min_rate_;  // MinimumRate(plan_)
  double next_ = 0;
  double lower_ = 0, upper_ = 0;
  int lower_step_ = -1, upper_step_ = -1;
  int steps_ = 0;
  bool done_ = false;
  bool confirming_ = false;  // the next step repeats a rate that missed once
  std::string conclusion_;
};

/// Where a search reports each step, one line each (null: nowhere).
struct CapacityProgress {
  std::ostream* out = nullptr;
};

/// The harness's own latency at the SLA's percentile (CapacityResult::harness_floor_ns): an operation that
/// does nothing, open loop at kHarnessFloorRate on one thread for a step's length. 0 when it failed.
double MeasureHarnessFloor(const CapacityPlan& plan, const PhaseRunOptions& options = {});

/// Runs the search on `phase` (REQUIRES: phase.spec().repeatable) as `identity` and returns its record:
/// the harness floor, every step with its figures, the capacity and the steps that bound it, and the
/// search's cost. When the harness floor is above the SLA's bound, only the probe runs (no open-loop step
/// could pass) and the note says so. A step
/// that fails (engine error, wrong answer) ends the search with error_occurred; an interrupt ends it
/// with what was measured. `options.test_clock` replaces the clock in tests.
CapacityResult RunCapacitySearch(const PhaseIdentity& identity, Phase& phase, const CapacityPlan& plan,
                                 const PhaseRunOptions& options = {}, CapacityProgress progress = {});

/// The one line a finished search prints, e.g. "sqlite-vps/cached/select-pk/dbx: capacity at
/// p99<=1ms: 47,000 ops/s (47,000 passed, 49,300 failed; 12 steps, 38.2 s)".
std::string CapacitySummaryLine(const CapacityResult& result);

}  // namespace dbxb
