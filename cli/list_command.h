// `dbx-bench list`: the engines (with library versions and builds) and the suites; with --engine, each
// named engine's sheet as its registration declares it (adapters/adapter.h, AdapterFactory): its
// durability levels and the syncs a commit makes at each, its native options, what its settle does, and
// its limits. The sheet is the engines' reference: the tests hold each declaration against the engine
// (tests/durability_sync_test.cc, adapters/conformance_test.cc).
#pragma once

#include <ostream>
#include <string>

#include "cli/command_result.h"

namespace CLI {
class App;
}

namespace dbxb {

struct ListArgs {
  std::string engines;  ///< --engine: comma-separated names, or "all"; empty = the short list
};

/// Registers the `list` subcommand and its options on `app`, writing what is typed into *args.
CLI::App* AddListCommand(CLI::App* app, ListArgs* args);

/// Prints the short list, or the sheet of each engine of args.engines in Markdown. Exit 2 for an engine
/// this build does not register.
CommandResult RunList(const ListArgs& args, std::ostream& out);

}  // namespace dbxb
