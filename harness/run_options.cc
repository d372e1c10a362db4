#include "harness/run_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>

#include "harness/units.h"
#include "workloads/micro_suite.h"

namespace dbxb {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

Status OptionError(std::string_view option, const Status& st) {
  return Status::InvalidArgument(fmt::format("--{}: {}", option, st.message()));
}

Status CountOption(std::string_view option, const std::string& text, uint64_t min, uint64_t max, uint64_t* out) {
  uint64_t v = 0;
  Status st = ParseCount(text, &v);
  if (!st.ok()) return OptionError(option, st);
  if (v < min || v > max)
    return Status::InvalidArgument(fmt::format("--{}: '{}' is out of range ({} to {})", option, text, min, max));
  *out = v;
  return Status::Ok();
}

Status DurationOption(std::string_view option, const std::string& text, double min, double* out) {
  double v = 0;
  Status st = ParseDuration(text, &v);
  if (!st.ok()) return OptionError(option, st);
  if (v < min) return Status::InvalidArgument(fmt::format("--{}: '{}' is shorter than {} s", option, text, min));
  *out = v;
  return Status::Ok();
}

// results/<UTC time>: a new directory per run, so that no earlier result is overwritten by default.
std::string DefaultOutDir() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return std::string("results/") + buf;
}

}  // namespace

const std::vector<std::string>& SuiteNames() {
  static const std::vector<std::string> names = {"dbx-micro"};
  return names;
}

Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& registry, RunPlan* plan) {
  RunPlan p;
  const auto& suites = SuiteNames();
  if (std::find(suites.begin(), suites.end(), args.suite) == suites.end())
    return Status::InvalidArgument(fmt::format("--suite: unknown suite '{}' (known: {})", args.suite, Join(suites)));
  p.suite = args.suite;

  // Engines: explicit list, or every registered engine except the null one.
  if (args.engines.empty()) {
    for (const auto& f : registry.factories())
      if (f.name != "null") p.engines.push_back(&f);
  } else {
    std::vector<std::string> known;
    for (const auto& f : registry.factories()) known.push_back(f.name);
    for (const auto& name : SplitList(args.engines)) {
      const AdapterFactory* f = registry.Find(name);
      if (f == nullptr)
        return Status::InvalidArgument(fmt::format("--engines: unknown engine '{}' (known: {})", name, Join(known)));
      if (std::find(p.engines.begin(), p.engines.end(), f) != p.engines.end())
        return Status::InvalidArgument(fmt::format("--engines: engine '{}' named twice", name));
      p.engines.push_back(f);
    }
  }
  if (p.engines.empty()) return Status::InvalidArgument("--engines: no engine to run");

  const auto& workloads = MicroWorkloadNames();
  if (args.workloads.empty()) {
    p.workloads = workloads;
  } else {
    for (const auto& w : SplitList(args.workloads)) {
      if (std::find(workloads.begin(), workloads.end(), w) == workloads.end())
        return Status::InvalidArgument(
            fmt::format("--workloads: unknown workload '{}' for suite {} (known: {})", w, p.suite, Join(workloads)));
      if (std::find(p.workloads.begin(), p.workloads.end(), w) != p.workloads.end())
        return Status::InvalidArgument(fmt::format("--workloads: workload '{}' named twice", w));
      p.workloads.push_back(w);
    }
  }

  DBXB_RETURN_IF_ERROR(CountOption("records", args.records, 1, 100000000, &p.shape.records));
  DBXB_RETURN_IF_ERROR(CountOption("key-size", args.key_size, 12, 1 << 20, &p.shape.key_size));
  DBXB_RETURN_IF_ERROR(CountOption("value-size", args.value_size, 19, 64 << 20, &p.shape.value_size));
  if (p.shape.records * (p.shape.key_size + p.shape.value_size) > (64ull << 30))
    return Status::InvalidArgument("--records: the data set would be larger than 64 GiB");

  // dbx-micro compares engines at memory speed, as the DBX comparison does: durability none.
  std::string durability = args.durability.empty() ? "none" : args.durability;
  if (!ParseDurability(durability, &p.durability))
    return Status::InvalidArgument(fmt::format("--durability: '{}' is not one of none, normal, full", durability));

  {
    Status st = ParseBytes(args.cache_size, &p.cache_bytes);
    if (!st.ok()) return OptionError("cache-size", st);
    if (p.cache_bytes < (1ull << 20) || p.cache_bytes > (1ull << 40))
      return Status::InvalidArgument(fmt::format("--cache-size: '{}' is out of range (1 MiB to 1 TiB)", args.cache_size));
  }

  DBXB_RETURN_IF_ERROR(CountOption("seed", args.seed, 0, UINT64_MAX, &p.seed));

  for (const auto& f : SplitList(args.formats)) {
    if (f != "json" && f != "md" && f != "gbench")
      return Status::InvalidArgument(fmt::format("--format: unknown format '{}' (known: json, md, gbench)", f));
    if (std::find(p.formats.begin(), p.formats.end(), f) == p.formats.end()) p.formats.push_back(f);
  }

  if (!args.baseline.empty()) {
    bool found = false;
    for (const auto* f : p.engines) found |= f->name == args.baseline;
    if (!found)
      return Status::InvalidArgument(fmt::format("--baseline: engine '{}' is not among --engines", args.baseline));
  }
  if (args.baseline.empty()) {
    // The first real engine: comparing against the null adapter says nothing about engines.
    p.baseline = p.engines.front()->name;
    for (const auto* f : p.engines) {
      if (f->name != "null") {
        p.baseline = f->name;
        break;
      }
    }
  } else {
    p.baseline = args.baseline;
  }

  // Sampling: Criterion's defaults, --quick shortens them, explicit options override both.
  SamplingConfig& s = p.sampling;
  if (args.quick) {
    s.warmup_seconds = 0.5;
    s.measurement_seconds = 1.0;
    s.sample_count = 20;
  }
  if (!args.warmup.empty()) DBXB_RETURN_IF_ERROR(DurationOption("warmup", args.warmup, 0.001, &s.warmup_seconds));
  if (!args.measurement.empty())
    DBXB_RETURN_IF_ERROR(DurationOption("measurement", args.measurement, 0.001, &s.measurement_seconds));
  if (!args.samples.empty()) DBXB_RETURN_IF_ERROR(CountOption("samples", args.samples, 10, 100000, &s.sample_count));
  if (!args.resamples.empty())
    DBXB_RETURN_IF_ERROR(CountOption("resamples", args.resamples, 1000, 10000000, &s.bootstrap_resamples));
  if (!args.sampling_mode.empty() && args.sampling_mode != "auto") {
    if (args.sampling_mode == "linear") s.forced_sampling_mode = SamplingMode::kLinear;
    else if (args.sampling_mode == "flat") s.forced_sampling_mode = SamplingMode::kFlat;
    else return Status::InvalidArgument(fmt::format("--sampling: '{}' is not one of auto, linear, flat", args.sampling_mode));
  }
  s.seed = p.seed;

  p.out_dir = args.out_dir.empty() ? DefaultOutDir() : args.out_dir;
  p.data_dir = args.data_dir;
  p.measure_overhead = !args.no_overhead;

  p.configuration = {
      {"suite", p.suite},
      {"engines", [&] { std::vector<std::string> n; for (auto* f : p.engines) n.push_back(f->name); return Join(n); }()},
      {"workloads", Join(p.workloads)},
      {"records", std::to_string(p.shape.records)},
      {"key_size", std::to_string(p.shape.key_size)},
      {"value_size", std::to_string(p.shape.value_size)},
      {"durability", std::string(DurabilityName(p.durability))},
      {"cache_bytes", std::to_string(p.cache_bytes)},
      {"seed", std::to_string(p.seed)},
      {"formats", Join(p.formats)},
      {"baseline", p.baseline},
      {"warmup_seconds", fmt::format("{}", s.warmup_seconds)},
      {"measurement_seconds", fmt::format("{}", s.measurement_seconds)},
      {"samples", std::to_string(s.sample_count)},
      {"bootstrap_resamples", std::to_string(s.bootstrap_resamples)},
      {"sampling_mode", args.sampling_mode.empty() ? "auto" : args.sampling_mode},
      {"confidence_level", fmt::format("{}", s.confidence_level)},
  };
  *plan = std::move(p);
  return Status::Ok();
}

}  // namespace dbxb
