// `dbx-bench run`: runs a suite on some engines and writes the results (see README).
//
// Exit codes: 0 every benchmark passed; 1 a benchmark failed; 2 bad input; 130 interrupted.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"
#include "cli/run_options.h"
#include "cli/sweep_options.h"
#include "workloads/suite.h"

namespace CLI {
class App;
}

namespace dbxb {

struct RunCommandArgs {
  RunArgs run;
  std::string save_baseline;  ///< --save-baseline NAME; empty = none
  bool force = false;         ///< --force: replace output files dbx-bench did not write
  /// The arguments after "run", as given: what --clients makes each client's command line from.
  std::vector<std::string> arguments;
  CapacityArgs capacity;  ///< --sla, --sla-latency, --sla-step
  bool quiet = false;     ///< --quiet: no progress lines on stderr (sweep points, capacity steps)
  /// The command line after the program's name, as given: `--measure instructions` runs it again
  /// under callgrind (harness/instructions.h).
  std::vector<std::string> argv;
};

/// `run` with the options of every run, then each suite's own (each name once, in registration order).
CLI::App* AddRunCommand(CLI::App* app, const SuiteRegistry& suites, RunCommandArgs* args);

/// Validates, runs (a sweep: every point; cli/sweep_options.h) and writes the outputs; progress and tables
/// go to `console`, warnings and the progress lines of sweeps and capacity searches to `err`.
CommandResult RunRun(const RunCommandArgs& args, const std::string& command_line, std::ostream& console,
                     std::ostream& err);

}  // namespace dbxb
