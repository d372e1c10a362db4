// The options of `dbx-bench run`, as given on the command line and after validation.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "harness/run_plan.h"
#include "workloads/suite.h"

namespace dbxb {

/// What the user typed (strings, so that every value is validated by us with one clear message).
struct RunArgs {
  std::string suite;       ///< empty = the suite the options imply (ycsb with --workload), else the first registered
  std::string engines;     ///< comma-separated; empty = every engine but null
  std::string durability;  ///< empty = the suite's default
  std::string cache_size;  ///< empty = 64MiB (a suite may size its caches itself)
  std::string out_dir;     ///< empty = results/<UTC time>
  std::string data_dir;    ///< empty = a fresh directory under the system temp directory
  std::string seed = "1";
  std::string formats = "json,md";
  std::string baseline;  ///< engine the Markdown compares against; empty = the first engine
  bool quick = false;
  bool no_overhead = false;
  bool no_settle = false;  ///< --no-settle: measure with the load's background work left in
  bool calibrate = false;  ///< --calibrate: measure each engine's harness / native-loop ratio first
  std::string measure;     ///< --measure time|instructions; empty = time
  /// --engine-option KEY=VALUE, as given, in order ("sqlite.layout=rowid"): engine settings passed to
  /// the adapters (AdapterOptions::native_options) after the suite's own, so that they win.
  std::vector<std::string> engine_options;
  /// The suites' own options (SuiteOption::name -> text), only those given.
  std::map<std::string, std::string> suite_options;
  /// --clients N: N client processes on each database, merged (harness/clients.h); empty = none.
  std::string clients;
  /// Set by a --clients run for its client processes, never by hand: "I/N" (client I of N) and the run's
  /// shared work directory.
  std::string client;
  std::string client_work_dir;
};

/// Checks every argument against `engines` and the chosen suite of `suites`, and plans the run.
/// InvalidArgument names the option and the problem.
[[nodiscard]] Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& engines, const SuiteRegistry& suites,
                                     RunPlan* plan);

/// results/<prefix><the current UTC time, formatted by strftime's `time_format`>: the default --out of
/// run and ab, a new directory each second.
std::string TimestampedResultsDir(std::string_view prefix, const char* time_format);

}  // namespace dbxb
