// A sweep: several complete runs in one (`run --threads 1,2,4`), one per point, each with its own settings,
// work directory and verification, combined into one RunResults whose records carry the point's values
// as "sweep.<name>" parameters (records/sweep_record.h) and whose `sweep` describes the dimensions and how
// each point ended. A point that fails is recorded as failed and the sweep goes on; an interrupt ends it.
#pragma once

#include <string>
#include <vector>

#include "harness/run_plan.h"
#include "harness/runner.h"
#include "records/result.h"

namespace dbxb {

/// One point: its values (dimension name, value) and its validated plan.
struct SweepPointPlan {
  KeyValues values;
  RunPlan plan;
};

/// Runs every point with ExecutePlan, in order, into *results (context from the first point that ran,
/// with each swept configuration entry listing every value; records tagged; results->sweep filled).
/// Progress, one line per point (its values, then its figures), goes to env.progress. Non-OK only when
/// no point could run at all (the first point's error).
[[nodiscard]] Status ExecuteSweep(const std::vector<SweepDimension>& dimensions, std::vector<SweepPointPlan>& points,
                                  const RunEnvironment& env, RunResults* results);

/// Adds the point's values to every record of `point` as "sweep.<name>" parameters (replacing any
/// already there).
void TagSweepPoint(const KeyValues& values, RunResults* point);

/// "threads=4, durability=full".
std::string SweepPointName(const KeyValues& values);

/// The one progress line of a finished point: each benchmark's throughput, each phase's throughput
/// and p99, each capacity, e.g. "get: dbx 9.81 M/s, lmdb 7.12 M/s".
std::string SweepPointSummary(const RunResults& point);

}  // namespace dbxb
