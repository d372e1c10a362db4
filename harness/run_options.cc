#include "harness/run_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <ctime>

#include "harness/units.h"
#include "workloads/micro_suite.h"
#include "workloads/sqlite_vps/vps_suite.h"
#include "workloads/ycsb_suite.h"

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

// A rate: a positive decimal number with an optional k (10^3) or M (10^6) suffix, e.g. "2500", "2.5k".
Status RateOption(std::string_view option, const std::string& text, double* out) {
  std::string_view number = text, unit;
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  number = std::string_view(text).substr(0, i);
  unit = std::string_view(text).substr(i);
  double v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  double scale = unit.empty() ? 1 : unit == "k" || unit == "K" ? 1e3 : unit == "M" ? 1e6 : 0;
  if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() || scale == 0 || !std::isfinite(v) ||
      v * scale <= 0)
    return Status::InvalidArgument(
        fmt::format("--{}: '{}' is not a positive rate in operations per second (e.g. 5000, 2.5k)", option, text));
  *out = v * scale;
  return Status::Ok();
}

// The options that belong to one kind of suite, given with the other kind: named, so nothing is
// silently ignored.
Status RejectGiven(const std::vector<std::pair<const char*, const std::string*>>& options, std::string_view why) {
  for (const auto& [name, value] : options) {
    if (!value->empty()) return Status::InvalidArgument(fmt::format("--{}: {}", name, why));
  }
  return Status::Ok();
}

// The phase-suite options: threads, bounds, open loop, YCSB files, sqlite-vps data sets.
Status ValidatePhaseArgs(const RunArgs& args, RunPlan* p) {
  PhaseSuiteOptions& o = p->phase_options;
  uint64_t v = 0;
  if (!args.records.empty()) DBXB_RETURN_IF_ERROR(CountOption("records", args.records, 1, 10000000000ull, &o.records));
  if (!args.threads.empty()) {
    DBXB_RETURN_IF_ERROR(CountOption("threads", args.threads, 1, 1024, &v));
    o.threads = static_cast<uint32_t>(v);
  }
  if (!args.readers.empty()) {
    DBXB_RETURN_IF_ERROR(CountOption("readers", args.readers, 1, 1024, &v));
    o.readers = static_cast<uint32_t>(v);
  }
  if (!args.writers.empty()) {
    DBXB_RETURN_IF_ERROR(CountOption("writers", args.writers, 1, 1024, &v));
    o.writers = static_cast<uint32_t>(v);
  }
  if (!args.operations.empty())
    DBXB_RETURN_IF_ERROR(CountOption("operations", args.operations, 1, 1000000000000ull, &o.operations));
  if (!args.duration.empty()) DBXB_RETURN_IF_ERROR(DurationOption("duration", args.duration, 0.001, &o.duration_seconds));
  if (!args.phase_warmup.empty())
    DBXB_RETURN_IF_ERROR(DurationOption("phase-warmup", args.phase_warmup, 0.001, &o.warmup_seconds));
  if (!args.target_rate.empty()) DBXB_RETURN_IF_ERROR(RateOption("target-rate", args.target_rate, &o.target_rate));
  if (!args.load_batch.empty()) DBXB_RETURN_IF_ERROR(CountOption("load-batch", args.load_batch, 1, 1000000, &o.load_batch));
  p->raw_latencies = args.raw_latencies;

  if (p->suite == "ycsb") {
    DBXB_RETURN_IF_ERROR(RejectGiven({{"readers", &args.readers}, {"writers", &args.writers}},
                                     "the ycsb suite has no reader/writer phases (use --threads)"));
    DBXB_RETURN_IF_ERROR(RejectGiven({{"dataset", &args.dataset}, {"memory-limit", &args.memory_limit},
                                      {"range-length", &args.range_length}},
                                     "applies to the sqlite-vps suite only"));
    if (!args.workloads.empty())
      return Status::InvalidArgument("--workloads: the ycsb suite takes workload files: use --workload FILE[,FILE]");
    if (args.workload_files.empty())
      return Status::InvalidArgument("--workload: the ycsb suite needs a workload file, e.g. --workload workloads/ycsb/workloada");
    for (const std::string& path : SplitList(args.workload_files)) {
      if (path.empty()) return Status::InvalidArgument("--workload: empty file name in the list");
      // The parser's own message names the file, the line and the problem.
      auto loaded = LoadYcsbWorkloadFile(path);
      if (!loaded.ok()) return Status::InvalidArgument(loaded.status().message());
      for (const std::string& w : loaded->warnings) p->warnings.push_back("warning: " + w);
      auto applied = ApplyYcsbOverrides(loaded.value(), o);
      if (!applied.ok()) return Status::InvalidArgument(applied.status().message());
      p->ycsb_files.push_back(YcsbFile{path, YcsbWorkloadName(path), std::move(applied.value())});
      // Combinations an engine cannot run (e.g. the null engine with time-bound inserts) are bad input.
      for (const AdapterFactory* engine : p->engines) {
        auto seq = MakeYcsbSequence(p->ycsb_files.back().workload, p->ycsb_files.back().name, *engine, o);
        if (!seq.ok()) return Status::InvalidArgument(fmt::format("--engines {}: {}", engine->name, seq.status().message()));
      }
    }
  } else {  // sqlite-vps
    if (!args.workload_files.empty())
      return Status::InvalidArgument("--workload: YCSB workload files belong to the ycsb suite (drop --suite)");
    std::string datasets = args.dataset.empty() ? "cached" : args.dataset;
    Status st = ParseVpsDatasets(datasets, &p->vps.datasets);
    if (!st.ok())
      return Status::InvalidArgument(st.message().rfind("--dataset", 0) == 0 ? st.message() : "--dataset: " + st.message());
    if (!args.memory_limit.empty()) {
      st = ParseBytes(args.memory_limit, &p->vps.memory_limit_bytes);
      if (!st.ok()) return OptionError("memory-limit", st);
      if (p->vps.memory_limit_bytes < (16ull << 20))
        return Status::InvalidArgument(fmt::format("--memory-limit: '{}' is below 16 MiB", args.memory_limit));
    }
    if (!args.range_length.empty())
      DBXB_RETURN_IF_ERROR(CountOption("range-length", args.range_length, 1, 1000000, &p->vps.range_length));
    if (!args.cache_size.empty()) p->vps.cache_bytes = p->cache_bytes;
    const auto& names = VpsPhaseNames();
    for (const auto& w : args.workloads.empty() ? std::vector<std::string>() : SplitList(args.workloads)) {
      if (std::find(names.begin(), names.end(), w) == names.end())
        return Status::InvalidArgument(
            fmt::format("--workloads: unknown phase '{}' for suite sqlite-vps (known: {})", w, Join(names)));
      if (std::find(p->vps.phases.begin(), p->vps.phases.end(), w) != p->vps.phases.end())
        return Status::InvalidArgument(fmt::format("--workloads: phase '{}' named twice", w));
      p->vps.phases.push_back(w);
    }
    // Checks the combination now (e.g. --records below --range-length), so that bad input is exit 2.
    for (VpsDataset d : p->vps.datasets) {
      auto plan = ResolveVpsPlan(d, o, p->vps);
      if (!plan.ok()) return Status::InvalidArgument(plan.status().message());
    }
    // Engines the suite cannot run (the null engine stores no rows) are bad input, as for ycsb.
    for (const AdapterFactory* engine : p->engines) {
      auto sequences = MakeSqliteVpsSequences(*engine, o, p->vps);
      if (!sequences.ok())
        return Status::InvalidArgument(fmt::format("--engines {}: {}", engine->name, sequences.status().message()));
    }
  }
  if (!p->raw_latencies.empty() && p->raw_latencies.back() == '/')
    return Status::InvalidArgument(fmt::format("--raw-latencies: '{}' is a directory, not a file", p->raw_latencies));
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
  static const std::vector<std::string> names = {"dbx-micro", "ycsb", "sqlite-vps"};
  return names;
}

Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& registry, RunPlan* plan) {
  RunPlan p;
  const auto& suites = SuiteNames();
  std::string suite = args.suite.empty() ? (args.workload_files.empty() ? "dbx-micro" : "ycsb") : args.suite;
  if (std::find(suites.begin(), suites.end(), suite) == suites.end())
    return Status::InvalidArgument(fmt::format("--suite: unknown suite '{}' (known: {})", suite, Join(suites)));
  p.suite = suite;

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

  const std::vector<std::string> no_workloads;
  const auto& workloads = p.phase_suite() ? no_workloads : MicroWorkloadNames();
  if (p.phase_suite()) {
    // Workloads of phase suites are files (ycsb) or phases (sqlite-vps): ValidatePhaseArgs.
  } else if (args.workloads.empty()) {
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

  if (p.phase_suite()) {
    DBXB_RETURN_IF_ERROR(RejectGiven({{"key-size", &args.key_size}, {"value-size", &args.value_size}},
                                     fmt::format("applies to dbx-micro only (suite {} has its own record shape)", p.suite)));
    DBXB_RETURN_IF_ERROR(RejectGiven({{"warmup", &args.warmup}, {"measurement", &args.measurement},
                                      {"samples", &args.samples}, {"sampling", &args.sampling_mode},
                                      {"resamples", &args.resamples}},
                                     fmt::format("applies to the sampled dbx-micro suite only (suite {} measures every "
                                                 "operation; see --operations, --duration, --phase-warmup)",
                                                 p.suite)));
    if (args.quick)
      return Status::InvalidArgument(fmt::format("--quick: applies to dbx-micro only (suite {}: use --operations or --records)", p.suite));
  } else {
    DBXB_RETURN_IF_ERROR(RejectGiven(
        {{"workload", &args.workload_files}, {"threads", &args.threads}, {"readers", &args.readers},
         {"writers", &args.writers}, {"operations", &args.operations}, {"duration", &args.duration},
         {"phase-warmup", &args.phase_warmup}, {"target-rate", &args.target_rate}, {"load-batch", &args.load_batch},
         {"raw-latencies", &args.raw_latencies}, {"dataset", &args.dataset}, {"memory-limit", &args.memory_limit},
         {"range-length", &args.range_length}},
        "applies to the phase suites (ycsb, sqlite-vps), not to the sampled dbx-micro suite"));
    DBXB_RETURN_IF_ERROR(CountOption("records", args.records.empty() ? "10000" : args.records, 1, 100000000, &p.shape.records));
    DBXB_RETURN_IF_ERROR(CountOption("key-size", args.key_size.empty() ? "12" : args.key_size, 12, 1 << 20, &p.shape.key_size));
    DBXB_RETURN_IF_ERROR(
        CountOption("value-size", args.value_size.empty() ? "19" : args.value_size, 19, 64 << 20, &p.shape.value_size));
    if (p.shape.records * (p.shape.key_size + p.shape.value_size) > (64ull << 30))
      return Status::InvalidArgument("--records: the data set would be larger than 64 GiB");
  }

  // dbx-micro compares engines at memory speed, as the DBX comparison does: durability none. The phase
  // suites measure engines as deployed: durability normal (for sqlite-vps, the study's synchronous=NORMAL).
  std::string durability = args.durability.empty() ? (p.phase_suite() ? "normal" : "none") : args.durability;
  if (!ParseDurability(durability, &p.durability))
    return Status::InvalidArgument(fmt::format("--durability: '{}' is not one of none, normal, full", durability));

  {
    const std::string cache = args.cache_size.empty() ? "64MiB" : args.cache_size;
    Status st = ParseBytes(cache, &p.cache_bytes);
    if (!st.ok()) return OptionError("cache-size", st);
    if (p.cache_bytes < (1ull << 20) || p.cache_bytes > (1ull << 40))
      return Status::InvalidArgument(fmt::format("--cache-size: '{}' is out of range (1 MiB to 1 TiB)", cache));
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

  if (p.phase_suite()) {
    p.phase_options.seed = p.seed;
    p.phase_options.engine_options.durability = p.durability;
    p.phase_options.engine_options.cache_bytes = p.cache_bytes;
    DBXB_RETURN_IF_ERROR(ValidatePhaseArgs(args, &p));
  }

  if (p.phase_suite()) {
    const PhaseSuiteOptions& o = p.phase_options;
    std::vector<std::string> files;
    for (const YcsbFile& f : p.ycsb_files) files.push_back(f.path);
    std::vector<std::string> datasets;
    for (VpsDataset d : p.vps.datasets) datasets.emplace_back(VpsDatasetName(d));
    auto or_default = [](uint64_t v) { return v == 0 ? std::string("default") : std::to_string(v); };
    p.configuration = {
        {"suite", p.suite},
        {"engines", [&] { std::vector<std::string> n; for (auto* f : p.engines) n.push_back(f->name); return Join(n); }()},
        {"records", or_default(o.records)},
        {"operations", or_default(o.operations)},
        {"duration_seconds", o.duration_seconds > 0 ? fmt::format("{}", o.duration_seconds) : "none"},
        {"phase_warmup_seconds", o.warmup_seconds > 0 ? fmt::format("{}", o.warmup_seconds) : "default"},
        {"threads", or_default(o.threads)},
        {"target_rate", o.target_rate > 0 ? fmt::format("{}", o.target_rate) : "closed loop"},
        {"load_batch", std::to_string(o.load_batch)},
        {"durability", std::string(DurabilityName(p.durability))},
        // sqlite-vps sizes the caches per data set unless --cache-size is given (vps_config.h).
        {"cache_bytes", p.suite == "sqlite-vps" && p.vps.cache_bytes == 0
                            ? std::string("suite default: 256 MiB cached, memory limit / 8 disk-bound")
                            : std::to_string(p.cache_bytes)},
        {"seed", std::to_string(p.seed)},
        {"formats", Join(p.formats)},
        {"raw_latencies", p.raw_latencies.empty() ? "none" : p.raw_latencies},
    };
    if (p.suite == "ycsb") {
      p.configuration.insert(p.configuration.begin() + 2, {"workload_files", Join(files)});
    } else {
      p.configuration.emplace_back("datasets", Join(datasets));
      p.configuration.emplace_back("readers", or_default(o.readers));
      p.configuration.emplace_back("writers", or_default(o.writers));
      p.configuration.emplace_back("memory_limit_bytes", or_default(p.vps.memory_limit_bytes));
      p.configuration.emplace_back("range_length", or_default(p.vps.range_length));
      p.configuration.emplace_back("phases", p.vps.phases.empty() ? "all" : Join(p.vps.phases));
    }
    *plan = std::move(p);
    return Status::Ok();
  }

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
