// results.md: the comparison tables of a run in the shape of the DBX comparison page, followed by a
// Methodology section generated from the recorded configuration (writers/markdown_methodology.h).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "common/status.h"
#include "records/result.h"
#include "writers/reporter.h"

namespace dbxb {

/// The engine of the first benchmark in `results`, or "" when there is none.
std::string DefaultBaselineEngine(const RunResults& results);

/// The engine the tables compare with: `chosen`, or DefaultBaselineEngine(results) when `chosen` is empty.
std::string BaselineEngine(const RunResults& results, std::string_view chosen);

/// How a mean compares with the baseline's: "2.31× faster" when mean_ns is smaller, "1.52× slower"
/// when larger (ratios of the means, two decimals), "n/a" when either is not a positive number.
std::string FormatSpeedup(double baseline_mean_ns, double mean_ns);

/// Writes one Markdown table per group of benchmarks sharing suite, workload and parameters, in order
/// of first appearance:
///
///   ## dbx-micro / get
///
///   Parameters: records=10000, key_size=12, value_size=19, durability=normal
///
///   | Engine | Mean | ± Std dev | 95 % CI | Throughput (rec/s) | vs sqlite | Rank |
///
/// Engines appear in run order. Mean, std dev and the confidence interval of the mean are the
/// recorded estimates; throughput is the recorded point estimate ("—" without elements); "vs <baseline>" compares the
/// means (FormatSpeedup; "1.00× (baseline)" on the baseline's row, "n/a" when the group has no successful baseline);
/// rank orders successful benchmarks by mean (equal means share a rank). A failed benchmark shows "FAILED: <reason>"
/// and no rank. The CI header follows context.sampling.confidence_level. This is the one table renderer: the console
/// reporter prints the same tables.
void WriteComparisonTables(const RunResults& results, std::string_view baseline_engine, std::ostream& out);

class MarkdownReporter : public Reporter {
 public:
  /// `baseline_engine` empty: DefaultBaselineEngine of the results being written.
  explicit MarkdownReporter(std::string baseline_engine = "");

  /// Title and run line, reading warnings (ReadingWarnings), the comparison tables, then the
  /// Methodology section.
  Status Write(const RunResults& results, std::ostream& out) override;

 private:
  std::string baseline_engine_;
};

}  // namespace dbxb
