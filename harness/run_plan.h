// The validated plan of a run: what the runner executes (cli/run_options.h makes it from the command line).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/capacity.h"
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
  bool calibrate = false;  ///< run the native-loop calibration of every engine before the suite
  /// run --clients N: this process starts N client processes on each database and merges their results
  /// (harness/clients.h); 0 = a run of its own.
  uint32_t clients = 0;
  /// Set in a client process of such a run (common.client_index/client_count say which): the run's work
  /// directory, shared by its clients, used as it is; the parent answers the client barrier on descriptor 3.
  std::string client_work_dir;
  /// --sla: search every repeatable phase's capacity at this target instead of measuring it once.
  std::optional<CapacityPlan> capacity;
  /// `--measure instructions`: count each benchmark's instructions under callgrind (harness/instructions.h)
  /// instead of sampling it by the clock.
  bool measure_instructions = false;
  KeyValues configuration;  ///< every option, as used (recorded in results.json)
  /// Things the user should know before the run starts, one line each; the CLI prints them to stderr.
  std::vector<std::string> warnings;

  /// True for suites measured phase by phase (ycsb, sqlite-vps) rather than sampled (dbx-micro).
  bool phase_suite() const { return suite->records() == SuiteRecords::kPhases; }
};

}  // namespace dbxb
