// The phases of a run (YCSB, sqlite-vps) in results.md and on the console: one table per suite,
// workload, data set and engine, in the shape of the "SQLite on a $5 VPS" study.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// One line for the console when a phase finishes, e.g.
///   ycsb/workloada/run/sqlite: 12,345 ops/s (1,000 ops, 2 threads, 81.01 ms), p50 1.234 µs, p99 5.678 µs, p999 9.870
///   µs
/// plus ", open loop at 5,000 ops/s: from intended start p99 …" in open loop, " [incomplete]" for an
/// interrupted phase; a failed phase is "<name>: FAILED: <reason>". Ends with a newline.
std::string PhaseSummaryLine(const PhaseResult& p);

/// For every group of phases sharing suite, workload, dataset and engine (in order of first appearance):
///
///   ## ycsb / workloada / sqlite                (dataset, when set, after the workload)
///
///   | Phase | Throughput (ops/s) | p50 | p95 | p99 | p999 | Ops/hour |
///   |:--|--:|--:|--:|--:|--:|--:|
///   | load | 12,345 | 1.234 µs | ... | 44,442,000 |
///
/// Ops/hour is throughput × 3600. A failed phase shows "FAILED: <reason>"; an interrupted one is
/// named "<phase> (incomplete)". Under the table, one line per fact that changes how a row reads:
/// threads, rows per operation (batched loads, with rows/s), open loop (target rate and the latency
/// percentiles from the intended start), the memory method. Then, when a phase has more than one
/// operation type, a table per operation type:
///
///   | Phase | Operation | Count | Throughput (ops/s) | p50 | p95 | p99 | p999 |
///
/// Nothing is written when `results.phases` is empty.
void WritePhaseTables(const RunResults& results, std::ostream& out);

/// "## How phases are measured": generated from the recorded phases (closed/open loop, threads,
/// warm-up), for the Methodology part of results.md. Nothing when there are no phases.
void WritePhaseMethodology(const RunResults& results, std::ostream& out);

/// Failed or interrupted phases, one "⚠️ " sentence each (for the reading warnings).
std::vector<std::string> PhaseWarnings(const RunResults& results);

}  // namespace dbxb
