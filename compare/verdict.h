// The gate's question for one row, and the multiplicity control that keeps a report of many rows
// honest.
//
// The question is not "did it change?" but "did it get worse by more than X?" (X = --max-regression, or
// --max-instruction-regression for instruction counts). A row's change current / baseline - 1 comes with
// an interval, and the interval alone decides:
//  - regressed:     the whole interval is worse than X (the evidence says the change exceeds X);
//  - no regression: the worse end of the interval is within X (the evidence bounds the change below X);
//  - improved:      the whole interval is better than -X (a "no regression" that also got faster);
//  - inconclusive:  the interval holds X: the data cannot tell.
// Each end of a two-sided interval at level 1 - 2a is a one-sided test at level a: "regressed" tests
// "change <= X" and "no regression" tests "change >= X" (a non-inferiority test, as TOST does). Over a
// family of m rows, a run of L planned looks (sequential rounds) and family-wise level alpha, every
// interval is taken at 1 - 2 alpha / (m L) (Bonferroni): the chance that any row of the family is called
// regressed while its true change is within X, or called "no regression" while it is beyond X, is at
// most alpha. The intervals printed are exactly these.
#pragma once

#include <cstddef>

#include "compare/metrics.h"
#include "records/result.h"

namespace dbxb {

enum class Verdict { kRegressed, kInconclusive, kNoRegression, kImproved };

/// "regressed", "inconclusive", "no regression", "improved".
const char* VerdictName(Verdict verdict);

/// The verdict of a change interval (fractions: 0.05 = 5 % larger) for a metric going `direction`, at
/// threshold X >= 0. Lower is better: regressed when lower > X, improved when upper < -X, no regression
/// when upper <= X, else inconclusive. Higher is better (a drop is a regression): regressed when
/// upper < -X, improved when lower > X, no regression when lower >= -X. NaN bounds are inconclusive.
Verdict Decide(const Interval& change, Direction direction, double threshold);

/// The smallest regression this interval's width would have called regressed: for lower-is-better,
/// (1 + X) (1 + point) / (1 + lower) - 1 (the point moved until the lower bound clears X, on the log
/// scale); for higher-is-better the drop (1 - X) (1 + point) / (1 + upper) - 1, a negative fraction.
/// +-infinity for an unbounded interval (-1 for a drop).
double DetectableRegression(const Interval& change, Direction direction, double threshold);

/// The two-sided level of every interval of a family: 1 - 2 alpha / (rows x looks), at least 0 rows
/// and looks counted as 1. REQUIRES: 0 < alpha < 0.5.
double FamilyLevel(double alpha, size_t rows, size_t looks);

/// `change` widened by a relative allowance on each side, on the ratio scale: (1 + lower) / (1 + a) - 1
/// and (1 + upper) (1 + a) - 1. The between-run noise a comparison of one run per side cannot see. An
/// infinite allowance gives [-1, +infinity]: no bound at all.
Interval WidenedBy(const Interval& change, double allowance);

}  // namespace dbxb
