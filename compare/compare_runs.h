// Comparing several runs per side on run-level estimates: `dbx-bench ab` (paired rounds, one run of
// each build per round) and `dbx-bench compare BASE... -- CURRENT...` (two independent groups).
//
// Each run contributes one estimate per row, so the noise between processes and between minutes —
// the noise that decides a gate on a shared machine — is inside the test instead of being invisible:
//  - micro-benchmarks: the time per iteration of RowTimeEstimate() (the estimate the tables show);
//  - phases: throughput = the phase's operations / its measured duration, and p99 = the p99 of the
//    phase's merged service-time histogram (PhaseResult::service_time), not a mean of per-second p99s.
// Verdicts and the gate are DecideVerdicts() (compare/compare.h): Holm across every row.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "compare/compare.h"
#include "records/result.h"

namespace dbxb {

/// One estimate of one row of one run.
struct RowEstimate {
  BenchmarkKey key;
  std::string metric;  ///< "time", "throughput" or "p99", as MetricComparison::metric
  Direction direction = Direction::kLowerIsBetter;
  double value = 0;     ///< ns per iteration, ops/s or ns; meaningful unless failed or !usable
  bool failed = false;  ///< error_occurred in the run
  std::string error;
  bool usable = true;  ///< false for a phase with no operations (nothing to estimate)
};

/// A run's time per iteration as the gate across runs compares it: the lower quartile (Quantile 0.25)
/// of its samples' per-iteration times. Interference from other processes only ever adds time, and
/// on a shared machine it arrives in bursts that hit some samples of a run and not others; the lower
/// quartile is the run's speed where no burst hit, while a slowdown that lasts (slower code, a load
/// that competes for the whole run) moves every sample and so moves it. NaN without samples.
double RunTimeEstimate(const BenchmarkResult& b);

/// The estimates of `run` in report order: each benchmark's time (RunTimeEstimate), then each phase's
/// throughput and p99. InvalidArgument, starting with `side`, when a successful benchmark has an estimate that is not
/// finite and positive, or a row appears twice.
/// `typical_time`: each benchmark's TypicalTime instead (what a comparison of one run per side
/// compares, so what a noise floor for it must be calibrated on).
Status RunEstimates(const RunResults& run, const std::string& side, std::vector<RowEstimate>* out,
                    bool typical_time = false);

/// One side of a comparison of runs.
struct RunSet {
  std::vector<RunResults> runs;
  std::vector<std::string> sources;  ///< one per run (a path), for labels and messages
};

/// Compares the runs of two sides on RunEstimates. paired: baseline.runs[i] and current.runs[i] are
/// round i (REQUIRES equal sizes); each row's values are the per-round ratios current / baseline,
/// summarised on the log scale by TrimmedMeanTest (kTrimProportion: the point is the trimmed geometric
/// mean ratio, the interval and p are the trimmed-mean t test's), with WilcoxonSignedRank reported. Not paired:
/// RatioOfGeometricMeans with WelchTTest of the logs. Then DecideVerdicts. *report is replaced (the method, run counts,
/// labels of each side's first run with the source naming the count, warnings between the first runs, and the rows).
/// InvalidArgument when a side has fewer than 2 runs, a run cannot be read as RunEstimates, the runs of
/// one side do not hold the same rows (they must be runs of the same command), or the sides have no
/// row in common.
[[nodiscard]] Status CompareRunSets(const RunSet& baseline, const RunSet& current, bool paired,
                                    const CompareOptions& options, ComparisonReport* report);

/// Per-row noise floors from A/A runs (runs of one build, one command): for each row every run holds
/// and none failed, (largest estimate / smallest estimate) - 1 over the runs, keyed by RowId(). The
/// spread between processes that one run per side cannot see, of the estimate that comparison uses
/// (TypicalTime). InvalidArgument when fewer than 2 runs
/// are given or a run cannot be read as RunEstimates.
[[nodiscard]] Status CalibrateNoiseFloors(const RunSet& aa_runs, std::vector<std::pair<std::string, double>>* floors);

}  // namespace dbxb
