// The validated plan of a run: what the runner executes (cli/run_options.h makes it from the command line).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "records/result.h"
#include "workloads/suite.h"

namespace dbxb {

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

}  // namespace dbxb
