// Google Benchmark's JSON format (as written by Google Benchmark 1.7.1 with --benchmark_format=json),
// so that tools made for it read our runs: github-action-benchmark (`tool: googlecpp`) and
// Google Benchmark's tools/compare.py.
//
// Mapping (documented in docs/results-schema.md):
// - context: date, host_name, executable, num_cpus, mhz_per_cpu, cpu_scaling_enabled, caches (always
//   empty: not recorded), load_avg, library_build_type ("release" for optimised builds, else "debug"),
//   plus dbx-bench's own facts as extra string keys (as Google Benchmark's AddCustomContext adds them).
// - each benchmark is one Google Benchmark "instance": family = suite/workload (family_index in order
//   of first appearance), instance = engine (per_family_instance_index). name = "suite/workload/engine";
//   when that name is not unique in the run, "/key:value" for every parameter is appended.
// - each sample is one repetition (run_type "iteration"): iterations of the sample, real_time =
//   total_ns / iterations. We measure wall-clock time only, so cpu_time = real_time.
// - then the aggregates "<name>_mean", "_median", "_stddev" (the recorded point estimates) and "_cv"
//   (std dev / mean, a fraction, aggregate_unit "percentage").
// - items_per_second = elements per iteration / time, on iterations and on the mean and median.
// - a failed benchmark is one entry with error_occurred and error_message, and no aggregates.
// - each phase (results.phases) follows the benchmarks as one "iteration" entry: family =
//   suite/workload/phase, name = "suite/workload/phase/engine[/dataset:D]/threads:T[/incomplete]",
//   threads = its threads, iterations = its measured operations, real_time = cpu_time = the mean
//   service time, items_per_second = its throughput, and the user counters p50_ns, p90_ns, p95_ns,
//   p99_ns, p999_ns, p9999_ns, max_ns (service time). A failed phase is an error entry.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "common/status.h"
#include "records/result.h"
#include "writers/reporter.h"

namespace dbxb {

/// The Google Benchmark JSON document of `results`. With `aggregates_only`, the per-sample entries
/// are left out (Google Benchmark's --benchmark_report_aggregates_only), which suits trackers that
/// chart every entry, such as github-action-benchmark.
nlohmann::ordered_json ToGbenchJson(const RunResults& results, bool aggregates_only = false);

class GbenchReporter : public Reporter {
 public:
  explicit GbenchReporter(bool aggregates_only = false) : aggregates_only_(aggregates_only) {}

  /// ToGbenchJson dumped with two-space indentation and a final newline.
  Status Write(const RunResults& results, std::ostream& out) override;

 private:
  bool aggregates_only_;
};

}  // namespace dbxb
