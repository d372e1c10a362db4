#include "compare/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/fnv.h"
#include "common/prng.h"
#include "records/record_names.h"

namespace dbxb {
namespace {

// FNV-1a with a separator after each string, so that ("ab", "c") and ("a", "bc") differ.
uint64_t HashString(uint64_t h, std::string_view s) { return Fnv1a64Byte(Fnv1a64(s, h), 0xff); }

void SortParameters(KeyValues* parameters) {
  std::stable_sort(parameters->begin(), parameters->end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
}

}  // namespace

Status ValidateCompareOptions(const CompareOptions& o) {
  auto fraction = [](double v, const char* name) {
    if (v >= 0 && std::isfinite(v)) return Status::Ok();
    return Status::InvalidArgument(fmt::format("{}: {} is not a finite fraction >= 0", name, v));
  };
  if (!(o.significance > 0 && o.significance < 0.5))
    return Status::InvalidArgument(fmt::format("significance: {} is not between 0 and 0.5", o.significance));
  DBXB_RETURN_IF_ERROR(fraction(o.max_regression, "max regression"));
  DBXB_RETURN_IF_ERROR(fraction(o.max_instruction_regression, "max instruction regression"));
  if (!(o.noise_floor >= 0))
    return Status::InvalidArgument(fmt::format("noise floor: {} is not a fraction >= 0", o.noise_floor));
  if (o.resamples == 0) return Status::InvalidArgument("resamples: must be at least 1");
  if (o.looks == 0) return Status::InvalidArgument("looks: must be at least 1");
  return Status::Ok();
}

BenchmarkKey BenchmarkKey::Of(const BenchmarkResult& b) {
  BenchmarkKey key{b.suite, b.workload, b.engine, b.parameters};
  SortParameters(&key.parameters);
  return key;
}

BenchmarkKey BenchmarkKey::Of(const PhaseResult& p) {
  BenchmarkKey key{p.suite, p.workload, p.engine, p.parameters, p.phase, p.dataset};
  key.parameters.emplace_back("threads", std::to_string(p.threads));
  if (p.target_rate > 0) key.parameters.emplace_back("target_rate", fmt::format("{:g}", p.target_rate));
  SortParameters(&key.parameters);
  return key;
}

std::string BenchmarkKey::Name() const {
  if (phase.empty()) return suite + "/" + workload + "/" + engine;
  std::string name;
  for (const std::string* part : {&suite, &workload, &dataset, &phase, &engine}) {
    if (!part->empty()) name += (name.empty() ? "" : "/") + *part;
  }
  return name;
}

const char* OutcomeName(Outcome outcome) {
  static const char* const kNames[] = {"compared", "only in baseline", "only in current", "failed",
                                       "insufficient data"};
  return kNames[static_cast<int>(outcome)];
}

std::string RowId(const BenchmarkKey& key, std::string_view metric) {
  return fmt::format("{} [{}] {}", key.Name(), JoinKeyValues(key.parameters), metric);
}

uint64_t ComparisonSeed(uint64_t options_seed, const BenchmarkKey& key, std::string_view metric) {
  uint64_t h = kFnv64Offset;
  for (std::string_view s :
       {std::string_view(key.suite), std::string_view(key.workload), std::string_view(key.engine), metric})
    h = HashString(h, s);
  if (!key.phase.empty()) h = HashString(HashString(h, key.phase), key.dataset);
  for (const auto& [name, value] : key.parameters) h = HashString(HashString(h, name), value);
  return SplitMix64(h ^ SplitMix64(options_seed).Next()).Next();
}

RunLabel LabelOf(const RunResults& r, std::string source) {
  RunLabel l;
  l.source = std::move(source);
  l.host_name = r.context.host_name;
  l.date_utc = r.context.date_utc;
  l.git_commit = r.context.git_commit;
  l.git_dirty = r.context.git_dirty;
  l.tool_version = r.context.tool_version;
  return l;
}

std::vector<std::string> CompareWarnings(const RunResults& baseline, const RunResults& current) {
  std::vector<std::string> out;
  const RunContext& a = baseline.context;
  const RunContext& b = current.context;
  if (a.host_name != b.host_name || a.cpu_model != b.cpu_model) {
    out.push_back(
        fmt::format("⚠️ The runs come from different machines (baseline: {}, {}; current: {}, {}): "
                    "every change includes the difference of machines.",
                    a.host_name, a.cpu_model, b.host_name, b.cpu_model));
  }
  if (a.build_type != b.build_type || a.compiler != b.compiler || a.compiler_flags != b.compiler_flags) {
    out.push_back(fmt::format("⚠️ dbx-bench was built differently (baseline: {} {} `{}`; current: {} {} `{}`).",
                              a.build_type, a.compiler, a.compiler_flags, b.build_type, b.compiler, b.compiler_flags));
  }
  for (const LibraryInfo& lib : b.libraries) {
    for (const LibraryInfo& old : a.libraries) {
      if (old.engine == lib.engine && (old.version != lib.version || old.build != lib.build)) {
        out.push_back(fmt::format("⚠️ {} changed library: {} ({}) in the baseline, {} ({}) now.", lib.engine,
                                  old.version, old.build, lib.version, lib.build));
      }
    }
  }
  if (a.incomplete)
    out.push_back("⚠️ The baseline run was interrupted: it holds only the benchmarks that finished.");
  if (b.incomplete)
    out.push_back("⚠️ The current run was interrupted: it holds only the benchmarks that finished.");
  return out;
}

const char* CompareMethodName(CompareMethod method) {
  static const char* const kNames[] = {"samples", "runs", "paired rounds"};
  return kNames[static_cast<int>(method)];
}

size_t ComparisonReport::Count(Outcome outcome) const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(), [&](const MetricComparison& r) { return r.outcome == outcome; }));
}

size_t ComparisonReport::Count(Verdict verdict) const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [&](const MetricComparison& r) {
    return r.outcome == Outcome::kCompared && r.verdict == verdict;
  }));
}

bool ComparisonReport::GateFailed() const {
  return Count(Verdict::kRegressed) > 0 || (options.fail_on_inconclusive && Count(Verdict::kInconclusive) > 0);
}

FamilySummary ComparisonReport::Family(MetricFamily family) const {
  FamilySummary f;
  for (const MetricComparison& r : rows) {
    // Rows decided without a test (level 0: a phase too short to compare) are not in the family.
    if (r.outcome != Outcome::kCompared || r.metric->family != family || !(r.level > 0)) continue;
    ++f.rows;
    f.level = r.level;
    f.threshold = ThresholdOf(*r.metric, options);
  }
  return f;
}

double ThresholdOf(const Metric& metric, const CompareOptions& options) {
  return metric.family == MetricFamily::kInstructions ? options.max_instruction_regression : options.max_regression;
}

void DecideVerdicts(ComparisonReport* report) {
  for (MetricComparison& row : report->rows) {
    if (row.outcome != Outcome::kCompared) continue;
    const double threshold = ThresholdOf(*row.metric, report->options);
    row.verdict = Decide(row.change, row.metric->direction, threshold);
    row.detectable = DetectableRegression(row.change, row.metric->direction, threshold);
  }
}

void FamilyCounts::Add(const Metric& metric) {
  switch (metric.family) {
    case MetricFamily::kTiming:
      ++timing;
      break;
    case MetricFamily::kCounter:
      ++counters;
      break;
    case MetricFamily::kInstructions:
      ++instructions;
      break;
  }
}

size_t FamilyCounts::Of(MetricFamily family) const {
  return family == MetricFamily::kTiming ? timing : family == MetricFamily::kCounter ? counters : instructions;
}

double LevelOf(const Metric& metric, const FamilyCounts& counts, const CompareOptions& options) {
  return FamilyLevel(options.significance, counts.Of(metric.family), options.looks);
}

}  // namespace dbxb
