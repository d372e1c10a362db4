#include "records/json_results.h"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <string>
#include <utility>

#include "common/atomic_file.h"
#include "records/record_names.h"
#include "records/resources_json.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

Json Number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

Json KeyValuesToJson(const KeyValues& kvs) {
  Json obj = Json::object();
  for (const auto& [key, value] : kvs) obj[key] = value;
  return obj;
}

Json IntervalToJson(const Interval& i) {
  return Json{{"point", Number(i.point)},
              {"lower", Number(i.lower)},
              {"upper", Number(i.upper)},
              {"std_error", Number(i.std_error)}};
}

Json ContextToJson(const RunContext& c) {
  Json libraries = Json::array();
  for (const LibraryInfo& lib : c.libraries) {
    libraries.push_back(Json{{"engine", lib.engine}, {"version", lib.version}, {"build", lib.build}});
  }
  Json load_avg = Json::array();
  for (double v : c.load_avg) load_avg.push_back(Number(v));
  Json calibration = Json::array();
  for (const CalibrationResult& r : c.calibration) calibration.push_back(CalibrationToJson(r));
  const SamplingConfig& s = c.sampling;
  Json sampling{{"warmup_seconds", Number(s.warmup_seconds)},
                {"measurement_seconds", Number(s.measurement_seconds)},
                {"sample_count", s.sample_count},
                {"bootstrap_resamples", s.bootstrap_resamples},
                {"confidence_level", Number(s.confidence_level)},
                {"seed", s.seed},
                {"forced_sampling_mode",
                 s.forced_sampling_mode ? Json(SamplingModeName(*s.forced_sampling_mode)) : Json(nullptr)}};
  return Json{{"date_utc", c.date_utc},
              {"host_name", c.host_name},
              {"cpu_model", c.cpu_model},
              {"num_cpus", c.num_cpus},
              {"cpu_mhz", c.cpu_mhz},
              {"cpu_scaling_enabled", c.cpu_scaling_enabled},
              {"load_avg", std::move(load_avg)},
              {"memory_bytes", c.memory_bytes},
              {"kernel", c.kernel},
              {"compiler", c.compiler},
              {"compiler_flags", c.compiler_flags},
              {"build_type", c.build_type},
              {"git_commit", c.git_commit},
              {"git_dirty", c.git_dirty},
              {"tool_version", c.tool_version},
              {"libraries", std::move(libraries)},
              {"command_line", c.command_line},
              {"merged_files", c.merged_files},
              {"configuration", KeyValuesToJson(c.configuration)},
              {"seed", c.seed},
              {"sampling", std::move(sampling)},
              {"harness_overhead_ns_per_op",
               c.harness_overhead_ns_per_op ? Number(*c.harness_overhead_ns_per_op) : Json(nullptr)},
              {"calibration", std::move(calibration)},
              {"incomplete", c.incomplete}};
}

Json BenchmarkToJson(const BenchmarkResult& b) {
  Json samples = Json::array();
  for (const Sample& s : b.samples)
    samples.push_back(Json{{"iterations", s.iterations}, {"total_ns", Number(s.total_ns)}});
  const Estimates& e = b.estimates;
  Json estimates{{"mean", IntervalToJson(e.mean)},
                 {"median", IntervalToJson(e.median)},
                 {"std_dev", IntervalToJson(e.std_dev)},
                 {"median_abs_dev", IntervalToJson(e.median_abs_dev)},
                 {"slope", e.slope ? IntervalToJson(*e.slope) : Json(nullptr)}};
  const OutlierCounts& o = b.outliers;
  Json outliers{{"low_severe", o.low_severe},
                {"low_mild", o.low_mild},
                {"high_mild", o.high_mild},
                {"high_severe", o.high_severe}};
  return Json{{"suite", b.suite},
              {"workload", b.workload},
              {"engine", b.engine},
              {"parameters", KeyValuesToJson(b.parameters)},
              {"engine_settings", KeyValuesToJson(b.engine_settings)},
              {"sampling_mode", SamplingModeName(b.sampling_mode)},
              {"warmup", Json{{"iterations", b.warmup_iterations}, {"total_ns", Number(b.warmup_ns)}}},
              {"elements_per_iteration", b.elements_per_iteration},
              {"samples", std::move(samples)},
              {"sampling_notes", b.sampling_notes},
              {"estimates", std::move(estimates)},
              {"outliers", std::move(outliers)},
              {"throughput", IntervalToJson(b.throughput)},
              {"checksum", b.checksum},
              {"resources", ResourcesToJson(b.resources)},
              {"settle_ns", b.settle_ns ? Number(*b.settle_ns) : Json(nullptr)},
              {"error_occurred", b.error_occurred},
              {"error_message", b.error_message}};
}

Json LatencyToJson(const LatencySummary& l) {
  Json curve = Json::array();
  for (const auto& [percentile, ns] : l.percentile_curve)
    curve.push_back(Json::array({Number(percentile), Number(ns)}));
  return Json{{"count", l.count},
              {"mean_ns", Number(l.mean_ns)},
              {"stddev_ns", Number(l.stddev_ns)},
              {"min_ns", Number(l.min_ns)},
              {"p50_ns", Number(l.p50_ns)},
              {"p90_ns", Number(l.p90_ns)},
              {"p95_ns", Number(l.p95_ns)},
              {"p99_ns", Number(l.p99_ns)},
              {"p999_ns", Number(l.p999_ns)},
              {"p9999_ns", Number(l.p9999_ns)},
              {"max_ns", Number(l.max_ns)},
              {"percentile_curve", std::move(curve)},
              {"hdr_histogram", l.hdr_histogram}};
}

Json OptionalLatencyToJson(const std::optional<LatencySummary>& l) { return l ? LatencyToJson(*l) : Json(nullptr); }

Json PhaseToJson(const PhaseResult& p) {
  Json per_op = Json::array();
  for (const OpTypeResult& o : p.per_op) {
    per_op.push_back(Json{{"name", o.name},
                          {"count", o.count},
                          {"throughput_ops_per_sec", Number(o.throughput_ops_per_sec)},
                          {"service_time", LatencyToJson(o.service_time)},
                          {"latency_from_intended_start", OptionalLatencyToJson(o.latency_from_intended_start)}});
  }
  Json per_second = Json::array();
  for (const SecondSample& s : p.per_second) {
    per_second.push_back(Json{{"second", Number(s.second)},
                              {"operations", s.operations},
                              {"ops_per_sec", Number(s.ops_per_sec)},
                              {"p99_ns", Number(s.p99_ns)}});
  }
  Json merged_from = Json::array();
  for (const PhaseSource& m : p.merged_from) {
    merged_from.push_back(Json{{"file", m.file},
                               {"host_name", m.host_name},
                               {"start_unix_s", Number(m.start_unix_s)},
                               {"duration_ns", Number(m.duration_ns)},
                               {"threads", m.threads},
                               {"operations", m.operations},
                               {"throughput_ops_per_sec", Number(m.throughput_ops_per_sec)}});
  }
  return Json{{"suite", p.suite},
              {"workload", p.workload},
              {"phase", p.phase},
              {"engine", p.engine},
              {"dataset", p.dataset},
              {"parameters", KeyValuesToJson(p.parameters)},
              {"engine_settings", KeyValuesToJson(p.engine_settings)},
              {"threads", p.threads},
              {"target_rate", Number(p.target_rate)},
              {"rows_per_operation", p.rows_per_operation},
              {"warmup_operations", p.warmup_operations},
              {"duration_ns", Number(p.duration_ns)},
              {"start_unix_s", Number(p.start_unix_s)},
              {"operations", p.operations},
              {"throughput_ops_per_sec", Number(p.throughput_ops_per_sec)},
              {"service_time", LatencyToJson(p.service_time)},
              {"latency_from_intended_start", OptionalLatencyToJson(p.latency_from_intended_start)},
              {"per_op", std::move(per_op)},
              {"per_second", std::move(per_second)},
              {"merged_from", std::move(merged_from)},
              {"merged_throughput", p.merged_throughput},
              {"settle_ns", p.settle_ns ? Number(*p.settle_ns) : Json(nullptr)},
              {"memory_method", p.memory_method},
              {"resources", ResourcesToJson(p.resources)},
              {"incomplete", p.incomplete},
              {"error_occurred", p.error_occurred},
              {"error_message", p.error_message}};
}

}  // namespace

nlohmann::ordered_json CalibrationToJson(const CalibrationResult& r) {
  Json row{{"engine", r.engine}, {"workload", r.workload}, {"records", r.records}, {"rounds", r.rounds}};
  if (r.error.empty()) {
    row["harness_ns_per_op"] = Number(r.harness_ns_per_op);
    row["native_ns_per_op"] = Number(r.native_ns_per_op);
    row["ratio"] = Number(r.ratio);
    row["min_ratio"] = Number(r.min_ratio);
    if (!r.harness_round_ns.empty() || !r.native_round_ns.empty()) {
      Json harness = Json::array(), native = Json::array();
      for (double v : r.harness_round_ns) harness.push_back(Number(v));
      for (double v : r.native_round_ns) native.push_back(Number(v));
      row["harness_round_ns"] = std::move(harness);
      row["native_round_ns"] = std::move(native);
    }
  }
  row["error"] = r.error;
  return row;
}

nlohmann::ordered_json ToJson(const RunResults& results) {
  Json benchmarks = Json::array();
  for (const BenchmarkResult& b : results.benchmarks) benchmarks.push_back(BenchmarkToJson(b));
  Json phases = Json::array();
  for (const PhaseResult& p : results.phases) phases.push_back(PhaseToJson(p));
  return Json{{"schema_version", kResultsSchemaVersion},
              {"context", ContextToJson(results.context)},
              {"benchmarks", std::move(benchmarks)},
              {"phases", std::move(phases)}};
}

std::string SerializeResults(const RunResults& results) {
  return ToJson(results).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

Status ParseResults(std::string_view text, RunResults* results) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Status::Corruption("not valid JSON: the file is empty");
  Json json;
  try {
    json = Json::parse(text);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // what() is "[json.exception.parse_error.101] parse error at line 3, column 5: ..."; keep the
    // part a user can act on.
    std::string what = e.what();
    size_t pos = what.find("] ");
    return Status::Corruption("not valid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("not valid JSON: ") + e.what());
  }
  return FromJson(json, results);
}

Status ReadResultsFile(const std::string& path, RunResults* results) {
  std::string text;
  DBXB_RETURN_IF_ERROR(ReadFileToString(path, &text));
  return ParseResults(text, results).WithContext(path);
}

Status WriteResultsFile(const std::string& path, const RunResults& results) {
  return WriteFileAtomically(path, SerializeResults(results));
}

}  // namespace dbxb
