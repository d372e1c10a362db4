// Writers of a ComparisonReport (compare/compare.h): a console table, Markdown for a pull-request
// comment or $GITHUB_STEP_SUMMARY, and JSON for machines. They only format; the statistics, verdicts
// and the gate are decided in compare/compare.h.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "common/status.h"
#include "compare/compare.h"

namespace dbxb {

/// The version of the compare JSON document (its "version" field).
inline constexpr uint64_t kCompareJsonVersion = 1;

/// "+10.03%", "-0.52%", "+0.00%": a relative change with its sign, two decimals.
std::string FormatChange(double fraction);

/// "+10.03% [+8.12%, +11.95%]": the point and the interval of a relative change.
std::string FormatChangeInterval(const Interval& change);

/// "0.013", "< 0.001", "1.000".
std::string FormatPValue(double p);

/// The console table:
///
///   Baseline: results/baselines/main.json (host, 2026-11-30T15:34:56Z, commit 0123456)
///   Current:  results/pr/results.json (host, 2026-12-01T09:00:00Z, commit 89abcde)
///
///   Benchmark             Baseline   Current    Mean change [95 % CI]       Median change  p        Verdict
///   dbx-micro/get/sqlite  1.2100 µs  1.3310 µs  +10.00% [+8.12%, +11.95%]   +9.87%         < 0.001  regressed, over
///   the 5.00% gate
///
/// then the benchmarks that were not compared and why, the warnings, and one closing line with the
/// gate's result. Columns are padded by display width (UTF-8 aware).
Status WriteCompareConsole(const ComparisonReport& report, std::ostream& out);

/// Markdown: a heading that gives the gate's result (✅ / ❌), the two runs, warnings as a quote, one
/// table | Benchmark | Baseline | Current | Change [95 % CI] | p | Verdict | with ✅ (improved, no
/// change, within noise), ⚠️ (regressed within the threshold, failed, only on one side) and ❌
/// (regressed over the threshold), and a footnote with the method and settings.
Status WriteCompareMarkdown(const ComparisonReport& report, std::ostream& out);

/// The report as JSON (documented in docs/compare-and-report.md). Numbers that are not finite (an
/// absent side's mean) are written as null.
nlohmann::ordered_json CompareToJson(const ComparisonReport& report);

/// CompareToJson dumped with two-space indentation and a final newline.
std::string SerializeComparison(const ComparisonReport& report);

}  // namespace dbxb
