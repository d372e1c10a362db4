// The sqlite-vps suite: the study "SQLite on a $5 VPS" (seven phases, latency percentiles, cached and
// disk-bound) run identically on every engine. Sizes, settings and phases: vps_config.h; what each phase
// does: vps_phases.h; the data: vps_data.h.
//
// One PhaseSequence per data set and engine, on a fresh database in
// <work_dir>/sqlite-vps-<engine>-<dataset>, removed by Close(). The phases run in order on that one
// database (bulk-insert creates the rows the later phases read; when bulk-insert is not selected, Open
// loads the rows untimed).
//
// Memory limits are not applied by these sequences: the suite's plan (vps_suite_plan.cc) runs the
// disk-bound ones under harness/memory/memory_limit.h's WithMemoryLimit, and the phase runner records each
// phase's kMemoryMethodParameter as PhaseResult::memory_method.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "workloads/phase.h"
#include "workloads/sqlite_vps/vps_config.h"

namespace dbxb {

/// The suite's name in results ("sqlite-vps").
inline constexpr char kSqliteVpsSuite[] = "sqlite-vps";

class Suite;
/// The suite for `run --suite`, its options and plan (workloads/suite.h); registered in builtin_suites.cc.
std::unique_ptr<Suite> NewSqliteVpsSuite();

/// The sequences of one engine, one per data set in config.datasets, not yet opened. InvalidArgument for
/// options the suite cannot honour (see ResolveVpsPlan) and for an engine that stores nothing (null).
Result<std::vector<std::unique_ptr<PhaseSequence>>> MakeSqliteVpsSequences(const AdapterFactory& engine,
                                                                           const PhaseSuiteOptions& options,
                                                                           const SqliteVpsConfig& config);

/// MakeSqliteVpsSequences with `config` bound, in the form the runner asks suites for their work.
PhaseSequencesFactory SqliteVpsSequencesFactory(SqliteVpsConfig config);

}  // namespace dbxb
