#include "writers/markdown_methodology.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/grouping.h"
#include "writers/format.h"
#include "writers/markdown_phases.h"
#include "writers/reporter.h"

namespace dbxb {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool Contains(const std::string& haystack, std::string_view needle) {
  return Lower(haystack).find(needle) != std::string::npos;
}

// A build described as "debug", as a word: "-DNDEBUG" (a release build's flag) is not one.
bool IsDebugBuild(const std::string& build) {
  const std::string text = Lower(build);
  for (size_t at = text.find("debug"); at != std::string::npos; at = text.find("debug", at + 1))
    if (at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]))) return true;
  return false;
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

// Values in order of first appearance, without repeats.
void AddUnique(std::vector<std::string>* list, const std::string& value) {
  if (std::find(list->begin(), list->end(), value) == list->end()) list->push_back(value);
}

const LibraryInfo* FindLibrary(const RunContext& c, const std::string& engine) {
  for (const LibraryInfo& lib : c.libraries) {
    if (lib.engine == engine) return &lib;
  }
  return nullptr;
}

// The Build cell of the engines table: the build, and where it came from when that was recorded.
std::string BuildCell(const LibraryInfo* lib) {
  if (lib == nullptr) return "unknown";
  std::string text = lib->build;
  if (!lib->source.empty()) text += ", from " + lib->source;
  if (!lib->release_date.empty()) text += ", released " + lib->release_date;
  if (!lib->flags.empty()) text += "; flags `" + lib->flags + "`";
  return text;
}

// Days from the date at the start of `from` (YYYY-MM-DD...) to that of `to`; nullopt when either is not a date.
std::optional<int> DaysBetween(const std::string& from, const std::string& to) {
  auto parse = [](const std::string& text) -> std::optional<std::chrono::sys_days> {
    int y = 0;
    unsigned m = 0, d = 0;
    if (text.size() < 10 || std::sscanf(text.c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3) return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
    if (!ymd.ok()) return std::nullopt;
    return std::chrono::sys_days{ymd};
  };
  const auto a = parse(from), b = parse(to);
  if (!a || !b) return std::nullopt;
  return static_cast<int>((*b - *a).count());
}

bool OptimisedBuild(const std::string& build_type) {
  std::string t = Lower(build_type);
  return t == "release" || t == "relwithdebinfo" || t == "minsizerel";
}

// Parameter names the Methodology spells out; any other parameter is shown as recorded.
std::string DescribeParameter(const std::string& key, const std::string& value) {
  if (key == "records") return "Records: " + value;
  if (key == "key_size") return "Key size: " + value + " B";
  if (key == "value_size") return "Value size: " + value + " B";
  if (key == "durability") return "Durability: " + value;
  return key + ": " + value;
}

void WriteEngines(const RunResults& results, std::ostream& out) {
  out << "### Engines\n\n";
  out << "| Engine | Library | Build | Native settings |\n|:--|:--|:--|:--|\n";
  for (const std::string& engine : EnginesOfRun(results)) {
    // Settings as each benchmark applied them; differing sets are listed with their workloads.
    std::vector<std::pair<std::string, std::vector<std::string>>> sets;
    for (const BenchmarkResult& b : results.benchmarks) {
      if (b.engine != engine) continue;
      std::string s = JoinKeyValues(b.engine_settings);
      auto it = std::find_if(sets.begin(), sets.end(), [&](const auto& p) { return p.first == s; });
      if (it == sets.end())
        sets.push_back({s, {b.workload}});
      else
        AddUnique(&it->second, b.workload);
    }
    for (const PhaseResult& p : results.phases) {
      if (p.engine != engine) continue;
      std::string s = JoinKeyValues(p.engine_settings);
      std::string label = p.workload.empty() ? p.dataset : p.workload + (p.dataset.empty() ? "" : "/" + p.dataset);
      auto it = std::find_if(sets.begin(), sets.end(), [&](const auto& x) { return x.first == s; });
      if (it == sets.end())
        sets.push_back({s, {label}});
      else
        AddUnique(&it->second, label);
    }
    std::vector<std::string> described;
    for (const auto& [settings, workloads] : sets) {
      std::string text = settings.empty() ? "(none reported)" : "`" + settings + "`";
      described.push_back(sets.size() == 1 ? text : Join(workloads, ", ") + ": " + text);
    }
    const LibraryInfo* lib = FindLibrary(results.context, engine);
    out << fmt::format("| {} | {} | {} | {} |\n", EscapeTableCell(engine),
                       EscapeTableCell(lib ? lib->version : "unknown"), EscapeTableCell(BuildCell(lib)),
                       EscapeTableCell(Join(described, "; ")));
  }
  out << "\n";
}

void WriteSampling(const RunResults& results, std::ostream& out) {
  if (results.benchmarks.empty()) return;  // a run of phases only: nothing was sampled
  const SamplingConfig& s = results.context.sampling;
  out << "### Sampling\n\n";
  out << fmt::format(
      "- Each benchmark: warm-up for {} s, then {} samples over about {} s of measurement "
      "(wall-clock time).\n",
      FormatFixed(s.warmup_seconds, 1), FormatInteger(s.sample_count), FormatFixed(s.measurement_seconds, 1));
  // Sampling mode per workload, or per benchmark where the engines of a workload differ.
  std::vector<std::string> modes;
  std::vector<std::string> seen;
  for (const BenchmarkResult& b : results.benchmarks) {
    std::string workload = b.suite + "/" + b.workload;
    if (std::find(seen.begin(), seen.end(), workload) != seen.end()) continue;
    seen.push_back(workload);
    bool uniform = std::all_of(results.benchmarks.begin(), results.benchmarks.end(), [&](const BenchmarkResult& o) {
      return o.suite != b.suite || o.workload != b.workload || o.sampling_mode == b.sampling_mode;
    });
    if (uniform) {
      modes.push_back(fmt::format("{}: {}", workload, SamplingModeName(b.sampling_mode)));
      continue;
    }
    for (const BenchmarkResult& o : results.benchmarks) {
      if (o.suite == b.suite && o.workload == b.workload) {
        modes.push_back(fmt::format("{}: {}", BenchmarkName(o), SamplingModeName(o.sampling_mode)));
      }
    }
  }
  if (s.forced_sampling_mode) {
    out << fmt::format("- Sampling mode forced to {} for every benchmark by the configuration.\n",
                       SamplingModeName(*s.forced_sampling_mode));
  } else if (!modes.empty()) {
    out << "- Sampling mode chosen per benchmark (linear: sample i runs i·d iterations; flat: equal iterations "
           "per sample): "
        << Join(modes, "; ") << ".\n";
  }
  out << "- Time: the slope of total time against iterations for linear sampling, the mean time per iteration for "
         "flat sampling (Criterion's typical estimate). The tables' Time, its interval, the vs column, the rank and "
         "the throughput all come from it; ± Std dev is the spread of the per-iteration times of the samples.\n";
  out << fmt::format("- Confidence intervals: {:g} % bootstrap intervals from {} resamples, seed {}.\n",
                     s.confidence_level * 100, FormatInteger(s.bootstrap_resamples), s.seed);
  out << "- Outliers: classified with Tukey's fences, reported, never removed.\n";
  out << fmt::format("- Run seed: {}.\n\n", results.context.seed);
}

void WriteDataShape(const RunResults& results, std::ostream& out) {
  std::vector<std::pair<std::string, std::vector<std::string>>> params;
  auto add = [&](const KeyValues& kvs) {
    for (const auto& [key, value] : kvs) {
      auto it = std::find_if(params.begin(), params.end(), [&k = key](const auto& p) { return p.first == k; });
      if (it == params.end())
        params.push_back({key, {value}});
      else
        AddUnique(&it->second, value);
    }
  };
  for (const BenchmarkResult& b : results.benchmarks) add(b.parameters);
  for (const PhaseResult& p : results.phases) add(p.parameters);
  out << "### Data shape\n\n";
  if (params.empty()) out << "- No parameters recorded.\n";
  for (const auto& [key, values] : params) out << "- " << DescribeParameter(key, Join(values, ", ")) << "\n";
  out << "\n";
}

std::string Setting(const KeyValues& kvs, const std::string& key) {
  for (const auto& [k, v] : kvs)
    if (k == key) return v;
  return {};
}

// Whether engines were settled before measuring (configuration "settle"), what each waited for (its
// "settle" native setting) and how long it took, per benchmark or phase.
void WriteSettle(const RunResults& results, std::ostream& out) {
  const std::string mode = Setting(results.context.configuration, "settle");
  if (mode.empty()) return;  // results of a version without settling
  out << "### Settling\n\n";
  if (mode == "off") {
    out << "- Off (`--no-settle`): every measured phase ran with the background work earlier writes left "
           "(flushes, compactions, WAL checkpoints) still pending.\n\n";
    return;
  }
  out << "- After a load and before each measured phase that follows writes, every engine was brought to a steady "
         "state: its recent writes moved into its main store (a flush, a checkpoint), an LSM engine's whole key range "
         "compacted, then its background work waited for; the time it took is not part of any measurement.\n";
  for (const std::string& engine : EnginesOfRun(results)) {
    std::string what;
    std::vector<std::string> times;
    for (const BenchmarkResult& b : results.benchmarks) {
      if (b.engine != engine || !b.settle_ns) continue;
      if (what.empty()) what = Setting(b.engine_settings, "settle");
      times.push_back(fmt::format("{} {}", b.workload, FormatDuration(*b.settle_ns)));
    }
    for (const PhaseResult& p : results.phases) {
      if (p.engine != engine || !p.settle_ns) continue;
      if (what.empty()) what = Setting(p.engine_settings, "settle");
      std::string label = p.workload.empty() ? p.phase : p.workload + "/" + p.phase;
      if (!p.dataset.empty()) label += " (" + p.dataset + ")";
      times.push_back(fmt::format("{} {}", label, FormatDuration(*p.settle_ns)));
    }
    if (times.empty()) continue;
    out << fmt::format("- {}: {}; before {}.\n", engine, what.empty() ? "nothing to wait for" : what,
                       Join(times, ", "));
  }
  out << "\n";
}

// The harness / native-loop ratios of `run --calibrate` (absent in results of versions without it).
void WriteCalibration(const RunResults& results, std::ostream& out) {
  const RunContext& c = results.context;
  const std::string mode = Setting(c.configuration, "calibrate");
  if (mode.empty()) return;
  out << "### Native-loop calibration\n\n";
  if (mode == "off") {
    out << "- Not measured in this run (`run --calibrate` measures it).\n\n";
    return;
  }
  if (c.calibration.empty()) {
    out << "- No engine of this run has a native loop.\n\n";
    return;
  }
  out << fmt::format(
      "dbx-micro's loops ({} rows of 12 B keys and 19 B values, {} alternating rounds per side) through the "
      "harness and written directly on each engine's own API, on the same database; ratio = the median over "
      "rounds of each round's harness / native time (min ratio: of the fastest rounds). Goal for point reads "
      "(get): at most {:.2f}.\n\n",
      c.calibration.front().records, c.calibration.front().rounds, kCalibrationGetGoal);
  out << "| Engine | Loop | Harness ns/op | Native ns/op | Ratio | Min ratio |\n";
  out << "| --- | --- | ---: | ---: | ---: | ---: |\n";
  for (const CalibrationResult& r : c.calibration) {
    if (!r.error.empty()) {
      out << fmt::format("| {} | {} | failed: {} | | | |\n", r.engine, r.workload, r.error);
      continue;
    }
    const bool over = r.workload == "get" && r.ratio > kCalibrationGetGoal;
    out << fmt::format("| {} | {} | {:.1f} | {:.1f} | {:.3f}{} | {:.3f} |\n", r.engine, r.workload, r.harness_ns_per_op,
                       r.native_ns_per_op, r.ratio, over ? " ⚠️" : "", r.min_ratio);
  }
  out << "\n";
  std::vector<std::string> without;
  for (const std::string& engine : EnginesOfRun(results)) {
    const bool calibrated = std::any_of(c.calibration.begin(), c.calibration.end(),
                                        [&](const CalibrationResult& r) { return r.engine == engine; });
    if (!calibrated && engine != "null") without.push_back(engine);
  }
  if (!without.empty()) out << fmt::format("- Not calibrated (no native loop): {}.\n\n", Join(without, ", "));
}

void WriteMachine(const RunContext& c, std::ostream& out) {
  out << "### Machine\n\n";
  out << fmt::format("- Host: {}, {}, {} cores", c.host_name, c.cpu_model, c.num_cpus);
  if (c.cpu_mhz > 0) out << fmt::format(" at {} MHz", c.cpu_mhz);
  out << fmt::format(", {} memory.\n", FormatBytes(static_cast<double>(c.memory_bytes)));
  out << fmt::format("- CPU frequency scaling: {}.\n", c.cpu_scaling_enabled ? "enabled" : "disabled or unknown");
  if (!c.load_avg.empty()) {
    std::vector<std::string> loads;
    for (double l : c.load_avg) loads.push_back(FormatFixed(l, 2));
    out << "- Load average at start: " << Join(loads, ", ") << ".\n";
  }
  out << fmt::format("- Kernel: {}.\n", c.kernel);
  out << fmt::format("- Compiler: {}, flags `{}`, build type {}.\n", c.compiler, c.compiler_flags, c.build_type);
  out << fmt::format("- dbx-bench {}, commit {}{}.\n", c.tool_version, c.git_commit,
                     c.git_dirty ? " with uncommitted changes" : "");
  out << fmt::format("- Date: {}.\n\n", c.date_utc);
}

}  // namespace

std::string EscapeTableCell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|')
      out += "\\|";
    else if (ch == '\n' || ch == '\r')
      out += ' ';
    else
      out += ch;
  }
  return out;
}

std::vector<std::string> ReadingWarnings(const RunResults& results) {
  const RunContext& c = results.context;
  std::vector<std::string> w;
  if (c.incomplete) w.push_back("⚠️ The run was interrupted: only the benchmarks that finished are reported.");
  for (const std::string& engine : EnginesOfRun(results)) {
    const LibraryInfo* lib = FindLibrary(c, engine);
    if (lib == nullptr) continue;
    if (Contains(lib->build, "assertions enabled")) {
      w.push_back(
          fmt::format("⚠️ {} ({}) was built with assertions enabled ({}): its times include the "
                      "checks and read slower than a release build would.",
                      engine, lib->version, lib->build));
    } else if (IsDebugBuild(lib->build)) {
      w.push_back(fmt::format("⚠️ {} ({}) is a debug build ({}): its times are not those of a release build.",
                              engine, lib->version, lib->build));
    }
    const std::optional<int> age = DaysBetween(lib->release_date, c.date_utc);
    if (age && *age > 2 * 365) {
      w.push_back(fmt::format(
          "⚠️ {} ({}, {}) was released {}, {:.1f} years before this run: a current release "
          "may read differently.",
          engine, lib->version, lib->source.empty() ? lib->build : lib->source, lib->release_date, *age / 365.25));
    }
  }
  if (!OptimisedBuild(c.build_type)) {
    w.push_back(
        fmt::format("⚠️ dbx-bench was built as \"{}\", not an optimised build: the harness and DBX run slower "
                    "than in a Release build.",
                    c.build_type));
  }
  if (c.git_dirty) w.push_back("⚠️ dbx-bench was built from a working tree with uncommitted changes.");
  if (c.cpu_scaling_enabled)
    w.push_back("⚠️ CPU frequency scaling was enabled: times depend on the clock of the moment.");
  if (!c.load_avg.empty() && c.num_cpus > 0 && c.load_avg[0] >= 0.5 * static_cast<double>(c.num_cpus)) {
    w.push_back(
        fmt::format("⚠️ The machine was busy when the run started (load average {} on {} cores): other "
                    "work may have slowed some benchmarks.",
                    FormatFixed(c.load_avg[0], 2), c.num_cpus));
  }
  std::vector<std::string> failed;
  for (const BenchmarkResult& b : results.benchmarks) {
    if (b.error_occurred) failed.push_back(BenchmarkName(b));
    for (const std::string& note : b.sampling_notes) w.push_back(fmt::format("⚠️ {}: {}", BenchmarkName(b), note));
  }
  if (!failed.empty()) {
    w.push_back(fmt::format("⚠️ {} benchmark{} failed and {} not ranked: {}.", failed.size(),
                            failed.size() == 1 ? "" : "s", failed.size() == 1 ? "is" : "are", Join(failed, ", ")));
  }
  for (std::string& p : PhaseWarnings(results)) w.push_back(std::move(p));
  return w;
}

void WriteMethodology(const RunResults& results, std::ostream& out) {
  const RunContext& c = results.context;
  out << "## Methodology\n\n";
  out << "_Generated from the configuration recorded with the results._\n\n";
  WriteEngines(results, out);
  WriteSampling(results, out);
  WritePhaseMethodology(results, out);
  WriteSettle(results, out);
  WriteDataShape(results, out);
  WriteMachine(c, out);
  out << "### Harness overhead\n\n";
  if (c.harness_overhead_ns_per_op && results.benchmarks.empty() && !results.phases.empty()) {
    out << fmt::format(
        "- {} per operation: the phase runner's own cost (clock read, histogram and time-series "
        "records, loop), measured with a worker that does nothing.\n\n",
        FormatDuration(*c.harness_overhead_ns_per_op));
  } else if (c.harness_overhead_ns_per_op) {
    out << fmt::format("- {} per operation, measured with the null adapter.\n\n",
                       FormatDuration(*c.harness_overhead_ns_per_op));
  } else {
    out << "- Not measured.\n\n";
  }
  WriteCalibration(results, out);
  out << "### Command line\n\n```\n" << c.command_line << "\n```\n\n";
  out << "### Configuration\n\n";
  if (c.configuration.empty()) out << "- None recorded.\n";
  for (const auto& [key, value] : c.configuration) out << "- " << key << ": `" << value << "`\n";
}

}  // namespace dbxb
