// Writers of a ComparisonReport (compare/report.h): a console table, Markdown for a pull-request
// comment or $GITHUB_STEP_SUMMARY, and JSON for machines. They only format; the statistics, verdicts
// and the gate are decided in compare/. Every metric's unit and format come from its row of the metric
// table (compare/metrics.h).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "common/status.h"
#include "compare/report.h"

namespace dbxb {

/// The version of the compare JSON document (its "version" field).
inline constexpr uint64_t kCompareJsonVersion = 2;

/// "+10.03%", "-0.52%", "+0.00%", "+inf%": a relative change with its sign, two decimals. Every change
/// and ratio a comparison shows is written this way.
std::string FormatChange(double fraction);

/// "+10.03% [+8.12%, +11.95%]": the point and the interval of a relative change.
std::string FormatChangeInterval(const Interval& change);

/// A value of `metric` in its unit ("1.210 µs", "18.000 Kop/s", "2.00", "16.0 KiB"); "—" for NaN.
std::string FormatMetricValue(const Metric& metric, double value);

/// True when a row is shown in the tables: every row but a counter that did not change at all (its
/// interval is exactly 0) and a micro-benchmark's mean row that tells the same as its typical row (the
/// same verdict, points within half the threshold). Hidden rows stay in the JSON.
bool ShownInTables(const ComparisonReport& report, const MetricComparison& row);

/// The console table:
///
///   Baseline: results/baselines/main.json (host, 2026-11-30T15:34:56Z, commit 0123456)
///   Current:  results/pr/results.json (host, 2026-12-01T09:00:00Z, commit 89abcde)
///
///   Benchmark             Baseline   Current    Change [interval]           Verdict
///   dbx-micro/get/sqlite  1.2100 µs  1.3310 µs  +10.00% [+8.12%, +11.95%]   regressed
///
/// then the rows that were not compared and why, the warnings, the families' levels, the smallest
/// regression the comparison could detect, and one closing line with the gate's result. Columns are
/// padded by display width (UTF-8 aware).
Status WriteCompareConsole(const ComparisonReport& report, std::ostream& out);

/// Markdown: a heading that gives the gate's result (✅ / ❌), the two runs, warnings as a quote, one
/// table | Benchmark | Baseline | Current | Change [interval] | Verdict | with ✅ (no regression, improved),
/// ⚠️ (inconclusive, failed, one side only) and ❌ (regressed; inconclusive with --fail-on-inconclusive),
/// and a footnote with the method, the levels and the settings.
Status WriteCompareMarkdown(const ComparisonReport& report, std::ostream& out);

/// The report as JSON (documented in docs/compare-and-report.md). Numbers that are not finite (an
/// absent side, an unbounded interval) are written as null.
nlohmann::ordered_json CompareToJson(const ComparisonReport& report);

/// CompareToJson dumped with two-space indentation and a final newline.
std::string SerializeComparison(const ComparisonReport& report);

}  // namespace dbxb
