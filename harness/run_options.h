// The options of `dbx-bench run`, as given on the command line and after validation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "reports/result.h"
#include "workloads/dataset.h"
#include "workloads/phase.h"
#include "workloads/sqlite_vps/vps_config.h"
#include "workloads/ycsb_workload.h"

namespace dbxb {

/// What the user typed (strings, so that every value is validated by us with one clear message).
struct RunArgs {
  std::string suite;      ///< empty = dbx-micro, or ycsb when --workload is given
  std::string engines;    ///< comma-separated; empty = every engine but null
  std::string workloads;  ///< comma-separated; empty = every workload (dbx-micro) or phase (sqlite-vps)
  std::string records;     ///< empty = the suite's default (dbx-micro 10000; ycsb: the file's recordcount)
  std::string key_size;    ///< dbx-micro only; empty = 12
  std::string value_size;  ///< dbx-micro only; empty = 19
  std::string durability;  ///< empty = the suite's default
  std::string cache_size;  ///< empty = 64MiB (sqlite-vps: its own budget)
  std::string out_dir;   ///< empty = results/<UTC time>
  std::string data_dir;  ///< empty = a fresh directory under the system temp directory
  std::string seed = "1";
  std::string formats = "json,md";
  std::string baseline;  ///< engine the Markdown compares against; empty = the first engine
  bool quick = false;
  std::string warmup, measurement, samples, sampling_mode, resamples;
  bool no_overhead = false;

  // Phase-based suites (ycsb, sqlite-vps): empty = the suite's default.
  std::string workload_files;  ///< --workload: YCSB workload files, comma-separated (implies --suite ycsb)
  std::string threads;         ///< --threads: worker threads per phase
  std::string readers, writers;  ///< --readers / --writers: threads of mixed/concurrent phases
  std::string operations;      ///< --operations: measured operations per phase
  std::string duration;        ///< --duration: wall-clock bound per phase
  std::string phase_warmup;    ///< --phase-warmup: warm-up time per phase
  std::string target_rate;     ///< --target-rate: ops/s per phase, open loop
  std::string load_batch;      ///< --load-batch: rows per write batch when loading
  std::string raw_latencies;   ///< --raw-latencies: CSV of every measured operation
  std::string dataset;         ///< --dataset (sqlite-vps): cached, disk-bound or both
  std::string memory_limit;    ///< --memory-limit (sqlite-vps): the disk-bound memory budget
  std::string range_length;    ///< --range-length (sqlite-vps): rows per range-scan operation
};

/// A YCSB workload file, parsed and with --records/--operations applied.
struct YcsbFile {
  std::string path;
  std::string name;  ///< "workloada"
  YcsbWorkload workload;
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

  // Phase-based suites.
  std::vector<YcsbFile> ycsb_files;  ///< ycsb: the workloads, in the order given
  PhaseSuiteOptions phase_options;   ///< what every phase suite gets (work_dir set by the runner)
  SqliteVpsConfig vps;               ///< sqlite-vps: data sets, memory limit, range length, phases
  std::string raw_latencies;         ///< CSV path; empty = not written
  /// Things the user should know before the run starts (e.g. properties a YCSB file has that
  /// CoreWorkload does not know), one line each; the CLI prints them to stderr.
  std::vector<std::string> warnings;

  /// True for suites measured phase by phase (ycsb, sqlite-vps) rather than sampled (dbx-micro).
  bool phase_suite() const { return suite != "dbx-micro"; }
};

/// Checks every argument; InvalidArgument names the option and the problem.
Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& registry, RunPlan* plan);

/// The known suites.
const std::vector<std::string>& SuiteNames();

}  // namespace dbxb
