// Comparing two runs (a baseline and a current run) benchmark by benchmark, as Criterion.rs compares
// a run with its saved baseline, and the regression gate that CI runs on top of it.
//
// Comparisons come from matchers: a Matcher pairs the records of one kind in the two runs and turns
// each pair into MetricComparison rows through CompareMetric(), which owns the statistics (bootstrap
// t-test, relative change with intervals), the verdict and the gate. Two matchers exist:
// SampledTimeMatcher (per-iteration times of the sampled micro-benchmarks) and PhaseMatcher (the
// per-second throughput and p99 series of the measured phases of YCSB-style suites). Another kind of
// record is compared by adding a Matcher.
//
// Nothing here reads files or throws; writers of the result are in writers/compare_writer.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "records/result.h"

namespace dbxb {

struct CompareOptions {
  double significance = 0.05;      ///< alpha of the t-test: p < significance means "the mean changed"
  double noise_threshold = 0.02;   ///< changes whose interval reaches into +-2 % are noise
  double max_regression = 0.05;    ///< the gate: fail when even the favourable bound is worse than +5 %
  double confidence_level = 0.95;  ///< of the change intervals
  uint64_t resamples = 100000;     ///< bootstrap resamples of the t-test and of each interval
  uint64_t seed = 0;               ///< mixed with each benchmark's identity, so results do not depend on order
  /// One run per side only: a regression fails the gate only when its favourable bound is also beyond
  /// this floor (the between-run noise one run per side cannot measure); else it is "unconfirmed".
  double noise_floor = 0.10;
  /// Per-row floors calibrated from A/A runs (CalibrateNoiseFloors), replacing noise_floor for the
  /// rows they name.
  std::vector<std::pair<std::string, double>> calibrated_floors;
};

/// InvalidArgument naming the field unless 0 < significance < 1, noise_threshold >= 0,
/// max_regression >= 0, noise_floor >= 0 (all finite), 0 < confidence_level < 1 and resamples > 0.
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
  /// without the empty parts, as PhaseName() (writers/markdown_phases.h).
  std::string Name() const;

  friend bool operator==(const BenchmarkKey&, const BenchmarkKey&) = default;
};

/// Whether a larger value of the metric is worse (times) or better (throughput).
enum class Direction { kLowerIsBetter, kHigherIsBetter };

/// Criterion's verdicts, in its words: "No change in performance detected.", "Change within noise
/// threshold.", "Performance has improved.", "Performance has regressed."
enum class Verdict { kNoChange, kWithinNoise, kImproved, kRegressed };

/// "no change", "change within noise threshold", "improved", "regressed".
const char* VerdictName(Verdict verdict);

/// What became of one benchmark.
enum class Outcome {
  kCompared,
  kOnlyInBaseline,
  kOnlyInCurrent,
  kFailed,            ///< error_occurred on either side: reported, not compared
  kInsufficientData,  ///< too few values to compare (a phase shorter than 2 seconds): reported
};

/// "compared", "only in baseline", "only in current", "failed", "insufficient data".
const char* OutcomeName(Outcome outcome);

/// One metric of one benchmark, compared (or why not).
struct MetricComparison {
  BenchmarkKey key;
  /// "time": per-iteration time in ns (micro-benchmarks); "throughput": a phase's operations per
  /// second (its total) and "p99": its 99th-percentile service time in ns (its merged histogram).
  std::string metric = "time";
  Direction direction = Direction::kLowerIsBetter;
  Outcome outcome = Outcome::kCompared;
  std::string note;  ///< for kFailed and kInsufficientData: which side and why

  /// Each side's mean and median of the metric (NaN for a side that is absent or failed) and its
  /// number of values.
  double baseline_mean = 0, baseline_median = 0;
  double current_mean = 0, current_median = 0;
  uint64_t baseline_count = 0, current_count = 0;

  // Meaningful for kCompared only.
  Interval mean_change;    ///< current / baseline - 1 of the means, with its interval
  Interval median_change;  ///< same for the medians
  double t = 0;            ///< Welch's t of current against baseline
  double p_value = 1;
  /// p_value after Holm's adjustment over every compared row of the report: the verdict uses it.
  double p_adjusted = 1;
  Verdict verdict = Verdict::kNoChange;
  bool over_threshold = false;  ///< regressed beyond options.max_regression: fails the gate
  /// One run per side: regressed beyond max_regression but not beyond the noise floor, so it does not
  /// fail the gate.
  bool unconfirmed = false;
  double noise_floor = 0;  ///< the floor applied to this row (one run per side), else 0

  // Several runs per side (CompareMethod::kRuns, kPairedRounds).
  /// kPairedRounds: current / baseline of each round's estimate, in round order.
  std::vector<double> ratios;
  /// kPairedRounds: the Wilcoxon signed-rank p of the log ratios, unadjusted (reported, not gated on).
  double signed_rank_p = 1;
  /// kPairedRounds: rounds trimmed from each end of the sorted log ratios (TrimCount of the rounds).
  size_t trimmed_rounds = 0;
};

/// Criterion's verdict: kNoChange when p_value >= significance; otherwise kImproved when the whole
/// mean-change interval is on the better side of the noise band (below -noise for times, above +noise
/// for throughput), kRegressed when it is all on the worse side, kWithinNoise when it reaches into the
/// band.
Verdict Classify(double p_value, const Interval& mean_change, Direction direction, double significance,
                 double noise_threshold);

/// The gate: a kRegressed change whose favourable bound is still worse than `max_regression`
/// (mean_change.lower > max_regression for times, mean_change.upper < -max_regression for
/// throughput). A regression that may be within the threshold does not fail the gate.
bool ExceedsGate(Verdict verdict, const Interval& mean_change, Direction direction, double max_regression);

/// The statistics of one metric: fills row->{baseline,current}_{mean,median,count}, mean_change,
/// median_change (BootstrapRelativeChange seeded with `seed`), t and p_value (BootstrapTTest seeded
/// with seed + 2), verdict and over_threshold, and sets outcome to kCompared.
/// REQUIRES: ValidateCompareOptions(options) is OK; both sides have >= 2 finite values >= 0, and the
/// baseline's mean and median are > 0.
void CompareMetric(const std::vector<double>& baseline, const std::vector<double>& current,
                   const CompareOptions& options, uint64_t seed, MetricComparison* row);

/// The name of a row for matching across reports and noise floors: Name() of the key, its sorted
/// parameters, and the metric, e.g. "dbx-micro/get/lmdb [key_size=12, records=10000] time".
std::string RowId(const BenchmarkKey& key, const std::string& metric);

/// A stable per-row seed: options_seed mixed with a hash of the key and the metric name.
uint64_t ComparisonSeed(uint64_t options_seed, const BenchmarkKey& key, const std::string& metric);

/// One run as a matcher sees it.
struct RunSide {
  const RunResults* results = nullptr;
  std::string name;  ///< for messages: "baseline" or "current", with the file when known
};

/// Pairs records of one kind in the two runs.
class Matcher {
 public:
  virtual ~Matcher() = default;

  /// Appends one row per benchmark of its kind found in either run: kCompared rows (through
  /// CompareMetric), kFailed, kOnlyInBaseline, kOnlyInCurrent. Rows follow the current run's order,
  /// then the benchmarks only in the baseline in its order. InvalidArgument, starting with the side's
  /// name and naming the benchmark, when a run cannot be compared: the same benchmark twice, or a
  /// successful benchmark with unusable data (fewer than 2 samples, zero iterations, a time that is
  /// not finite and positive).
  virtual Status Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
                       std::vector<MetricComparison>* rows) const = 0;
};

/// The per-iteration times (total_ns / iterations of each sample) of every benchmark, matched by
/// BenchmarkKey. Metric "time", lower is better.
class SampledTimeMatcher final : public Matcher {
 public:
  Status Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
               std::vector<MetricComparison>* rows) const override;
};

/// The measured phases (RunResults::phases), matched by BenchmarkKey::Of(PhaseResult): two rows per
/// phase, one after the other. "throughput" (higher is better) compares the phases' total rates
/// (operations / duration); "p99" (lower is better) the p99 of each phase's merged service-time
/// histogram — never a mean of per-second p99s, in which a second with few operations weighs as much
/// as a full one. Intervals and p: a moving-block bootstrap (BlockBootstrapRatioOfSums) of each side's
/// seconds — operations over interval lengths (the last, partial interval weighted by its real length)
/// for throughput, operations-weighted per-second p99s for the spread of p99 — since neighbouring
/// seconds are not independent (a compaction spans several); p = 2 min(P*(change <= 0), P*(change >= 0)).
/// A phase with fewer than 2 usable seconds on either side gives kInsufficientData rows, not an error.
class PhaseMatcher final : public Matcher {
 public:
  Status Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
               std::vector<MetricComparison>* rows) const override;
};

/// Identifies one side of a comparison in the output.
struct RunLabel {
  std::string source;  ///< the file it was read from (or the baseline name), as given by the caller
  std::string host_name;
  std::string date_utc;
  std::string git_commit;
  bool git_dirty = false;
  std::string tool_version;
};

/// How the values a row compares were measured.
enum class CompareMethod {
  kSamples,       ///< one run per side: the samples (or per-second values) inside each run
  kRuns,          ///< several runs per side: one estimate per run, two independent groups
  kPairedRounds,  ///< `ab`: one estimate per run, paired round by round
};

/// "samples", "runs", "paired rounds".
const char* CompareMethodName(CompareMethod method);

struct ComparisonReport {
  CompareOptions options;
  CompareMethod method = CompareMethod::kSamples;
  size_t baseline_runs = 1;  ///< runs (or rounds) per side
  size_t current_runs = 1;
  RunLabel baseline;
  RunLabel current;
  /// Facts that change how the comparison reads, each starting with "⚠️ ": different machines,
  /// different builds or library versions, interrupted runs.
  std::vector<std::string> warnings;
  std::vector<MetricComparison> rows;

  size_t Count(Outcome outcome) const;
  /// Rows over the gate's threshold.
  size_t RegressionsOverThreshold() const;
  /// Rows regressed beyond max_regression but not beyond the noise floor (one run per side).
  size_t Unconfirmed() const;
  bool GateFailed() const { return RegressionsOverThreshold() > 0; }
};

/// Holm-adjusts the p-values of the kCompared rows together (p_adjusted), then sets each row's
/// verdict (Classify with p_adjusted), over_threshold (ExceedsGate) and, for CompareMethod::kSamples,
/// the noise floor: a row over the gate whose favourable bound is not also beyond its floor (a
/// calibrated one, else options.noise_floor) is marked unconfirmed instead of over the threshold.
void DecideVerdicts(ComparisonReport* report);

/// The label of a run read from `source`.
RunLabel LabelOf(const RunResults& results, std::string source);

/// The warnings of comparing `current` with `baseline` (different machines, builds, libraries,
/// interrupted runs), each starting with "⚠️ ".
std::vector<std::string> CompareWarnings(const RunResults& baseline, const RunResults& current);

/// The built-in matchers, in the order their rows are reported: SampledTimeMatcher, PhaseMatcher,
/// ResourceCounterMatcher (compare/compare_counters.h).
std::vector<std::unique_ptr<Matcher>> BuiltinMatchers();

/// Compares `current` with `baseline` with every built-in matcher, then DecideVerdicts. The caller may set
/// report->baseline.source and report->current.source first (they are kept and used in messages);
/// everything else in *report is replaced. InvalidArgument for unusable options, for a run that
/// cannot be compared (see Matcher::Match), or when the runs have no benchmark in common (nothing to
/// gate on is an input error, not a pass).
[[nodiscard]] Status CompareRuns(const RunResults& baseline, const RunResults& current, const CompareOptions& options,
                                 ComparisonReport* report);

}  // namespace dbxb
