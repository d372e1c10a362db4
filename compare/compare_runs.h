// Comparing several runs per side on run-level estimates: `dbx-bench ab` (paired rounds, one run of
// each build per round) and `dbx-bench compare BASE... -- CURRENT...` (two independent groups).
//
// Each run contributes its estimate of every metric (compare/metrics.h), so the noise between processes
// and between minutes — the noise that decides a gate on a shared machine — is inside the test:
//  - paired rounds: the log ratios log(current / baseline) of the rounds, summarised by Yuen's
//    trimmed-mean test (stats/t_tests.h): the point is the trimmed geometric-mean ratio, the interval its
//    t interval. A round that a burst of load hit on one side is trimmed, not averaged in, and no sample
//    of a run is discarded: slow iterations that the code causes are in every round's estimate;
//  - two groups: Welch's test of the log estimates (the ratio of geometric means).
// Counters and instruction counts use the same statistics in their own families; a counter that is 0 in
// some run is compared by its range (every run against every other).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "compare/report.h"
#include "records/result.h"

namespace dbxb {

/// One side of a comparison of runs.
struct RunSet {
  std::vector<RunResults> runs;
  std::vector<std::string> sources;  ///< one per run (a path), for labels and messages
};

/// Compares the runs of two sides (see above). paired: baseline.runs[i] and current.runs[i] are round i
/// (REQUIRES equal sizes). Every interval is at its family's level (compare/verdict.h, with
/// options.looks). *report is replaced (method, run counts, labels of each side's first run with the
/// source naming the count, warnings between the first runs, rows). InvalidArgument when a side has
/// fewer than 2 runs, a run cannot be read (RunRecordsOf), the runs of one side do not hold the same
/// benchmarks and phases (they must be runs of the same command), or the sides have nothing in common.
[[nodiscard]] Status CompareRunSets(const RunSet& baseline, const RunSet& current, bool paired,
                                    const CompareOptions& options, ComparisonReport* report);

/// Per-row allowances from A/A runs (runs of one build, one command) into options->calibrated_floors:
/// for each metric of each record that every run holds and none failed, (largest estimate / smallest
/// estimate) - 1 over the runs, keyed by RowId(): the spread between processes that one run per side
/// cannot see; and the load averages the runs started at into options->calibration_load.
/// InvalidArgument when fewer than 2 runs are given or a run cannot be read.
[[nodiscard]] Status CalibrateNoiseFloors(const RunSet& aa_runs, CompareOptions* options);

/// OK when the two runs share a benchmark or phase; otherwise InvalidArgument naming what each holds.
/// `ab` asks this after its first round, so that two builds with nothing in common stop at once.
[[nodiscard]] Status CheckCommonRecords(const RunResults& baseline, const RunResults& current);

}  // namespace dbxb
