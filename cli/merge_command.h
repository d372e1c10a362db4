// `dbx-bench merge INPUTS... -o FILE`: one result from the runs of several client hosts or repeated
// runs, adding histograms and counts (records/phase_merge.h), never averaging percentiles.
//
// INPUTS are results.json files (or directories holding one) — FILE is then a results file that
// `report` and `compare` read like any other (a directory: FILE/results.json) — or HdrHistogram interval
// logs (`run --hdr-log`, or any HistogramLogWriter's), whose intervals FILE then holds together on one
// time base. Either way a summary per phase (or per log tag) is printed.
// Exit codes: 0 merged; 2 bad input (a missing, corrupt or mismatched input, FILE one of the inputs or
// in a directory that does not exist), with one line on stderr and nothing written.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/command_result.h"

namespace CLI {
class App;
}

namespace dbxb {

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;  ///< -o FILE
};

/// Registers the `merge` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddMergeCommand(CLI::App* app, MergeArgs* args);

/// Reads, merges and writes as described above; prints the summary to `console`.
CommandResult RunMerge(const MergeArgs& args, std::ostream& console);

}  // namespace dbxb
