// The plain result records that reporters read. The runner fills them; reporters only format them.
// One place for the results schema: records/results_fields.h lists these records' fields in results.json
// (documented in docs/results-schema.md), which records/json_results.h writes and reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/resource_usage.h"
#include "records/sweep_record.h"

namespace dbxb {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// A point estimate with its bootstrap confidence interval and standard error.
struct Interval {
  double point = 0;
  double lower = 0;
  double upper = 0;
  double std_error = 0;

  friend bool operator==(const Interval&, const Interval&) = default;
};

/// Estimates of the time of one iteration, in nanoseconds.
struct Estimates {
  Interval mean;
  Interval median;
  Interval std_dev;               ///< sample standard deviation (n - 1)
  Interval median_abs_dev;        ///< MAD scaled by 1.4826 (consistent with sigma for normal data)
  std::optional<Interval> slope;  ///< linear sampling only: sum(iters * time) / sum(iters^2)

  friend bool operator==(const Estimates&, const Estimates&) = default;
};

/// Tukey's fences over the per-iteration times of the samples. Reported, never removed.
struct OutlierCounts {
  uint64_t low_severe = 0;
  uint64_t low_mild = 0;
  uint64_t high_mild = 0;
  uint64_t high_severe = 0;
  uint64_t total() const { return low_severe + low_mild + high_mild + high_severe; }

  friend bool operator==(const OutlierCounts&, const OutlierCounts&) = default;
};

/// One measurement: `iterations` runs of the routine took `total_ns` of timed time.
struct Sample {
  uint64_t iterations = 0;
  double total_ns = 0;

  friend bool operator==(const Sample&, const Sample&) = default;
};

enum class SamplingMode { kLinear, kFlat };

/// How a benchmark was sampled (Criterion's method).
struct SamplingConfig {
  double warmup_seconds = 3.0;
  double measurement_seconds = 5.0;
  uint64_t sample_count = 100;
  uint64_t bootstrap_resamples = 100000;
  double confidence_level = 0.95;
  uint64_t seed = 0;
  /// Linear or flat sampling as the user forced it; nullopt chooses as Criterion's Auto mode does.
  std::optional<SamplingMode> forced_sampling_mode;

  friend bool operator==(const SamplingConfig&, const SamplingConfig&) = default;
};

/// A benchmark's instruction count (`run --measure instructions`): the instructions the measuring thread
/// retired in a fixed number of iterations, counted by valgrind's callgrind around the timed region only.
struct InstructionCount {
  uint64_t instructions = 0;  ///< Ir of the counted iterations
  uint64_t iterations = 0;    ///< iterations counted
  uint64_t operations = 0;    ///< records those iterations touched
  double per_op = 0;          ///< instructions / operations
  std::string tool;           ///< "valgrind-3.19.0 callgrind"
  /// Why no count is given for this benchmark (it cannot apply, e.g. another thread ran during the
  /// counted iterations); empty when the count is valid.
  std::string refused;

  friend bool operator==(const InstructionCount&, const InstructionCount&) = default;
};

/// One micro-benchmark of one workload on one engine.
struct BenchmarkResult {
  std::string suite;          ///< "dbx-micro"
  std::string workload;       ///< "insert", "get", "scan", "count"
  std::string engine;         ///< "sqlite", ...
  KeyValues parameters;       ///< ("records", "10000"), ("key_size", "12"), ...
  KeyValues engine_settings;  ///< the adapter's NativeSettings()

  SamplingMode sampling_mode = SamplingMode::kLinear;
  uint64_t warmup_iterations = 0;
  double warmup_ns = 0;                 ///< timed nanoseconds of the warm-up (untimed setup excluded)
  uint64_t elements_per_iteration = 0;  ///< records touched by one iteration (throughput unit)
  std::vector<Sample> samples;
  /// Caveats of the sampling, one sentence each, for reporters to show (e.g. "Measurement stopped after
  /// 10 of 100 samples: ..."). Empty when the run went as planned.
  std::vector<std::string> sampling_notes;

  Estimates estimates;
  OutlierCounts outliers;
  Interval throughput;  ///< elements per second, from the mean (or slope) and its interval

  std::string checksum;  ///< hex digest of the data the benchmark read, for cross-engine checking
  /// What the engine spent over the measured samples (absent when the benchmark failed before them).
  std::optional<ResourceUsage> resources;
  /// Wall time the engine took to settle after the load, before measuring (Adapter::Settle); absent
  /// when the benchmark did not settle (an insert benchmark, or --no-settle).
  std::optional<double> settle_ns;
  /// Measured under callgrind (`run --measure instructions`): the instruction count, or why there is
  /// none. Its samples were then timed under valgrind and compare only as instructions.
  std::optional<InstructionCount> instructions;

  bool error_occurred = false;
  std::string error_message;  ///< why the benchmark failed (e.g. wrong value for key_00000042)

  friend bool operator==(const BenchmarkResult&, const BenchmarkResult&) = default;
};

/// The one estimate of a benchmark's time per iteration that its table row, rank, "vs" column,
/// throughput and `compare` across runs use: the slope in linear sampling, else the mean (Criterion's
/// "typical" estimate, as Analyze() computes the throughput from).
inline const Interval& TypicalTime(const BenchmarkResult& b) {
  return b.estimates.slope && b.sampling_mode == SamplingMode::kLinear ? *b.estimates.slope : b.estimates.mean;
}

/// A latency distribution in nanoseconds, from a merged LatencyHistogram (3 significant digits: each
/// percentile is within 0.1 % of the true value; min and max are exact).
struct LatencySummary {
  uint64_t count = 0;
  double mean_ns = 0;
  double stddev_ns = 0;  ///< population standard deviation
  double min_ns = 0;
  double p50_ns = 0;
  double p90_ns = 0;
  double p95_ns = 0;
  double p99_ns = 0;
  double p999_ns = 0;   ///< 99.9th percentile
  double p9999_ns = 0;  ///< 99.99th percentile
  double max_ns = 0;
  /// (percentile, ns) points of HdrHistogram's percentile walk, denser towards 100 %, for charts.
  std::vector<std::pair<double, double>> percentile_curve;
  /// The whole histogram the figures above come from: base64 of HdrHistogram's V2 compressed encoding
  /// (records/hdr_encoding.h decodes it), so that runs can be merged losslessly. "" in files written
  /// before histograms were kept, and when count is 0.
  std::string hdr_histogram;

  friend bool operator==(const LatencySummary&, const LatencySummary&) = default;
};

/// One operation type of a phase ("read", "update", ...).
struct OpTypeResult {
  std::string name;
  uint64_t count = 0;
  double throughput_ops_per_sec = 0;  ///< count / the phase's measured duration
  LatencySummary service_time;
  /// Open loop only: latency from the operation's intended start.
  std::optional<LatencySummary> latency_from_intended_start;

  friend bool operator==(const OpTypeResult&, const OpTypeResult&) = default;
};

/// One second (interval) of a phase's measured time, all operation types together.
struct SecondSample {
  double second = 0;        ///< interval start, seconds since the measured start
  uint64_t operations = 0;  ///< operations completed in the interval
  double ops_per_sec = 0;   ///< operations / interval length (the last, partial interval: its real length)
  double p99_ns = 0;        ///< service time p99 of the operations completed in the interval

  friend bool operator==(const SecondSample&, const SecondSample&) = default;
};

/// One input of a merged phase (`dbx-bench merge`): a client host's or a repeated run's own figures.
struct PhaseSource {
  std::string file;  ///< the results file it came from, as given to merge
  std::string host_name;
  double start_unix_s = 0;  ///< wall-clock start of its measured part (0 = not recorded)
  double duration_ns = 0;
  uint32_t threads = 0;
  uint64_t operations = 0;
  double throughput_ops_per_sec = 0;

  friend bool operator==(const PhaseSource&, const PhaseSource&) = default;
};

/// One measured phase (e.g. YCSB load or run, a select-pk phase) of one engine on one data set.
struct PhaseResult {
  std::string suite;     ///< "ycsb", "sqlite-vps"
  std::string workload;  ///< the workload or file the phase belongs to, e.g. "workloada"
  std::string phase;     ///< "load", "run", "select-pk", ...
  std::string engine;
  std::string dataset;   ///< "cached", "disk-bound", or "" when the suite has no such distinction
  KeyValues parameters;  ///< the phase's own parameters (PhaseSpec::parameters)
  KeyValues engine_settings;

  uint32_t threads = 0;
  double target_rate = 0;  ///< ops/s asked for (open loop); 0 = closed loop
  /// The measured part ended at its wall-clock bound (--duration), not after its operation count: how
  /// much work it did depends on timing.
  bool bounded_by_duration = false;
  uint64_t rows_per_operation = 1;
  uint64_t warmup_operations = 0;  ///< executed before the measured part, over all threads
  double duration_ns = 0;          ///< measured wall time, from the common start to the last completion
  double start_unix_s = 0;         ///< wall-clock time of the common start, seconds since 1970 (0 = unknown)
  uint64_t operations = 0;         ///< measured operations
  double throughput_ops_per_sec = 0;

  LatencySummary service_time;  ///< every measured operation, all types
  /// Open loop only: latency from the intended start (coordinated omission corrected), all types.
  std::optional<LatencySummary> latency_from_intended_start;
  /// Open loop only: measured operations issued after their intended start because their thread was
  /// still busy with earlier ones (absent in closed loop and in files from before it was counted).
  std::optional<uint64_t> late_operations;
  std::vector<OpTypeResult> per_op;      ///< in PhaseSpec::op_types order
  std::vector<SecondSample> per_second;  ///< the measured time, second by second (empty when merged)
  /// Merged phases only: the inputs, in the order given, and how their throughputs were combined:
  /// "concurrent" (their measured times overlap: rates added) or "sequential" (operations over the summed
  /// durations). Empty / "" for a phase measured by one run.
  std::vector<PhaseSource> merged_from;
  std::string merged_throughput;

  /// Wall time the engine took to settle before the phase (Adapter::Settle, after SetUp, before the
  /// workers); absent when the phase did not settle (the first phase of a sequence, or --no-settle).
  std::optional<double> settle_ns;
  /// How memory was limited/measured for the phase (e.g. "cgroup memory.max=256MiB"), or "".
  std::string memory_method;
  /// What the engine spent over the measured part (absent when the phase failed before it).
  std::optional<ResourceUsage> resources;
  /// True when the run was interrupted during this phase: its figures cover what finished.
  bool incomplete = false;
  bool error_occurred = false;
  std::string error_message;

  friend bool operator==(const PhaseResult&, const PhaseResult&) = default;
};

/// A library an engine was built against.
struct LibraryInfo {
  std::string engine;   ///< "rocksdb"
  std::string version;  ///< "RocksDB 7.8.3"
  std::string
      build;  ///< "release (CMAKE_BUILD_TYPE=Release: -O3 -DNDEBUG, ...)" / "debian-package (assertions enabled)"
  /// Where the library came from: "crates.io librocksdb-sys 0.19.0+11.8.1" or "Debian 12 package
  /// librocksdb-dev". Empty in files written before it was recorded.
  std::string source;
  std::string flags;         ///< the build's flags that matter (optimisation, NDEBUG, codecs); may be empty
  std::string release_date;  ///< the release date of this version, YYYY-MM-DD; empty when unknown

  friend bool operator==(const LibraryInfo&, const LibraryInfo&) = default;
};

/// One engine and loop of a native-loop calibration (`dbx-bench calibrate`, `run --calibrate`): the
/// median time per operation of dbx-micro's loop through the harness and of the same loop written on
/// the engine's own API, and the median of the rounds' ratios.
struct CalibrationResult {
  std::string engine;
  std::string workload;  ///< "get", "scan" or "insert"
  uint64_t records = 0;  ///< rows in the data set
  uint64_t rounds = 0;   ///< timed rounds of each side
  double harness_ns_per_op = 0;
  double native_ns_per_op = 0;
  double ratio = 0;      ///< median over rounds of the round's harness / native
  double min_ratio = 0;  ///< of the fastest rounds (less sensitive to a busy machine)
  /// Each timed round's whole time in ns, in the order run (round i of both sides ran back to back);
  /// every figure above recomputes from them. Empty when the loop failed (or in an older file).
  std::vector<double> harness_round_ns, native_round_ns;
  std::string error;  ///< non-empty when the loop failed; the figures are then 0

  friend bool operator==(const CalibrationResult&, const CalibrationResult&) = default;
};

/// The calibration goal for point reads (get): the harness adds at most 5 %.
inline constexpr double kCalibrationGetGoal = 1.05;

/// Where, when and how a run was made: the `context` block of results.json.
struct RunContext {
  std::string date_utc;  ///< ISO 8601, e.g. 2026-11-30T15:34:56Z
  std::string host_name;
  std::string cpu_model;
  uint64_t num_cpus = 0;
  uint64_t memory_bytes = 0;
  std::string kernel;
  std::string compiler;
  std::string compiler_flags;
  std::string build_type;
  std::string git_commit;
  bool git_dirty = false;
  std::string tool_version;
  std::vector<LibraryInfo> libraries;
  std::string command_line;
  /// A merged file (`dbx-bench merge`): the results files merged, in the order given; empty otherwise.
  std::vector<std::string> merged_files;
  KeyValues configuration;  ///< every option of the run, as given or defaulted
  uint64_t seed = 0;
  SamplingConfig sampling;
  /// The harness's own cost per operation, measured with the null adapter (ns), if measured.
  std::optional<double> harness_overhead_ns_per_op;
  /// Per engine, the harness / native-loop ratios measured in this run (`run --calibrate`); empty if not.
  std::vector<CalibrationResult> calibration;
  bool incomplete = false;  ///< the run was interrupted; only finished benchmarks are present
  /// Nominal clock of one core in MHz (0 = unknown); Google Benchmark's `mhz_per_cpu`.
  uint64_t cpu_mhz = 0;
  /// Whether the CPU frequency governor may change the clock during the run (unknown = false).
  bool cpu_scaling_enabled = false;
  /// The 1, 5 and 15 minute load averages when the run started (empty = unknown).
  std::vector<double> load_avg;

  friend bool operator==(const RunContext&, const RunContext&) = default;
};

struct RunResults {
  RunContext context;
  std::vector<BenchmarkResult> benchmarks;
  /// Phase-based suites (YCSB, sqlite-vps): one record per measured phase, in run order.
  std::vector<PhaseResult> phases;
  /// A sweep (`run --threads 1,2,4`): its dimensions and points; absent for a run of one point.
  std::optional<SweepInfo> sweep;
  /// A capacity search (`run --sla`): one record per engine and searched phase.
  std::vector<CapacityResult> capacity;

  friend bool operator==(const RunResults&, const RunResults&) = default;
};

}  // namespace dbxb
