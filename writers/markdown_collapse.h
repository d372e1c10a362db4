// Cached vs disk-bound, side by side: how far each phase's throughput collapses when the data no longer
// fits in memory (the sqlite-vps study saw 43x for random primary-key reads).
#pragma once

#include <ostream>
#include <vector>

#include "records/result.h"
#include "writers/phase_pair.h"

namespace dbxb {

/// Pairs every phase with dataset "cached" (`first`) with the phase of the same suite, workload, phase
/// name and engine with dataset "disk-bound" (`second`), in order of the cached records; `ratio` is the
/// collapse, cached throughput ÷ disk-bound throughput. Phases found on one data set only are left out.
/// The rows point into `phases`, which must outlive them.
std::vector<PhasePair> CollapseTable(const std::vector<PhaseResult>& phases);

/// The same from two separate sets (e.g. two runs, one per data set); their dataset labels are not
/// looked at.
std::vector<PhasePair> CollapseTable(const std::vector<PhaseResult>& cached,
                                     const std::vector<PhaseResult>& disk_bound);

/// For each suite with rows (in order of first appearance):
///
///   ## Cached vs disk-bound: sqlite-vps
///
///   | Phase | Engine | Cached (ops/s) | Disk-bound (ops/s) | Collapse | Cached p50 | Disk-bound p50 | Cached p99 |
///   Disk-bound p99 |
///   |:--|:--|--:|--:|--:|--:|--:|--:|--:|
///   | select-pk | sqlite | 120,000 | 2,790 | 43.0× | 7.1 µs | 301 µs | 12 µs | 1.10 ms |
///
/// followed by a line defining the collapse and one naming each disk-bound memory method (from
/// PhaseResult::memory_method). A failed phase shows "FAILED" in its throughput and "—" as collapse.
/// Nothing is written when no phase was measured on both data sets.
void WriteCollapseTables(const std::vector<PhasePair>& rows, std::ostream& out);

/// WriteCollapseTables(CollapseTable(results.phases), out).
void WriteCollapseTables(const RunResults& results, std::ostream& out);

}  // namespace dbxb
