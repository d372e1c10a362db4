// SQLite vs PostgreSQL, phase by phase: the question the sqlite-vps study asks ("when should I move to
// a client-server database?"), answered from the results whenever both engines ran the same phases.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"
#include "writers/markdown_collapse.h"

namespace dbxb {

/// One phase measured on both engines on one data set.
struct VersusRow {
  std::string suite;
  std::string workload;
  std::string dataset;
  std::string phase;
  const PhaseResult* sqlite = nullptr;  ///< points into the records given
  const PhaseResult* postgres = nullptr;
  /// PostgreSQL throughput ÷ SQLite throughput; empty when either failed or SQLite's throughput is 0.
  std::optional<double> ratio;
};

/// Pairs every phase of engine "sqlite" with the phase of the same suite, workload, data set and name
/// of engine "postgres", in order of the sqlite records. The rows point into `phases`.
std::vector<VersusRow> VersusTable(const std::vector<PhaseResult>& phases);

/// For each suite with rows:
///
///   ## SQLite vs PostgreSQL: sqlite-vps
///
///   | Data set | Phase | SQLite (ops/s) | PostgreSQL (ops/s) | PostgreSQL ÷ SQLite | SQLite p50 | ...
///   | cached | select-pk | 150,000 | 20,000 | 0.133× | 6.00 µs | 48.0 µs | ...
///
/// then, when both data sets were measured, each engine's collapse (cached ÷ disk-bound throughput)
/// per phase, and one line per data set counting the phases each engine was faster in. Nothing is
/// written when no phase was measured on both engines.
void WriteSqliteVsPostgres(const RunResults& results, std::ostream& out);

}  // namespace dbxb
