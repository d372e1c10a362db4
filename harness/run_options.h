// The options of `dbx-bench run`, as given on the command line and after validation.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "reports/result.h"
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
  /// --engine-option KEY=VALUE, as given, in order ("sqlite.layout=rowid"): engine settings passed to
  /// the adapters (AdapterOptions::native_options) after the suite's own, so that they win.
  std::vector<std::string> engine_options;
  /// The suites' own options (SuiteOption::name -> text), only those given.
  std::map<std::string, std::string> suite_options;
};

/// The validated plan of a run.
struct RunPlan {
  const Suite* suite = nullptr;
  SuiteCommon common;               ///< engines, durability, cache, seed, --quick
  std::unique_ptr<SuitePlan> work;  ///< the suite's own plan
  std::string out_dir;
  std::string data_dir;  ///< empty = make a temporary one
  std::vector<std::string> formats;
  std::string baseline;
  bool calibrate = false;   ///< run the native-loop calibration of every engine before the suite
  KeyValues configuration;  ///< every option, as used (recorded in results.json)
  /// Things the user should know before the run starts, one line each; the CLI prints them to stderr.
  std::vector<std::string> warnings;

  /// True for suites measured phase by phase (ycsb, sqlite-vps) rather than sampled (dbx-micro).
  bool phase_suite() const { return suite->records() == SuiteRecords::kPhases; }
};

/// Checks every argument against `engines` and the chosen suite of `suites`, and plans the run.
/// InvalidArgument names the option and the problem.
[[nodiscard]] Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& engines, const SuiteRegistry& suites,
                                     RunPlan* plan);

}  // namespace dbxb
