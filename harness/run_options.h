// The options of `dbx-bench run`, as given on the command line and after validation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "reports/result.h"
#include "workloads/dataset.h"

namespace dbxb {

/// What the user typed (strings, so that every value is validated by us with one clear message).
struct RunArgs {
  std::string suite = "dbx-micro";
  std::string engines;    ///< comma-separated; empty = every engine but null
  std::string workloads;  ///< comma-separated; empty = every workload of the suite
  std::string records = "10000";
  std::string key_size = "12";
  std::string value_size = "19";
  std::string durability;  ///< empty = the suite's default
  std::string cache_size = "64MiB";
  std::string out_dir;   ///< empty = results/<UTC time>
  std::string data_dir;  ///< empty = a fresh directory under the system temp directory
  std::string seed = "1";
  std::string formats = "json,md";
  std::string baseline;  ///< engine the Markdown compares against; empty = the first engine
  bool quick = false;
  std::string warmup, measurement, samples, sampling_mode, resamples;
  bool no_overhead = false;
};

/// The validated plan of a run.
struct RunPlan {
  std::string suite;
  std::vector<const AdapterFactory*> engines;
  std::vector<std::string> workloads;
  DatasetShape shape;
  Durability durability = Durability::kNone;
  uint64_t cache_bytes = 0;
  std::string out_dir;
  std::string data_dir;  ///< empty = make a temporary one
  uint64_t seed = 1;
  std::vector<std::string> formats;
  std::string baseline;
  SamplingConfig sampling;
  bool measure_overhead = true;
  KeyValues configuration;  ///< every option, as used (recorded in results.json)
};

/// Checks every argument; InvalidArgument names the option and the problem.
Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& registry, RunPlan* plan);

/// The known suites.
const std::vector<std::string>& SuiteNames();

}  // namespace dbxb
