// `dbx-bench report RESULTS... -o DIR`: the publishable Markdown report with SVG charts
// (writers/report_writer.h), written into DIR.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"

namespace CLI {
class App;
}

namespace dbxb {

struct ReportArgs {
  std::vector<std::string> inputs;  ///< results.json files or directories holding one, in report order
  std::string out_dir;              ///< -o DIR
  std::string baseline_engine;      ///< --baseline ENGINE; empty = the first engine of each run
};

/// Registers the `report` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddReportCommand(CLI::App* app, ReportArgs* args);

/// Reads every input, renders the report and writes README.md and the SVG charts into args.out_dir
/// (created if missing), each file atomically; prints what it wrote to `console`. Exit 2 for no
/// inputs, an unreadable, corrupt or incompatible input, an out_dir that exists as something other
/// than a directory or cannot be created, or a file that cannot be written.
CommandResult RunReport(const ReportArgs& args, std::ostream& console);

}  // namespace dbxb
