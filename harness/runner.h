// Runs a validated plan: every workload on every engine, sampled and analysed, reported as it goes,
// and written to the output directory at the end.
#pragma once

#include <ostream>
#include <string>

#include "harness/run_options.h"
#include "reports/result.h"

namespace dbxb {

struct RunEnvironment {
  std::string command_line;
  std::ostream* console = nullptr;  ///< progress and summaries
  bool console_is_tty = false;
};

/// Executes the plan and fills *results. A benchmark that fails (wrong answer, engine error) is
/// recorded with error_occurred and does not stop the others. Returns non-OK only when the run as a
/// whole cannot proceed (e.g. the data directory cannot be created).
///
/// Creates plan.out_dir if needed. It is removed again (only if this call created it, and only while
/// empty) when the call fails, or when the run was interrupted before anything finished
/// (!AnythingFinished): then there is nothing to write, and the caller must write nothing.
[[nodiscard]] Status ExecutePlan(const RunPlan& plan, const RunEnvironment& env, RunResults* results);

/// True when at least one benchmark, or one phase, ran to its end (passed or failed): what an
/// interrupted run has to write.
bool AnythingFinished(const RunResults& results);

/// Writes results.json / results.md / results.gbench.json (per plan.formats) into plan.out_dir,
/// each atomically.
[[nodiscard]] Status WriteOutputs(const RunPlan& plan, const RunResults& results);

}  // namespace dbxb
