// SQLite vs PostgreSQL, phase by phase: the question the sqlite-vps study asks ("when should I move to
// a client-server database?"), answered from the results whenever both engines ran the same phases.
#pragma once

#include <ostream>
#include <vector>

#include "records/result.h"
#include "writers/phase_pair.h"

namespace dbxb {

/// Pairs every phase of engine "sqlite" (`first`) with the phase of the same suite, workload, data set
/// and name of engine "postgres" (`second`), in order of the sqlite records; `ratio` is PostgreSQL
/// throughput ÷ SQLite throughput. The rows point into `phases`.
std::vector<PhasePair> VersusTable(const std::vector<PhaseResult>& phases);

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
