#include "writers/gbench_reporter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

// Google Benchmark writes "2026-11-30T15:39:10+00:00"; we record "...Z". Same instant.
std::string GbenchDate(const std::string& date_utc) {
  if (!date_utc.empty() && date_utc.back() == 'Z') return date_utc.substr(0, date_utc.size() - 1) + "+00:00";
  return date_utc;
}

std::string Executable(const std::string& command_line) {
  size_t end = command_line.find(' ');
  std::string first = command_line.substr(0, end);
  return first.empty() ? "dbx-bench" : first;
}

std::string LibraryBuildType(const std::string& build_type) {
  std::string t = build_type;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  return (t == "release" || t == "relwithdebinfo" || t == "minsizerel") ? "release" : "debug";
}

// JSON has no NaN: a non-finite value (e.g. a zero-time sample's rate) is written as null, the same
// way Google Benchmark's own writer cannot produce a number for it.
Json Number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json Context(const RunContext& c) {
  Json load = Json::array();
  for (double l : c.load_avg) load.push_back(Number(l));
  return Json{{"date", GbenchDate(c.date_utc)},
              {"host_name", c.host_name},
              {"executable", Executable(c.command_line)},
              {"num_cpus", c.num_cpus},
              {"mhz_per_cpu", c.cpu_mhz},
              {"cpu_scaling_enabled", c.cpu_scaling_enabled},
              {"caches", Json::array()},
              {"load_avg", std::move(load)},
              {"library_build_type", LibraryBuildType(c.build_type)},
              {"dbx_bench_version", c.tool_version},
              {"git_commit", c.git_commit},
              {"cpu_model", c.cpu_model}};
}

// Names unique within the run (see the header): suite/workload/engine, plus the parameters if needed.
std::vector<std::string> UniqueNames(const std::vector<BenchmarkResult>& benchmarks) {
  std::map<std::string, int> count;
  for (const BenchmarkResult& b : benchmarks) ++count[BenchmarkName(b)];
  std::vector<std::string> names;
  for (const BenchmarkResult& b : benchmarks) {
    std::string name = BenchmarkName(b);
    if (count[name] > 1) {
      for (const auto& [key, value] : b.parameters) name += "/" + key + ":" + value;
    }
    names.push_back(std::move(name));
  }
  return names;
}

struct Instance {
  std::string name;
  uint64_t family_index;
  uint64_t per_family_instance_index;
};

Json Entry(const Instance& in, const char* run_type, uint64_t repetitions) {
  return Json{{"name", in.name},
              {"family_index", in.family_index},
              {"per_family_instance_index", in.per_family_instance_index},
              {"run_name", in.name},
              {"run_type", run_type},
              {"repetitions", repetitions}};
}

void AddTimes(Json* e, uint64_t iterations, double ns) {
  (*e)["iterations"] = iterations;
  (*e)["real_time"] = Number(ns);
  (*e)["cpu_time"] = Number(ns);  // wall-clock only: see the header
  (*e)["time_unit"] = "ns";
}

void AddRate(Json* e, uint64_t elements, double ns) {
  if (elements > 0) (*e)["items_per_second"] = Number(static_cast<double>(elements) * 1e9 / ns);
}

void AddBenchmark(const BenchmarkResult& b, const Instance& in, bool aggregates_only, Json* out) {
  if (b.error_occurred) {
    Json e = Entry(in, "iteration", 1);
    e["repetition_index"] = 0;
    e["threads"] = 1;
    e["error_occurred"] = true;
    e["error_message"] = b.error_message;
    AddTimes(&e, 0, 0);
    out->push_back(std::move(e));
    return;
  }
  const uint64_t reps = b.samples.size();
  if (!aggregates_only) {
    for (uint64_t i = 0; i < reps; ++i) {
      const Sample& s = b.samples[i];
      double per_iteration = s.iterations > 0 ? s.total_ns / static_cast<double>(s.iterations) : 0;
      Json e = Entry(in, "iteration", reps);
      e["repetition_index"] = i;
      e["threads"] = 1;
      AddTimes(&e, s.iterations, per_iteration);
      AddRate(&e, b.elements_per_iteration, per_iteration);
      out->push_back(std::move(e));
    }
  }
  const Estimates& est = b.estimates;
  struct Aggregate {
    const char* name;
    double value;
    bool time;
    bool rate;
  };
  const Aggregate aggregates[] = {
      {"mean", est.mean.point, true, true},
      {"median", est.median.point, true, true},
      {"stddev", est.std_dev.point, true, false},
      {"cv", est.mean.point != 0 ? est.std_dev.point / est.mean.point : 0, false, false},
  };
  for (const Aggregate& a : aggregates) {
    Instance named = in;
    named.name = in.name + "_" + a.name;
    Json e = Entry(named, "aggregate", reps);
    e["run_name"] = in.name;
    e["threads"] = 1;
    e["aggregate_name"] = a.name;
    e["aggregate_unit"] = a.time ? "time" : "percentage";
    AddTimes(&e, reps, a.value);
    if (a.rate) AddRate(&e, b.elements_per_iteration, a.value);
    out->push_back(std::move(e));
  }
}

// A phase is one iteration entry whose iterations are its operations, real_time the mean service time
// and items_per_second its throughput; its percentiles are user counters, as a Google Benchmark
// benchmark reports its own measurements with state.counters.
void AddPhase(const PhaseResult& p, const Instance& in, Json* out) {
  Json e = Entry(in, "iteration", 1);
  e["repetition_index"] = 0;
  e["threads"] = p.threads;
  if (p.error_occurred) {
    e["error_occurred"] = true;
    e["error_message"] = p.error_message;
    AddTimes(&e, 0, 0);
    out->push_back(std::move(e));
    return;
  }
  AddTimes(&e, p.operations, p.service_time.mean_ns);
  e["items_per_second"] = Number(p.throughput_ops_per_sec);
  const LatencySummary& l = p.service_time;
  for (const auto& [key, value] : {std::pair<const char*, double>{"p50_ns", l.p50_ns},
                                   {"p90_ns", l.p90_ns},
                                   {"p95_ns", l.p95_ns},
                                   {"p99_ns", l.p99_ns},
                                   {"p999_ns", l.p999_ns},
                                   {"p9999_ns", l.p9999_ns},
                                   {"max_ns", l.max_ns}}) {
    e[key] = Number(value);
  }
  out->push_back(std::move(e));
}

std::string GbenchPhaseName(const PhaseResult& p) {
  std::string name = p.suite + "/" + p.workload + "/" + p.phase + "/" + p.engine;
  if (!p.dataset.empty()) name += "/dataset:" + p.dataset;
  name += "/threads:" + std::to_string(p.threads);
  if (p.incomplete) name += "/incomplete";
  return name;
}

}  // namespace

nlohmann::ordered_json ToGbenchJson(const RunResults& results, bool aggregates_only) {
  std::vector<std::string> names = UniqueNames(results.benchmarks);
  std::vector<std::string> families;  // suite/workload in order of first appearance
  std::map<std::string, uint64_t> instances_so_far;
  Json benchmarks = Json::array();
  for (size_t i = 0; i < results.benchmarks.size(); ++i) {
    const BenchmarkResult& b = results.benchmarks[i];
    std::string family = b.suite + "/" + b.workload;
    auto it = std::find(families.begin(), families.end(), family);
    uint64_t family_index = static_cast<uint64_t>(it - families.begin());
    if (it == families.end()) families.push_back(family);
    Instance in{names[i], family_index, instances_so_far[family]++};
    AddBenchmark(b, in, aggregates_only, &benchmarks);
  }
  for (const PhaseResult& p : results.phases) {
    std::string family = p.suite + "/" + p.workload + "/" + p.phase;
    auto it = std::find(families.begin(), families.end(), family);
    uint64_t family_index = static_cast<uint64_t>(it - families.begin());
    if (it == families.end()) families.push_back(family);
    Instance in{GbenchPhaseName(p), family_index, instances_so_far[family]++};
    AddPhase(p, in, &benchmarks);
  }
  return Json{{"context", Context(results.context)}, {"benchmarks", std::move(benchmarks)}};
}

Status GbenchReporter::Write(const RunResults& results, std::ostream& out) {
  out << ToGbenchJson(results, aggregates_only_).dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  return StreamStatus(out, "Google Benchmark JSON");
}

}  // namespace dbxb
