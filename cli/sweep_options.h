// The options of `run` that turn one measurement into several: a sweep (`--threads 1,2,4`: a list in a
// sweepable option makes one complete run per value) and a capacity search (`--sla p99<=1ms`: the highest
// rate that meets a latency target, harness/capacity.h). Parsing and validation only; the harness runs
// them (harness/sweep.h, harness/capacity.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/run_options.h"
#include "harness/capacity.h"
#include "harness/run_plan.h"
#include "records/sweep_record.h"

namespace dbxb {

/// At most this many options swept at once, values per option, and points in all.
inline constexpr size_t kMaxSweepDimensions = 2;
inline constexpr size_t kMaxSweepValues = 16;
inline constexpr size_t kMaxSweepPoints = 64;

/// The options a sweep may vary, as typed ("threads", "durability", ...; see SweepableOptions).
const std::vector<std::string>& SweepableOptions();

/// A sweep as requested: its dimensions (values normalised) and, per point, the run's arguments with one
/// value in each swept option, in run order (the first dimension varies slowest). No sweep: both empty.
struct SweepRequest {
  std::vector<SweepDimension> dimensions;
  std::vector<KeyValues> point_values;  ///< (dimension name, value) per point
  std::vector<RunArgs> point_args;
};

/// Finds the lists among the sweepable options of `args` and makes one RunArgs per point: each value
/// checked as its option checks it, none twice, at most kMaxSweepValues per option, kMaxSweepDimensions
/// options and kMaxSweepPoints points. --hdr-log and --raw-latencies get a per-point name (a sub-directory
/// and a file suffix, e.g. "threads-4"). InvalidArgument "--option: problem" otherwise.
[[nodiscard]] Status PlanSweep(const RunArgs& args, SweepRequest* out);

/// The options of a capacity search, as typed.
struct CapacityArgs {
  std::string sla;          ///< --sla "p99<=1ms"; empty = no search
  std::string sla_latency;  ///< --sla-latency intended|service; empty = intended
  std::string sla_step;     ///< --sla-step T: the shortest step; empty = 2 s (--quick: 1 s)
};

/// "p99<=1ms", "p99.9<=500us": a percentile in (0, 99.99] and a bound of at least 1 µs.
/// InvalidArgument "--sla: ..." naming the problem.
[[nodiscard]] Status ParseSla(std::string_view text, Sla* out);

/// With --sla: checks that the plan's suite measures phases and that no option sets what the search
/// sets (the rate and length of each step, raw latencies and interval logs), and sets plan->capacity and
/// its configuration entries. Without --sla, refuses --sla-latency and --sla-step. `args` is the run's.
[[nodiscard]] Status ApplyCapacityArgs(const CapacityArgs& capacity, const RunArgs& args, RunPlan* plan);

}  // namespace dbxb
