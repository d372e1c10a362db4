// Runs a validated plan through its suite (workloads/suite.h): the harness's side of SuiteRunner,
// which samples or phase-runs each piece of work, reports it as it goes and writes the outputs.
#pragma once

#include <ostream>
#include <string>

#include "common/file_policy.h"
#include "harness/run_plan.h"
#include "records/result.h"

namespace dbxb {

struct RunEnvironment {
  std::string command_line;
  std::ostream* console = nullptr;  ///< progress and summaries
  bool console_is_tty = false;
  /// Decides every file the run writes (common/file_policy.h). REQUIRES: set, outlives the run.
  const FilePolicy* files = nullptr;
  /// One line per step of long work (each capacity step); null = quiet (--quiet).
  std::ostream* progress = nullptr;
};

/// Whether the run may write every output it will write (--out and its files per plan.formats,
/// --raw-latencies, --hdr-log), checked before it starts. InvalidArgument naming the option.
[[nodiscard]] Status CheckRunOutputs(const RunPlan& plan, const FilePolicy& files);

/// Runs the plan's suite and fills *results; a failing benchmark or phase is recorded, not returned.
/// Non-OK only when the run cannot proceed; then, or when interrupted before anything finished,
/// plan.out_dir is left as it was (removed only if this call created it).
[[nodiscard]] Status ExecutePlan(const RunPlan& plan, const RunEnvironment& env, RunResults* results);

/// True when at least one benchmark, or one phase, ran to its end (passed or failed): what an
/// interrupted run has to write.
bool AnythingFinished(const RunResults& results);

/// Writes results.json / results.md / results.gbench.json (per plan.formats) into plan.out_dir,
/// each through `files` (as "--out").
[[nodiscard]] Status WriteOutputs(const RunPlan& plan, const RunResults& results, const FilePolicy& files);

}  // namespace dbxb
