// What a comparison of runs produces, whichever way the runs were compared (one run per side, several
// runs, paired rounds): the rows, their verdicts and the gate. Nothing here reads files or throws;
// writers are in writers/compare_writer.h. The statistics are in compare/compare.h (one run per side)
// and compare/compare_runs.h (several runs per side); the verdict rule in compare/verdict.h.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "compare/metrics.h"
#include "compare/verdict.h"
#include "records/result.h"

namespace dbxb {

/// How far beyond the A/A runs' load averages a compared run may start and still use their floors.
inline constexpr double kCalibrationLoadMargin = 1.25;

struct CompareOptions {
  /// Family-wise error rate: the chance that any row of a family is called regressed while within its
  /// threshold (or "no regression" while beyond it) is at most this (compare/verdict.h).
  double significance = 0.05;
  double max_regression = 0.05;              ///< X of timing and counter rows
  double max_instruction_regression = 0.01;  ///< X of instruction counts
  uint64_t resamples = 100000;               ///< bootstrap resamples (one run per side)
  uint64_t seed = 0;                         ///< mixed with each row's identity, so results do not depend on order
  /// One run per side: the between-run noise it cannot measure, added to each timing row's interval
  /// and to duration-bound counters' (work-determined counters and instructions get none). Infinite
  /// (the default) when unknown: such rows are then inconclusive unless calibrated_floors has them.
  double noise_floor = std::numeric_limits<double>::infinity();
  /// Per-row allowances calibrated from A/A runs (CalibrateNoiseFloors), replacing noise_floor for the
  /// rows they name (RowId); they apply to counters and instructions too.
  std::vector<std::pair<std::string, double>> calibrated_floors;
  /// The 1-minute load averages the A/A runs started at (lowest, highest), when every one recorded it.
  /// The floors hold for runs that met such a machine: when a compared run started at a load outside
  /// [lowest / kCalibrationLoadMargin, highest * kCalibrationLoadMargin], they are not used (the rows
  /// get noise_floor) and the report says why.
  std::optional<std::pair<double, double>> calibration_load;
  /// The looks a sequential run plans (ab --rounds auto): every interval is corrected for them too.
  size_t looks = 1;
  /// An inconclusive row fails the gate as a regression does.
  bool fail_on_inconclusive = false;
};

/// InvalidArgument naming the field unless 0 < significance < 0.5, max_regression and
/// max_instruction_regression are finite and >= 0, noise_floor >= 0 (infinity allowed), resamples >= 1
/// and looks >= 1.
[[nodiscard]] Status ValidateCompareOptions(const CompareOptions& options);

/// What identifies a benchmark (or a measured phase) across runs. Parameters are sorted by name, so
/// the order in which a run recorded them does not matter.
struct BenchmarkKey {
  std::string suite;
  std::string workload;
  std::string engine;
  KeyValues parameters;
  std::string phase;    ///< the phase of a PhaseResult ("load", "run", ...); empty for micro-benchmarks
  std::string dataset;  ///< the data set of a PhaseResult ("cached", "disk-bound" or empty)

  static BenchmarkKey Of(const BenchmarkResult& b);
  /// A phase: suite, workload, data set, phase and engine, with threads and (open loop) target_rate
  /// added to its parameters, since runs that differ in them measure different things.
  static BenchmarkKey Of(const PhaseResult& p);
  /// "suite/workload/engine" as BenchmarkName(); for a phase "suite/workload/dataset/phase/engine"
  /// without the empty parts, as PhaseName() (records/record_names.h).
  std::string Name() const;

  friend bool operator==(const BenchmarkKey&, const BenchmarkKey&) = default;
};

/// What became of one benchmark.
enum class Outcome {
  kCompared,
  kOnlyInBaseline,
  kOnlyInCurrent,
  kFailed,            ///< error_occurred on either side (in any run): reported, not compared
  kInsufficientData,  ///< nothing to estimate (a phase with no operations): reported
};

/// "compared", "only in baseline", "only in current", "failed", "insufficient data".
const char* OutcomeName(Outcome outcome);

/// One side of a row: its estimate (one run per side: the run's; several: the geometric mean of the
/// runs' estimates) and how many values it rests on (samples, seconds or runs).
struct SideValue {
  double value = std::numeric_limits<double>::quiet_NaN();
  uint64_t count = 0;
};

/// One metric of one benchmark, compared (or why not).
struct MetricComparison {
  BenchmarkKey key;
  const Metric* metric = &PrimaryMetric(false);
  Outcome outcome = Outcome::kCompared;
  std::string note;  ///< why it was not compared, or what limited it (e.g. too few full seconds)
  SideValue baseline, current;

  // kCompared only.
  /// current / baseline - 1 with the interval the verdict used (at `level`, widened by `allowance`).
  Interval change;
  /// Two-sided confidence level of the interval (its family's, compare/verdict.h); 0 for a row decided
  /// inconclusive without a test (a phase too short for one run per side).
  double level = 0;
  double allowance = 0;  ///< one run per side: the between-run noise added to each end (noise floor)
  Verdict verdict = Verdict::kInconclusive;
  /// The smallest regression this comparison could have called regressed (DetectableRegression).
  double detectable = std::numeric_limits<double>::quiet_NaN();
  /// Paired rounds: current / baseline of each round's estimate, in round order.
  std::vector<double> ratios;
};

/// The name of a row for matching across reports and noise floors: Name() of the key, its sorted
/// parameters, and the metric, e.g. "dbx-micro/get/lmdb [key_size=12, records=10000] time".
std::string RowId(const BenchmarkKey& key, std::string_view metric);

/// A stable per-row seed: options_seed mixed with a hash of the key and the metric name.
uint64_t ComparisonSeed(uint64_t options_seed, const BenchmarkKey& key, std::string_view metric);

/// Identifies one side of a comparison in the output.
struct RunLabel {
  std::string source;  ///< the file it was read from (or the baseline name), as given by the caller
  std::string host_name;
  std::string date_utc;
  std::string git_commit;
  bool git_dirty = false;
  std::string tool_version;
};

/// The label of a run read from `source`.
RunLabel LabelOf(const RunResults& results, std::string source);

/// The warnings of comparing `current` with `baseline` (different machines, builds, libraries,
/// interrupted runs), each starting with "⚠️ ".
std::vector<std::string> CompareWarnings(const RunResults& baseline, const RunResults& current);

/// How the values a row compares were measured.
enum class CompareMethod {
  kSamples,       ///< one run per side: the samples (or per-second values) inside each run
  kRuns,          ///< several runs per side: one estimate per run, two independent groups
  kPairedRounds,  ///< `ab`: one estimate per run, paired round by round
};

/// "samples", "runs", "paired rounds".
const char* CompareMethodName(CompareMethod method);

/// The size and level of one family of the gate.
struct FamilySummary {
  size_t rows = 0;  ///< compared rows
  double level = 0;
  double threshold = 0;
};

struct ComparisonReport {
  CompareOptions options;
  CompareMethod method = CompareMethod::kSamples;
  size_t baseline_runs = 1;  ///< runs (or rounds) per side
  size_t current_runs = 1;
  RunLabel baseline;
  RunLabel current;
  /// Facts that change how the comparison reads, each starting with "⚠️ ".
  std::vector<std::string> warnings;
  std::vector<MetricComparison> rows;

  size_t Count(Outcome outcome) const;
  size_t Count(Verdict verdict) const;  ///< compared rows with this verdict
  /// Every compared row has a verdict other than inconclusive.
  bool Decided() const { return Count(Verdict::kInconclusive) == 0; }
  /// Exit code 1: a row regressed, or (fail_on_inconclusive) one is inconclusive.
  bool GateFailed() const;
  /// The family's tested rows (level > 0), their level and threshold.
  FamilySummary Family(MetricFamily family) const;
};

/// The threshold X of a metric's family.
double ThresholdOf(const Metric& metric, const CompareOptions& options);

/// Sets each compared row's verdict and detectable regression from its interval (Decide,
/// DetectableRegression with its family's threshold). The statistics set the intervals first.
void DecideVerdicts(ComparisonReport* report);

/// The number of compared rows of each family, in MetricFamily order: what the levels are computed from.
struct FamilyCounts {
  size_t timing = 0, counters = 0, instructions = 0;
  void Add(const Metric& metric);
  size_t Of(MetricFamily family) const;
};

/// The two-sided level of a row of `metric`'s family (FamilyLevel over the family's rows and the looks).
double LevelOf(const Metric& metric, const FamilyCounts& counts, const CompareOptions& options);

}  // namespace dbxb
