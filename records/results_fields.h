// The records of results.json (records/result.h), each described once: the list of its members with
// their JSON keys, in the order written (docs/results-schema.md). records/json_results.cc writes and
// records/json_results_reader.cc reads them through records/json_schema.h, so a new field is one line
// in its record's list here. The resources, instructions, sweep and capacity objects have theirs in
// records/resources_json.h and records/sweep_json.h.
#pragma once

#include "records/json_schema.h"
#include "records/resources_json.h"
#include "records/result.h"
#include "records/sweep_json.h"

namespace dbxb {

/// A sampling mode is written as its name, "linear" or "flat".
json_fields::Json WriteValue(SamplingMode mode);
Status ReadValue(const json_fields::Json& j, const std::string& path, SamplingMode* out);

DBXB_JSON_RECORD(Interval, point, lower, upper, std_error);

template <class V>
void Fields(V& v, json_fields::Record<Estimates> auto& e) {
  DBXB_JSON_FIELDS(v, e, mean, median, std_dev, median_abs_dev);
  v("slope", e.slope, json_fields::kMayBeAbsent);
}

DBXB_JSON_RECORD(OutlierCounts, low_severe, low_mild, high_mild, high_severe);

DBXB_JSON_RECORD(Sample, iterations, total_ns);

template <class V>
void Fields(V& v, json_fields::Record<SamplingConfig> auto& s) {
  DBXB_JSON_FIELDS(v, s, warmup_seconds, measurement_seconds, sample_count, bootstrap_resamples, confidence_level,
                   seed);
  v("forced_sampling_mode", s.forced_sampling_mode, json_fields::kMayBeAbsent);
}

template <class V>
void Fields(V& v, json_fields::Record<LibraryInfo> auto& r) {
  DBXB_JSON_FIELDS(v, r, engine, version, build);
  // Absent in files written before the provenance was recorded (2026-12-07).
  v("source", r.source, json_fields::kMayBeAbsent);
  v("flags", r.flags, json_fields::kMayBeAbsent);
  v("release_date", r.release_date, json_fields::kMayBeAbsent);
}

template <class V>
void Fields(V& v, json_fields::Record<CalibrationResult> auto& r) {
  using json_fields::kMayBeAbsent;
  DBXB_JSON_FIELDS(v, r, engine, workload, records, rounds);
  v.ReadFirst("error", r.error);  // it says whether the timings are there
  if (r.error.empty()) {          // a failed loop has none
    DBXB_JSON_FIELDS(v, r, harness_ns_per_op, native_ns_per_op, ratio, min_ratio);
    // Written together when either has rounds; absent in older files.
    if (v.Present(!r.harness_round_ns.empty() || !r.native_round_ns.empty(), {"harness_round_ns", "native_round_ns"})) {
      v("harness_round_ns", r.harness_round_ns, kMayBeAbsent);
      v("native_round_ns", r.native_round_ns, kMayBeAbsent);
    }
  }
  DBXB_JSON_FIELDS(v, r, error);
}

template <class V>
void Fields(V& v, json_fields::Record<RunContext> auto& c) {
  using json_fields::kMayBeAbsent;
  DBXB_JSON_FIELDS(v, c, date_utc, host_name, cpu_model, num_cpus, cpu_mhz, cpu_scaling_enabled, load_avg, memory_bytes,
                   kernel, compiler, compiler_flags, build_type, git_commit, git_dirty, tool_version, libraries,
                   command_line);
  v("merged_files", c.merged_files, kMayBeAbsent);
  DBXB_JSON_FIELDS(v, c, configuration, seed, sampling);
  v("harness_overhead_ns_per_op", c.harness_overhead_ns_per_op, kMayBeAbsent);
  v("calibration", c.calibration, kMayBeAbsent);  // absent before `run --calibrate`
  DBXB_JSON_FIELDS(v, c, incomplete);
}

template <class V>
void Fields(V& v, json_fields::Record<BenchmarkResult> auto& b) {
  using json_fields::kMayBeAbsent;
  DBXB_JSON_FIELDS(v, b, suite, workload, engine, parameters, engine_settings, sampling_mode);
  v.Object("warmup", [&b](auto& w) {
    w("iterations", b.warmup_iterations);
    w("total_ns", b.warmup_ns);
  });
  DBXB_JSON_FIELDS(v, b, elements_per_iteration, samples, sampling_notes, estimates, outliers, throughput, checksum);
  v.Check(!(b.throughput.point < 0), "throughput.point", "a throughput cannot be negative");
  v("resources", b.resources, kMayBeAbsent);
  v("settle_ns", b.settle_ns, kMayBeAbsent);
  DBXB_JSON_FIELDS(v, b, error_occurred, error_message);
  v("instructions", b.instructions, json_fields::kOmitIfEmpty);  // `run --measure instructions` only
}

template <class V>
void Fields(V& v, json_fields::Record<LatencySummary> auto& l) {
  DBXB_JSON_FIELDS(v, l, count, mean_ns, stddev_ns, min_ns, p50_ns, p90_ns, p95_ns, p99_ns, p999_ns, p9999_ns, max_ns,
                   percentile_curve);
  v("hdr_histogram", l.hdr_histogram, json_fields::kMayBeAbsent);
}

template <class V>
void Fields(V& v, json_fields::Record<OpTypeResult> auto& o) {
  DBXB_JSON_FIELDS(v, o, name, count, throughput_ops_per_sec, service_time);
  v.Check(!(o.throughput_ops_per_sec < 0), "throughput_ops_per_sec", "a throughput cannot be negative");
  v("latency_from_intended_start", o.latency_from_intended_start, json_fields::kMayBeAbsent);
}

DBXB_JSON_RECORD(SecondSample, second, operations, ops_per_sec, p99_ns);

DBXB_JSON_RECORD(PhaseSource, file, host_name, start_unix_s, duration_ns, threads, operations, throughput_ops_per_sec);

template <class V>
void Fields(V& v, json_fields::Record<PhaseResult> auto& p) {
  using json_fields::kMayBeAbsent;
  using json_fields::kOmitIfEmpty;
  DBXB_JSON_FIELDS(v, p, suite, workload, phase, engine, dataset, parameters, engine_settings, threads, target_rate,
                   rows_per_operation, warmup_operations, duration_ns);
  v("start_unix_s", p.start_unix_s, kMayBeAbsent);
  DBXB_JSON_FIELDS(v, p, operations, throughput_ops_per_sec, service_time);
  v.Check(!(p.duration_ns < 0), "duration_ns", "a duration cannot be negative");
  v.Check(!(p.throughput_ops_per_sec < 0), "throughput_ops_per_sec", "a throughput cannot be negative");
  v("latency_from_intended_start", p.latency_from_intended_start, kMayBeAbsent);
  v("late_operations", p.late_operations, kOmitIfEmpty);  // open loop only: closed-loop files are unchanged
  DBXB_JSON_FIELDS(v, p, per_op, per_second);
  v("merged_from", p.merged_from, kMayBeAbsent);  // absent in phases that were not merged
  v("merged_throughput", p.merged_throughput, kMayBeAbsent);
  v("settle_ns", p.settle_ns, kMayBeAbsent);
  DBXB_JSON_FIELDS(v, p, memory_method);
  v("resources", p.resources, kMayBeAbsent);
  DBXB_JSON_FIELDS(v, p, incomplete, error_occurred, error_message);
  v("bounded_by_duration", p.bounded_by_duration, kOmitIfEmpty);  // absent: ended after its operation count
}

}  // namespace dbxb
