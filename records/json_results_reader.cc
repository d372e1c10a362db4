// The strict reader of results.json (the writer is json_results.cc). Each function checks one level
// of the document and names a failing field by its path ("benchmarks[3].samples[0].iterations"), so
// that a hand-edited or damaged file can be fixed.
#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/json_fields.h"
#include "records/json_results.h"
#include "records/resources_json.h"
#include "records/sweep_json.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;
using namespace json_fields;  // NOLINT: the one set of field readers (records/json_fields.h)

Status GetKeyValues(const Json& obj, const std::string& path, std::string_view key, KeyValues* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(GetObject(obj, path, key, &j));
  std::string here = Member(path, key);
  out->clear();
  for (auto it = j->begin(); it != j->end(); ++it) {
    if (!it.value().is_string()) return TypeError(Member(here, it.key()), "string", it.value());
    out->emplace_back(it.key(), it.value().get<std::string>());
  }
  return Status::Ok();
}

Status ParseSamplingMode(const Json& j, const std::string& path, SamplingMode* out) {
  if (!j.is_string()) return TypeError(path, "\"linear\" or \"flat\"", j);
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "linear")
    *out = SamplingMode::kLinear;
  else if (s == "flat")
    *out = SamplingMode::kFlat;
  else
    return Status::InvalidArgument(fmt::format("{}: expected \"linear\" or \"flat\", got \"{}\"", path, s));
  return Status::Ok();
}

Status IntervalFromJson(const Json& j, const std::string& path, Interval* out) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "point", &out->point));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "lower", &out->lower));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "upper", &out->upper));
  return GetDouble(j, path, "std_error", &out->std_error);
}

Status GetInterval(const Json& obj, const std::string& path, std::string_view key, Interval* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  return IntervalFromJson(*j, Member(path, key), out);
}

Status SamplingFromJson(const Json& j, const std::string& path, SamplingConfig* s) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "warmup_seconds", &s->warmup_seconds));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "measurement_seconds", &s->measurement_seconds));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "sample_count", &s->sample_count));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "bootstrap_resamples", &s->bootstrap_resamples));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "confidence_level", &s->confidence_level));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "seed", &s->seed));
  const Json* forced;
  DBXB_RETURN_IF_ERROR(Find(j, path, "forced_sampling_mode", true, &forced));
  s->forced_sampling_mode.reset();
  if (forced != nullptr && !forced->is_null()) {
    SamplingMode mode;
    DBXB_RETURN_IF_ERROR(ParseSamplingMode(*forced, Member(path, "forced_sampling_mode"), &mode));
    s->forced_sampling_mode = mode;
  }
  return Status::Ok();
}

// Reads context.libraries: one {engine, version, build} object per linked engine library.
Status LibrariesFromJson(const Json& j, const std::string& path, std::vector<LibraryInfo>* out) {
  const Json* libs;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "libraries", &libs));
  out->clear();
  for (size_t i = 0; i < libs->size(); ++i) {
    const Json& lib = (*libs)[i];
    std::string here = Element(Member(path, "libraries"), i);
    LibraryInfo info;
    DBXB_RETURN_IF_ERROR(AsObject(lib, here));
    DBXB_RETURN_IF_ERROR(GetString(lib, here, "engine", &info.engine));
    DBXB_RETURN_IF_ERROR(GetString(lib, here, "version", &info.version));
    DBXB_RETURN_IF_ERROR(GetString(lib, here, "build", &info.build));
    out->push_back(std::move(info));
  }
  return Status::Ok();
}

// Reads the optional context.merged_files: the names of the files a `merge` combined.
Status MergedFilesFromJson(const Json& j, const std::string& path, std::vector<std::string>* out) {
  const Json* merged;
  DBXB_RETURN_IF_ERROR(Find(j, path, "merged_files", true, &merged));
  out->clear();
  if (merged == nullptr) return Status::Ok();
  if (!merged->is_array()) return TypeError(Member(path, "merged_files"), "array", *merged);
  for (size_t i = 0; i < merged->size(); ++i) {
    const Json& f = (*merged)[i];
    if (!f.is_string()) return TypeError(Element(Member(path, "merged_files"), i), "string", f);
    out->push_back(f.get<std::string>());
  }
  return Status::Ok();
}

// Reads one row of context.calibration; the timings are present only when the row has no error.
Status CalibrationRowFromJson(const Json& row, const std::string& here, CalibrationResult* r) {
  DBXB_RETURN_IF_ERROR(AsObject(row, here));
  DBXB_RETURN_IF_ERROR(GetString(row, here, "engine", &r->engine));
  DBXB_RETURN_IF_ERROR(GetString(row, here, "workload", &r->workload));
  DBXB_RETURN_IF_ERROR(GetUint(row, here, "records", &r->records));
  DBXB_RETURN_IF_ERROR(GetUint(row, here, "rounds", &r->rounds));
  DBXB_RETURN_IF_ERROR(GetString(row, here, "error", &r->error));
  if (!r->error.empty()) return Status::Ok();
  DBXB_RETURN_IF_ERROR(GetDouble(row, here, "harness_ns_per_op", &r->harness_ns_per_op));
  DBXB_RETURN_IF_ERROR(GetDouble(row, here, "native_ns_per_op", &r->native_ns_per_op));
  DBXB_RETURN_IF_ERROR(GetDouble(row, here, "ratio", &r->ratio));
  DBXB_RETURN_IF_ERROR(GetDouble(row, here, "min_ratio", &r->min_ratio));
  DBXB_RETURN_IF_ERROR(GetDoubles(row, here, "harness_round_ns", /*optional=*/true, &r->harness_round_ns));
  return GetDoubles(row, here, "native_round_ns", /*optional=*/true, &r->native_round_ns);
}

// Reads context.calibration; absent in files from before `run --calibrate`: read as not calibrated.
Status CalibrationFromJson(const Json& j, const std::string& path, std::vector<CalibrationResult>* out) {
  const Json* calibration;
  DBXB_RETURN_IF_ERROR(Find(j, path, "calibration", true, &calibration));
  out->clear();
  if (calibration == nullptr) return Status::Ok();
  const std::string list = Member(path, "calibration");
  if (!calibration->is_array()) return TypeError(list, "array", *calibration);
  for (size_t i = 0; i < calibration->size(); ++i) {
    CalibrationResult r;
    DBXB_RETURN_IF_ERROR(CalibrationRowFromJson((*calibration)[i], Element(list, i), &r));
    out->push_back(std::move(r));
  }
  return Status::Ok();
}

Status ContextFromJson(const Json& j, const std::string& path, RunContext* c) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "date_utc", &c->date_utc));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "host_name", &c->host_name));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "cpu_model", &c->cpu_model));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "num_cpus", &c->num_cpus));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "cpu_mhz", &c->cpu_mhz));
  DBXB_RETURN_IF_ERROR(GetBool(j, path, "cpu_scaling_enabled", &c->cpu_scaling_enabled));
  DBXB_RETURN_IF_ERROR(GetDoubles(j, path, "load_avg", /*optional=*/false, &c->load_avg));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "memory_bytes", &c->memory_bytes));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "kernel", &c->kernel));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "compiler", &c->compiler));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "compiler_flags", &c->compiler_flags));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "build_type", &c->build_type));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "git_commit", &c->git_commit));
  DBXB_RETURN_IF_ERROR(GetBool(j, path, "git_dirty", &c->git_dirty));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "tool_version", &c->tool_version));
  DBXB_RETURN_IF_ERROR(LibrariesFromJson(j, path, &c->libraries));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "command_line", &c->command_line));
  DBXB_RETURN_IF_ERROR(MergedFilesFromJson(j, path, &c->merged_files));
  DBXB_RETURN_IF_ERROR(GetKeyValues(j, path, "configuration", &c->configuration));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "seed", &c->seed));
  const Json* sampling;
  DBXB_RETURN_IF_ERROR(Find(j, path, "sampling", false, &sampling));
  DBXB_RETURN_IF_ERROR(SamplingFromJson(*sampling, Member(path, "sampling"), &c->sampling));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(j, path, "harness_overhead_ns_per_op", true, &c->harness_overhead_ns_per_op));
  DBXB_RETURN_IF_ERROR(CalibrationFromJson(j, path, &c->calibration));
  return GetBool(j, path, "incomplete", &c->incomplete);
}

Status EstimatesFromJson(const Json& j, const std::string& path, Estimates* e) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetInterval(j, path, "mean", &e->mean));
  DBXB_RETURN_IF_ERROR(GetInterval(j, path, "median", &e->median));
  DBXB_RETURN_IF_ERROR(GetInterval(j, path, "std_dev", &e->std_dev));
  DBXB_RETURN_IF_ERROR(GetInterval(j, path, "median_abs_dev", &e->median_abs_dev));
  const Json* slope;
  DBXB_RETURN_IF_ERROR(Find(j, path, "slope", true, &slope));
  e->slope.reset();
  if (slope != nullptr && !slope->is_null()) {
    Interval i;
    DBXB_RETURN_IF_ERROR(IntervalFromJson(*slope, Member(path, "slope"), &i));
    e->slope = i;
  }
  return Status::Ok();
}

Status BenchmarkFromJson(const Json& j, const std::string& path, BenchmarkResult* b) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "suite", &b->suite));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "workload", &b->workload));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "engine", &b->engine));
  DBXB_RETURN_IF_ERROR(GetKeyValues(j, path, "parameters", &b->parameters));
  DBXB_RETURN_IF_ERROR(GetKeyValues(j, path, "engine_settings", &b->engine_settings));
  const Json* mode;
  DBXB_RETURN_IF_ERROR(Find(j, path, "sampling_mode", false, &mode));
  DBXB_RETURN_IF_ERROR(ParseSamplingMode(*mode, Member(path, "sampling_mode"), &b->sampling_mode));
  const Json* warmup;
  DBXB_RETURN_IF_ERROR(GetObject(j, path, "warmup", &warmup));
  DBXB_RETURN_IF_ERROR(GetUint(*warmup, Member(path, "warmup"), "iterations", &b->warmup_iterations));
  DBXB_RETURN_IF_ERROR(GetDouble(*warmup, Member(path, "warmup"), "total_ns", &b->warmup_ns));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "elements_per_iteration", &b->elements_per_iteration));
  const Json* samples;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "samples", &samples));
  b->samples.clear();
  for (size_t i = 0; i < samples->size(); ++i) {
    const Json& s = (*samples)[i];
    std::string here = Element(Member(path, "samples"), i);
    Sample sample;
    DBXB_RETURN_IF_ERROR(AsObject(s, here));
    DBXB_RETURN_IF_ERROR(GetUint(s, here, "iterations", &sample.iterations));
    DBXB_RETURN_IF_ERROR(GetDouble(s, here, "total_ns", &sample.total_ns));
    b->samples.push_back(sample);
  }
  const Json* notes;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "sampling_notes", &notes));
  b->sampling_notes.clear();
  for (size_t i = 0; i < notes->size(); ++i) {
    const Json& note = (*notes)[i];
    if (!note.is_string()) return TypeError(Element(Member(path, "sampling_notes"), i), "string", note);
    b->sampling_notes.push_back(note.get<std::string>());
  }
  const Json* estimates;
  DBXB_RETURN_IF_ERROR(Find(j, path, "estimates", false, &estimates));
  DBXB_RETURN_IF_ERROR(EstimatesFromJson(*estimates, Member(path, "estimates"), &b->estimates));
  const Json* outliers;
  DBXB_RETURN_IF_ERROR(GetObject(j, path, "outliers", &outliers));
  std::string opath = Member(path, "outliers");
  DBXB_RETURN_IF_ERROR(GetUint(*outliers, opath, "low_severe", &b->outliers.low_severe));
  DBXB_RETURN_IF_ERROR(GetUint(*outliers, opath, "low_mild", &b->outliers.low_mild));
  DBXB_RETURN_IF_ERROR(GetUint(*outliers, opath, "high_mild", &b->outliers.high_mild));
  DBXB_RETURN_IF_ERROR(GetUint(*outliers, opath, "high_severe", &b->outliers.high_severe));
  DBXB_RETURN_IF_ERROR(GetInterval(j, path, "throughput", &b->throughput));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "checksum", &b->checksum));
  DBXB_RETURN_IF_ERROR(ResourcesFromJson(j, path, &b->resources));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(j, path, "settle_ns", true, &b->settle_ns));
  DBXB_RETURN_IF_ERROR(InstructionsFromJson(j, path, &b->instructions));
  DBXB_RETURN_IF_ERROR(GetBool(j, path, "error_occurred", &b->error_occurred));
  return GetString(j, path, "error_message", &b->error_message);
}

Status LatencyFromJson(const Json& j, const std::string& path, LatencySummary* l) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "count", &l->count));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "mean_ns", &l->mean_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "stddev_ns", &l->stddev_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "min_ns", &l->min_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p50_ns", &l->p50_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p90_ns", &l->p90_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p95_ns", &l->p95_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p99_ns", &l->p99_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p999_ns", &l->p999_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "p9999_ns", &l->p9999_ns));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "max_ns", &l->max_ns));
  const Json* curve;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "percentile_curve", &curve));
  std::string cpath = Member(path, "percentile_curve");
  l->percentile_curve.clear();
  for (size_t i = 0; i < curve->size(); ++i) {
    const Json& point = (*curve)[i];
    std::string here = Element(cpath, i);
    if (!point.is_array() || point.size() != 2) return TypeError(here, "[percentile, ns] pair", point);
    double percentile, ns;
    DBXB_RETURN_IF_ERROR(AsDouble(point[0], Element(here, 0), &percentile));
    DBXB_RETURN_IF_ERROR(AsDouble(point[1], Element(here, 1), &ns));
    l->percentile_curve.emplace_back(percentile, ns);
  }
  return GetOptionalString(j, path, "hdr_histogram", &l->hdr_histogram);
}

Status GetLatency(const Json& obj, const std::string& path, std::string_view key, LatencySummary* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, false, &j));
  return LatencyFromJson(*j, Member(path, key), out);
}

// An optional latency summary: null or absent = none.
Status GetOptionalLatency(const Json& obj, const std::string& path, std::string_view key,
                          std::optional<LatencySummary>* out) {
  const Json* j;
  DBXB_RETURN_IF_ERROR(Find(obj, path, key, true, &j));
  out->reset();
  if (j == nullptr || j->is_null()) return Status::Ok();
  LatencySummary l;
  DBXB_RETURN_IF_ERROR(LatencyFromJson(*j, Member(path, key), &l));
  *out = std::move(l);
  return Status::Ok();
}

Status GetUint32(const Json& obj, const std::string& path, std::string_view key, uint32_t* out) {
  uint64_t v;
  DBXB_RETURN_IF_ERROR(GetUint(obj, path, key, &v));
  if (v > UINT32_MAX)
    return Status::InvalidArgument(
        fmt::format("{}: {} is out of range (at most {})", Member(path, key), v, UINT32_MAX));
  *out = static_cast<uint32_t>(v);
  return Status::Ok();
}

// Reads the optional phase.late_operations (open loop only); null or absent reads as not counted.
Status LateOperationsFromJson(const Json& j, const std::string& path, std::optional<uint64_t>* out) {
  out->reset();
  const Json* late;
  if (!Find(j, path, "late_operations", true, &late).ok() || late == nullptr || late->is_null()) return Status::Ok();
  if (!IsUnsigned(*late)) return TypeError(Member(path, "late_operations"), "unsigned integer", *late);
  *out = late->get<uint64_t>();
  return Status::Ok();
}

// Reads one element of phase.per_op: the figures of one operation type.
Status OpTypeFromJson(const Json& o, const std::string& here, OpTypeResult* op) {
  DBXB_RETURN_IF_ERROR(AsObject(o, here));
  DBXB_RETURN_IF_ERROR(GetString(o, here, "name", &op->name));
  DBXB_RETURN_IF_ERROR(GetUint(o, here, "count", &op->count));
  DBXB_RETURN_IF_ERROR(GetDouble(o, here, "throughput_ops_per_sec", &op->throughput_ops_per_sec));
  DBXB_RETURN_IF_ERROR(GetLatency(o, here, "service_time", &op->service_time));
  return GetOptionalLatency(o, here, "latency_from_intended_start", &op->latency_from_intended_start);
}

// Reads one element of phase.per_second: the throughput and p99 of one second.
Status SecondSampleFromJson(const Json& s, const std::string& here, SecondSample* sample) {
  DBXB_RETURN_IF_ERROR(AsObject(s, here));
  DBXB_RETURN_IF_ERROR(GetDouble(s, here, "second", &sample->second));
  DBXB_RETURN_IF_ERROR(GetUint(s, here, "operations", &sample->operations));
  DBXB_RETURN_IF_ERROR(GetDouble(s, here, "ops_per_sec", &sample->ops_per_sec));
  return GetDouble(s, here, "p99_ns", &sample->p99_ns);
}

// Reads one element of phase.merged_from: one source phase a `merge` combined.
Status PhaseSourceFromJson(const Json& m, const std::string& here, PhaseSource* src) {
  DBXB_RETURN_IF_ERROR(AsObject(m, here));
  DBXB_RETURN_IF_ERROR(GetString(m, here, "file", &src->file));
  DBXB_RETURN_IF_ERROR(GetString(m, here, "host_name", &src->host_name));
  DBXB_RETURN_IF_ERROR(GetDouble(m, here, "start_unix_s", &src->start_unix_s));
  DBXB_RETURN_IF_ERROR(GetDouble(m, here, "duration_ns", &src->duration_ns));
  DBXB_RETURN_IF_ERROR(GetUint32(m, here, "threads", &src->threads));
  DBXB_RETURN_IF_ERROR(GetUint(m, here, "operations", &src->operations));
  return GetDouble(m, here, "throughput_ops_per_sec", &src->throughput_ops_per_sec);
}

// Reads the optional phase.merged_from; absent in phases that were not merged.
Status MergedFromFromJson(const Json& j, const std::string& path, std::vector<PhaseSource>* out) {
  const Json* merged_from;
  DBXB_RETURN_IF_ERROR(Find(j, path, "merged_from", true, &merged_from));
  out->clear();
  if (merged_from == nullptr) return Status::Ok();
  if (!merged_from->is_array()) return TypeError(Member(path, "merged_from"), "array", *merged_from);
  for (size_t i = 0; i < merged_from->size(); ++i) {
    PhaseSource src;
    DBXB_RETURN_IF_ERROR(PhaseSourceFromJson((*merged_from)[i], Element(Member(path, "merged_from"), i), &src));
    out->push_back(std::move(src));
  }
  return Status::Ok();
}

Status PhaseFromJson(const Json& j, const std::string& path, PhaseResult* p) {
  DBXB_RETURN_IF_ERROR(AsObject(j, path));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "suite", &p->suite));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "workload", &p->workload));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "phase", &p->phase));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "engine", &p->engine));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "dataset", &p->dataset));
  DBXB_RETURN_IF_ERROR(GetKeyValues(j, path, "parameters", &p->parameters));
  DBXB_RETURN_IF_ERROR(GetKeyValues(j, path, "engine_settings", &p->engine_settings));
  DBXB_RETURN_IF_ERROR(GetUint32(j, path, "threads", &p->threads));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "target_rate", &p->target_rate));
  const Json* bounded;  // absent in files written before it was recorded
  DBXB_RETURN_IF_ERROR(Find(j, path, "bounded_by_duration", true, &bounded));
  if (bounded != nullptr) DBXB_RETURN_IF_ERROR(GetBool(j, path, "bounded_by_duration", &p->bounded_by_duration));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "rows_per_operation", &p->rows_per_operation));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "warmup_operations", &p->warmup_operations));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "duration_ns", &p->duration_ns));
  DBXB_RETURN_IF_ERROR(GetOptionalDouble(j, path, "start_unix_s", &p->start_unix_s));
  DBXB_RETURN_IF_ERROR(GetUint(j, path, "operations", &p->operations));
  DBXB_RETURN_IF_ERROR(GetDouble(j, path, "throughput_ops_per_sec", &p->throughput_ops_per_sec));
  DBXB_RETURN_IF_ERROR(GetLatency(j, path, "service_time", &p->service_time));
  DBXB_RETURN_IF_ERROR(GetOptionalLatency(j, path, "latency_from_intended_start", &p->latency_from_intended_start));
  DBXB_RETURN_IF_ERROR(LateOperationsFromJson(j, path, &p->late_operations));
  const Json* per_op;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "per_op", &per_op));
  p->per_op.clear();
  for (size_t i = 0; i < per_op->size(); ++i) {
    OpTypeResult op;
    DBXB_RETURN_IF_ERROR(OpTypeFromJson((*per_op)[i], Element(Member(path, "per_op"), i), &op));
    p->per_op.push_back(std::move(op));
  }
  const Json* per_second;
  DBXB_RETURN_IF_ERROR(GetArray(j, path, "per_second", &per_second));
  p->per_second.clear();
  for (size_t i = 0; i < per_second->size(); ++i) {
    SecondSample sample;
    DBXB_RETURN_IF_ERROR(SecondSampleFromJson((*per_second)[i], Element(Member(path, "per_second"), i), &sample));
    p->per_second.push_back(sample);
  }
  DBXB_RETURN_IF_ERROR(MergedFromFromJson(j, path, &p->merged_from));
  DBXB_RETURN_IF_ERROR(GetOptionalString(j, path, "merged_throughput", &p->merged_throughput));
  DBXB_RETURN_IF_ERROR(GetNullableDouble(j, path, "settle_ns", true, &p->settle_ns));
  DBXB_RETURN_IF_ERROR(GetString(j, path, "memory_method", &p->memory_method));
  DBXB_RETURN_IF_ERROR(ResourcesFromJson(j, path, &p->resources));
  DBXB_RETURN_IF_ERROR(GetBool(j, path, "incomplete", &p->incomplete));
  DBXB_RETURN_IF_ERROR(GetBool(j, path, "error_occurred", &p->error_occurred));
  return GetString(j, path, "error_message", &p->error_message);
}

Status ResultsFromJson(const Json& j, RunResults* r) {
  if (!j.is_object()) return TypeError("(top level)", "object", j);
  const Json* version;
  DBXB_RETURN_IF_ERROR(Find(j, "", "schema_version", true, &version));
  if (version == nullptr)
    return Status::InvalidArgument("schema_version: missing field (not a dbx-bench results file?)");
  if (!IsUnsigned(*version)) return TypeError("schema_version", "unsigned integer", *version);
  if (version->get<uint64_t>() != kResultsSchemaVersion) {
    return Status::InvalidArgument(fmt::format("schema_version: unsupported version {} (this build reads version {})",
                                               version->get<uint64_t>(), kResultsSchemaVersion));
  }
  const Json* context;
  DBXB_RETURN_IF_ERROR(Find(j, "", "context", false, &context));
  DBXB_RETURN_IF_ERROR(ContextFromJson(*context, "context", &r->context));
  const Json* benchmarks;
  DBXB_RETURN_IF_ERROR(GetArray(j, "", "benchmarks", &benchmarks));
  r->benchmarks.clear();
  for (size_t i = 0; i < benchmarks->size(); ++i) {
    BenchmarkResult b;
    DBXB_RETURN_IF_ERROR(BenchmarkFromJson((*benchmarks)[i], Element("benchmarks", i), &b));
    r->benchmarks.push_back(std::move(b));
  }
  // Optional: files written before phases existed have none.
  const Json* phases;
  DBXB_RETURN_IF_ERROR(Find(j, "", "phases", true, &phases));
  r->phases.clear();
  if (phases != nullptr && !phases->is_null()) {
    if (!phases->is_array()) return TypeError("phases", "array", *phases);
    for (size_t i = 0; i < phases->size(); ++i) {
      PhaseResult p;
      DBXB_RETURN_IF_ERROR(PhaseFromJson((*phases)[i], Element("phases", i), &p));
      r->phases.push_back(std::move(p));
    }
  }
  // Optional: only sweeps and capacity searches write them.
  DBXB_RETURN_IF_ERROR(SweepFromJson(j, &r->sweep));
  return CapacityFromJson(j, &r->capacity);
}

}  // namespace

Status FromJson(const nlohmann::ordered_json& json, RunResults* results) {
  RunResults r;
  // The checks above make every get<> well-typed; the catch is a last line of defence so that no
  // exception can leave this module whatever the document holds.
  try {
    DBXB_RETURN_IF_ERROR(ResultsFromJson(json, &r));
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("unreadable results document: ") + e.what());
  }
  *results = std::move(r);
  return Status::Ok();
}

}  // namespace dbxb
