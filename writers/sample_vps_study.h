// Test data for the tables of phases measured twice (writers/phase_pair.h): one sqlite-vps run with
// SQLite, PostgreSQL and LMDB on the cached and the disk-bound data set, some failed, some without a
// partner. Header-only, for the collapse and the SQLite-vs-PostgreSQL tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "records/result.h"
#include "tests/fixtures/sample_phases.h"

namespace dbxb::testdata {

/// VpsPhase; a disk-bound phase also says how its memory was limited, as the runner records it.
inline PhaseResult StudyPhase(std::string phase, std::string engine, std::string dataset, double ops_per_sec,
                              double p50_ns, double p99_ns) {
  PhaseResult p = VpsPhase(std::move(phase), std::move(engine), std::move(dataset), ops_per_sec, p50_ns, p99_ns);
  if (p.dataset == "disk-bound") p.memory_method = "cgroup-v1 memory.limit_in_bytes=1073741824";
  return p;
}

/// The run, in this order:
///   0 select-pk sqlite cached        5 select-pk lmdb cached
///   1 select-pk postgres cached      6 select-pk sqlite disk-bound
///   2 update sqlite cached           7 select-pk postgres disk-bound (failed)
///   3 update postgres cached         8 select-pk lmdb disk-bound (failed: measured nothing)
///   4 range-scan sqlite cached       9 insert sqlite disk-bound
/// range-scan and insert have no partner on the other data set nor on the other engine.
inline std::vector<PhaseResult> VpsStudyPhases() {
  std::vector<PhaseResult> phases = {
      StudyPhase("select-pk", "sqlite", "cached", 150'000, 6'000, 12'000),
      StudyPhase("select-pk", "postgres", "cached", 20'000, 48'000, 90'000),
      StudyPhase("update", "sqlite", "cached", 3'000, 300'000, 900'000),
      StudyPhase("update", "postgres", "cached", 6'000, 150'000, 400'000),
      StudyPhase("range-scan", "sqlite", "cached", 40'000, 1, 1),
      StudyPhase("select-pk", "lmdb", "cached", 300'000, 3'000, 6'000),
      StudyPhase("select-pk", "sqlite", "disk-bound", 3'000, 300'000, 700'000),
      StudyPhase("select-pk", "postgres", "disk-bound", 0, 0, 0),
      StudyPhase("select-pk", "lmdb", "disk-bound", 0, 0, 0),
      StudyPhase("insert", "sqlite", "disk-bound", 3'000, 1, 1),
  };
  phases[7].error_occurred = true;
  phases[8].error_occurred = true;
  phases[8].error_message = "Corruption: row 5";
  return phases;
}

}  // namespace dbxb::testdata
