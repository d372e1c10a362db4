// Runs a validated plan through its suite (workloads/suite.h): the harness's side of SuiteRunner,
// which samples or phase-runs each piece of work, reports it as it goes and writes the outputs.
#pragma once

#include <ostream>
#include <string>

#include "harness/run_plan.h"
#include "records/result.h"

namespace dbxb {

struct RunEnvironment {
  std::string command_line;
  std::ostream* console = nullptr;  ///< progress and summaries
  bool console_is_tty = false;
};

/// Runs the plan's suite and fills *results; a failing benchmark or phase is recorded, not returned.
/// Non-OK only when the run cannot proceed; then, or when interrupted before anything finished,
/// plan.out_dir is left as it was (removed only if this call created it).
[[nodiscard]] Status ExecutePlan(const RunPlan& plan, const RunEnvironment& env, RunResults* results);

/// True when at least one benchmark, or one phase, ran to its end (passed or failed): what an
/// interrupted run has to write.
bool AnythingFinished(const RunResults& results);

/// Writes results.json / results.md / results.gbench.json (per plan.formats) into plan.out_dir,
/// each atomically.
[[nodiscard]] Status WriteOutputs(const RunPlan& plan, const RunResults& results);

}  // namespace dbxb
