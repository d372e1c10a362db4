// `dbx-bench run`: runs a suite on some engines and writes the results (see README).
//
// Exit codes: 0 every benchmark passed; 1 a benchmark failed; 2 bad input; 130 interrupted.
#pragma once

#include <ostream>
#include <string>

#include "cli/command_result.h"
#include "cli/run_options.h"
#include "workloads/suite.h"

namespace CLI {
class App;
}

namespace dbxb {

struct RunCommandArgs {
  RunArgs run;
  std::string save_baseline;  ///< --save-baseline NAME; empty = none
};

/// `run` with the options of every run, then each suite's own (each name once, in registration order).
CLI::App* AddRunCommand(CLI::App* app, const SuiteRegistry& suites, RunCommandArgs* args);

/// Validates, runs and writes the outputs; progress and tables go to `console`, warnings to `err`.
CommandResult RunRun(const RunCommandArgs& args, const std::string& command_line, std::ostream& console,
                     std::ostream& err);

}  // namespace dbxb
