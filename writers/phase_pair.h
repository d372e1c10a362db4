// One phase measured twice, side by side: by one engine on two data sets (cached vs disk-bound,
// writers/markdown_collapse.h) or by two engines on one data set (SQLite vs PostgreSQL,
// writers/markdown_versus.h). The pairing and the cells both tables share.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// One phase measured on two sides; the names are those of `first`.
struct PhasePair {
  std::string suite;
  std::string workload;
  std::string dataset;
  std::string phase;
  std::string engine;
  const PhaseResult* first = nullptr;  ///< points into the records given
  const PhaseResult* second = nullptr;
  /// A throughput ratio (PairRatio says which way); empty when either side failed or the divisor's
  /// throughput is 0.
  std::optional<double> ratio;
};

/// Which way a pair's ratio divides the two throughputs.
enum class PairRatio { kFirstOverSecond, kSecondOverFirst };

/// Whether `second` is the partner of `first`.
using PhaseMatch = std::function<bool(const PhaseResult& first, const PhaseResult& second)>;

/// Pairs every phase of `firsts` with the first phase of `seconds` that `match` accepts, in order of
/// `firsts`; a phase with no partner is left out. The pairs point into both vectors, which must
/// outlive them.
std::vector<PhasePair> PairPhases(const std::vector<PhaseResult>& firsts, const std::vector<PhaseResult>& seconds,
                                  const PhaseMatch& match, PairRatio ratio);

/// The suites of `pairs`, each once, in order of first appearance.
std::vector<std::string> SuitesOf(const std::vector<PhasePair>& pairs);

/// "workload/phase", or the phase alone when the workload is empty.
std::string PhaseLabel(const PhasePair& pair);

/// A ratio as a table cell: "43.0×", or "—" when empty.
std::string FormatRatio(const std::optional<double>& ratio);

/// The header of a table of pairs, two label columns then the measurements of both sides:
///   | <label1> | <label2> | <first> (ops/s) | <second> (ops/s) | <ratio> | <first> p50 | <second> p50 |
///   <first> p99 | <second> p99 |
/// and its alignment row.
void WritePairTableHeader(std::string_view label1, std::string_view label2, std::string_view first,
                          std::string_view second, std::string_view ratio, std::ostream& out);

/// One row of that table: | <label1> | <label2> | 120,000 | 2,790 | 43.0× | 7.10 µs | 301 µs | 12.0 µs | 1.10 ms |
/// A failed side shows "FAILED" as throughput and "—" as latencies (so does one with no operations).
void WritePairRow(std::string_view label1, std::string_view label2, const PhasePair& pair, std::ostream& out);

}  // namespace dbxb
