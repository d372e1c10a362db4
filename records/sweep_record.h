// The records of a sweep (`run --threads 1,2,4`: several complete measurements in one run) and of a
// capacity search (`run --sla p99<=1ms`: the highest rate whose latency meets a target). Plain data,
// read by the writers; records/sweep_json.h maps them to results.json (docs/results-schema.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dbxb {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// The parameter key a sweep adds to every benchmark, phase and capacity record of a point, e.g.
/// "sweep.threads" = "4": the value the point ran with, so that `compare` matches points by value.
inline constexpr char kSweepParameterPrefix[] = "sweep.";

/// One swept option: its name ("threads", "value_size", "durability", ...) and its values in the
/// order given, each normalised ("10k" is "10000", "64MiB" is "67108864").
struct SweepDimension {
  std::string name;
  std::string option;  ///< as typed on the command line: "--threads"
  std::vector<std::string> values;

  friend bool operator==(const SweepDimension&, const SweepDimension&) = default;
};

/// One point of a sweep: one value of each dimension, and how its run ended.
struct SweepPoint {
  KeyValues values;  ///< (dimension name, value), in the dimensions' order
  /// "ok" (every benchmark and phase passed), "failed" (at least one failed: recorded, the sweep went
  /// on), "interrupted", or "not run" (the sweep was interrupted before it).
  std::string status;
  std::string message;  ///< the first failure, or what stopped it; "" when ok
  double seconds = 0;   ///< wall time of the point's run

  friend bool operator==(const SweepPoint&, const SweepPoint&) = default;
};

/// The sweep of a run: its dimensions (one or two) and its points, in run order (the first dimension
/// varies slowest).
struct SweepInfo {
  std::vector<SweepDimension> dimensions;
  std::vector<SweepPoint> points;

  friend bool operator==(const SweepInfo&, const SweepInfo&) = default;
};

/// Latency figures of one capacity step, in ns (0 when the step measured nothing).
struct StepLatency {
  double sla_percentile_ns = 0;  ///< at the SLA's percentile
  double p50_ns = 0;
  double p99_ns = 0;
  double p999_ns = 0;
  double max_ns = 0;

  friend bool operator==(const StepLatency&, const StepLatency&) = default;
};

/// One step of a capacity search: the phase run once, open loop at `target_rate` (closed loop for the
/// probe, target_rate 0).
struct CapacityStep {
  std::string role;  ///< "probe" (closed loop), "ramp", "bisect" or "confirm" (a miss run again)
  double target_rate = 0;
  double achieved_ops_per_sec = 0;
  uint64_t operations = 0;
  double duration_ns = 0;
  uint64_t warmup_operations = 0;
  /// Open loop: operations issued after their intended start (their thread was still busy then).
  uint64_t late_operations = 0;
  /// Open loop: operations the schedule placed inside the step that were never issued (the step ended
  /// with them still queued behind slower ones).
  uint64_t dropped_operations = 0;
  StepLatency service_time;
  StepLatency from_intended;  ///< open loop only
  bool met_sla = false;       ///< the SLA's latency at its percentile within the bound
  bool kept_up = false;       ///< achieved >= keep_up x target
  std::optional<double> settle_ns;
  std::string error;  ///< non-empty when the step failed (the search stops there)

  bool passed() const { return error.empty() && met_sla && kept_up; }
  friend bool operator==(const CapacityStep&, const CapacityStep&) = default;
};

/// The capacity of one engine on one phase: the highest target rate that passed (met the SLA and kept
/// up), bounded above by the lowest rate that failed.
struct CapacityResult {
  std::string suite, workload, dataset, phase, engine;
  KeyValues parameters;  ///< the phase's parameters (and a sweep's "sweep.*" values), but its memory method
  /// How the phase's memory was limited (PhaseResult::memory_method), or "": kept apart from the
  /// parameters because it names per-run figures (bytes still cached), which would set engines apart.
  std::string memory_method;
  uint32_t threads = 0;
  std::string sla;                  ///< as given, e.g. "p99<=1ms"
  double percentile = 0;            ///< 99
  double bound_ns = 0;              ///< 1e6
  std::string latency;              ///< "intended" (from the intended start) or "service"
  double keep_up = 0.95;            ///< achieved / target a step must reach
  double resolution = 0.05;         ///< the search stops when upper / lower <= 1 + resolution
  double capacity_ops_per_sec = 0;  ///< 0 when no rate tried passed
  int lower_step = -1;              ///< index into steps of the passing step that gives the capacity; -1 none
  int upper_step = -1;              ///< index of the lowest failing step above it; -1 none
  std::vector<CapacityStep> steps;  ///< in the order run
  double search_seconds = 0;        ///< wall time of the whole search (settles, warm-ups, steps)
  double measured_seconds = 0;      ///< the steps' measured time alone
  /// The harness's own latency at the SLA's percentile: an empty operation, open loop at kFloorRate on
  /// one thread, measured like the SLA (from the intended start, or service time) just before the search.
  /// A bound below it cannot be met on this machine as it was (a loaded machine wakes threads late).
  double harness_floor_ns = 0;
  std::string note;  ///< how the search ended, in one sentence
  bool error_occurred = false;
  std::string error_message;

  friend bool operator==(const CapacityResult&, const CapacityResult&) = default;
};

}  // namespace dbxb
