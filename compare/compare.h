// Comparing one run with another (one run per side) benchmark by benchmark, as Criterion.rs compares a
// run with its saved baseline, with the verdicts of compare/verdict.h.
//
// Every metric of the table (compare/metrics.h) that both records have gets a row. Its interval:
//  - a micro-benchmark's typical time (the median of its per-iteration sample times) and mean time: a
//    percentile bootstrap of the statistic's ratio, each side resampled independently;
//  - a phase's throughput and p99: a moving-block bootstrap of each side's seconds (neighbouring seconds
//    are not independent); a phase with fewer than kMinFullSeconds whole seconds on a side is
//    inconclusive, never a verdict from two seconds;
//  - one value per side (CPU per operation, counters, instructions): the ratio itself, zero width;
// each taken at its family's level, then widened by the between-run noise one run per side cannot see:
// the row's A/A-calibrated floor (--aa-runs) or the noise floor for timing rows and duration-bound
// counters; nothing for work-determined counters and instruction counts, which are exact.
#pragma once

#include <cstddef>

#include "common/status.h"
#include "compare/report.h"
#include "records/result.h"

namespace dbxb {

/// Whole seconds a phase needs on each side for a verdict from one run per side.
inline constexpr size_t kMinFullSeconds = 10;

/// The most values the bootstraps of one comparison of one run per side may draw (each compared row's
/// samples or seconds, both sides, times --resamples; about a minute of work): past it, CompareRuns
/// refuses rather than run for hours on a large file.
inline constexpr double kMaxBootstrapDraws = 1.6e10;

/// Compares `current` with `baseline`. The caller may set report->baseline.source and
/// report->current.source first (they are kept and used in messages); everything else in *report is
/// replaced. InvalidArgument for unusable options, a run that cannot be compared (RunRecordsOf), more
/// bootstrap draws than kMaxBootstrapDraws, or when
/// the runs have no benchmark in common (nothing to gate on is an input error, not a pass).
[[nodiscard]] Status CompareRuns(const RunResults& baseline, const RunResults& current, const CompareOptions& options,
                                 ComparisonReport* report);

/// current / baseline - 1 of two counts: 0 when both are 0, +infinity when only the current one is.
double RatioChange(double baseline, double current);

}  // namespace dbxb
