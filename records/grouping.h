// How reporters group result records: one function per grouping, named for what it groups by. Every
// grouping keeps the records' order: groups in order of their first member, members in run order.
#pragma once

#include <string>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// Records of one group, in run order. REQUIRES: at least one member.
template <typename Record>
struct RecordGroup {
  std::vector<const Record*> members;
  const Record& first() const { return *members.front(); }
};
using BenchmarkGroup = RecordGroup<BenchmarkResult>;
using PhaseGroup = RecordGroup<PhaseResult>;

/// Benchmarks whose engines are compared in one table: the same suite, workload and parameters.
std::vector<BenchmarkGroup> GroupBenchmarksByWorkload(const RunResults& results);

/// Phases whose engines are compared with each other: the same phase of the same suite, workload and
/// data set, with the same threads, target rate and parameters.
std::vector<PhaseGroup> GroupPhasesByPhase(const RunResults& results);

/// The phases one engine ran on one database, in order: the same suite, workload, data set and engine.
std::vector<PhaseGroup> GroupPhasesBySequence(const RunResults& results);

/// The engines of the benchmarks, in order of first appearance.
std::vector<std::string> EnginesOfBenchmarks(const RunResults& results);

/// The engines of the benchmarks and then of the phases, in order of first appearance.
std::vector<std::string> EnginesOfRun(const RunResults& results);

}  // namespace dbxb
