// The `sweep` and `capacity` members of results.json (records/sweep_record.h; fields in
// docs/results-schema.md). Both are written only when the run has them, so files of runs without a
// sweep or a capacity search are unchanged, and files from before either existed still read. Each list
// below is the one description of its record's JSON, which records/json_schema.h writes and reads: a
// new field is one line here. Capacity figures are written with NonFinite::kZero.
#pragma once

#include "records/json_schema.h"
#include "records/sweep_record.h"

namespace dbxb {

template <class V>
void Fields(V& v, json_fields::Record<SweepDimension> auto& d) {
  DBXB_JSON_FIELDS(v, d, name, option, values);
  v.Check(!d.values.empty(), "values", "a dimension needs at least one value");
}

DBXB_JSON_RECORD(SweepPoint, values, status, message, seconds);

template <class V>
void Fields(V& v, json_fields::Record<SweepInfo> auto& s) {
  DBXB_JSON_FIELDS(v, s, dimensions);
  v.Check(!s.dimensions.empty(), "dimensions", "a sweep needs a dimension");
  DBXB_JSON_FIELDS(v, s, points);
}

DBXB_JSON_RECORD(StepLatency, sla_percentile_ns, p50_ns, p99_ns, p999_ns, max_ns);

template <class V>
void Fields(V& v, json_fields::Record<CapacityStep> auto& s) {
  DBXB_JSON_FIELDS(v, s, role, target_rate, achieved_ops_per_sec, operations, duration_ns, warmup_operations,
                   late_operations, dropped_operations, service_time, from_intended, met_sla, kept_up, settle_ns,
                   error);
  v.Check(!(s.target_rate < 0), "target_rate", "a rate cannot be negative");
  v.Check(!(s.achieved_ops_per_sec < 0), "achieved_ops_per_sec", "a throughput cannot be negative");
}

/// Why the capacity of `c` contradicts its steps (the figure is the target rate of the passing step
/// lower_step names, 0 when none passed; no step above it passed; upper_step names a failing step above
/// it), or "" when it does not.
std::string CapacityContradiction(const CapacityResult& c);

/// Moves a "memory_method" parameter (where the first files kept it) to its own field.
void TakeMemoryMethodParameter(CapacityResult* c);

template <class V>
void Fields(V& v, json_fields::Record<CapacityResult> auto& c) {
  DBXB_JSON_FIELDS(v, c, suite, workload, dataset, phase, engine, parameters);
  if (v.Present(true, {"memory_method"})) {
    DBXB_JSON_FIELDS(v, c, memory_method);
  } else if constexpr (V::kReading) {
    TakeMemoryMethodParameter(&c);
  }
  DBXB_JSON_FIELDS(v, c, threads, sla, percentile, bound_ns, latency, keep_up, resolution, capacity_ops_per_sec,
                   lower_step, upper_step, steps);
  const int n = static_cast<int>(c.steps.size());
  v.Check(c.lower_step >= -1 && c.lower_step < n && c.upper_step >= -1 && c.upper_step < n, nullptr,
          "lower_step or upper_step is not -1 or an index into steps");
  if constexpr (V::kReading) {
    const std::string contradiction = v.status().ok() ? CapacityContradiction(c) : "";
    v.Check(contradiction.empty(), "capacity_ops_per_sec", contradiction);
  }
  DBXB_JSON_FIELDS(v, c, search_seconds, measured_seconds, harness_floor_ns, note, error_occurred, error_message);
}

}  // namespace dbxb
