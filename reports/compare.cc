#include "reports/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "reports/compare_stats.h"
#include "reports/markdown_methodology.h"
#include "reports/reporter.h"
#include "reports/statistics.h"

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// FNV-1a, then SplitMix64's finaliser: a seed per row that depends only on what the row is.
uint64_t HashString(uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  h ^= 0xff;  // separator, so that ("ab", "c") and ("a", "bc") differ
  h *= 0x100000001b3ULL;
  return h;
}

uint64_t Finalize(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The index of the benchmark with `key` in `benchmarks`, or -1.
long FindKey(const std::vector<BenchmarkKey>& keys, const BenchmarkKey& key) {
  auto it = std::find(keys.begin(), keys.end(), key);
  return it == keys.end() ? -1 : static_cast<long>(it - keys.begin());
}

Status KeysOf(const RunSide& side, std::vector<BenchmarkKey>* keys) {
  for (const BenchmarkResult& b : side.results->benchmarks) {
    BenchmarkKey key = BenchmarkKey::Of(b);
    if (FindKey(*keys, key) >= 0) {
      return Status::InvalidArgument(fmt::format("{}: {} appears twice with the same parameters ({})", side.name,
                                                 key.Name(), JoinKeyValues(key.parameters)));
    }
    keys->push_back(std::move(key));
  }
  return Status::Ok();
}

// The per-iteration times of a successful benchmark, or InvalidArgument naming what is unusable.
Status TimesOf(const RunSide& side, const BenchmarkResult& b, std::vector<double>* times) {
  if (b.samples.size() < 2) {
    return Status::InvalidArgument(fmt::format("{}: {}: {} sample{} (at least 2 are needed to compare)", side.name,
                                               BenchmarkName(b), b.samples.size(), b.samples.size() == 1 ? "" : "s"));
  }
  times->clear();
  for (size_t i = 0; i < b.samples.size(); ++i) {
    const Sample& s = b.samples[i];
    if (s.iterations == 0)
      return Status::InvalidArgument(fmt::format("{}: {}: samples[{}] has zero iterations", side.name, BenchmarkName(b), i));
    const double t = s.total_ns / static_cast<double>(s.iterations);
    if (!std::isfinite(t) || !(t > 0)) {
      return Status::InvalidArgument(fmt::format("{}: {}: samples[{}] has a time that is not finite and positive ({})",
                                                 side.name, BenchmarkName(b), i, s.total_ns));
    }
    times->push_back(t);
  }
  return Status::Ok();
}

MetricComparison RowFor(const BenchmarkKey& key, Outcome outcome) {
  MetricComparison row;
  row.key = key;
  row.outcome = outcome;
  row.baseline_mean = row.baseline_median = row.current_mean = row.current_median = kNaN;
  return row;
}

void SetSide(const std::vector<double>& times, double* mean, double* median, uint64_t* count) {
  *mean = Mean(times);
  *median = Median(times);
  *count = times.size();
}

std::string Describe(const std::string& side, const BenchmarkResult& b) {
  return fmt::format("failed in {}: {}", side, b.error_message.empty() ? "no reason recorded" : b.error_message);
}

void AddWarnings(const RunResults& baseline, const RunResults& current, std::vector<std::string>* warnings) {
  const RunContext& a = baseline.context;
  const RunContext& b = current.context;
  if (a.host_name != b.host_name || a.cpu_model != b.cpu_model) {
    warnings->push_back(fmt::format("⚠️ The runs come from different machines (baseline: {}, {}; current: {}, {}): "
                                    "every change includes the difference of machines.",
                                    a.host_name, a.cpu_model, b.host_name, b.cpu_model));
  }
  if (a.build_type != b.build_type || a.compiler != b.compiler || a.compiler_flags != b.compiler_flags) {
    warnings->push_back(fmt::format("⚠️ dbx-bench was built differently (baseline: {} {} `{}`; current: {} {} `{}`).",
                                    a.build_type, a.compiler, a.compiler_flags, b.build_type, b.compiler,
                                    b.compiler_flags));
  }
  for (const LibraryInfo& lib : b.libraries) {
    for (const LibraryInfo& old : a.libraries) {
      if (old.engine == lib.engine && (old.version != lib.version || old.build != lib.build)) {
        warnings->push_back(fmt::format("⚠️ {} changed library: {} ({}) in the baseline, {} ({}) now.", lib.engine,
                                        old.version, old.build, lib.version, lib.build));
      }
    }
  }
  if (a.incomplete) warnings->push_back("⚠️ The baseline run was interrupted: it holds only the benchmarks that finished.");
  if (b.incomplete) warnings->push_back("⚠️ The current run was interrupted: it holds only the benchmarks that finished.");
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

}  // namespace

Status ValidateCompareOptions(const CompareOptions& o) {
  if (!(o.significance > 0 && o.significance < 1))
    return Status::InvalidArgument(fmt::format("significance: {} is not between 0 and 1", o.significance));
  if (!(o.noise_threshold >= 0) || !std::isfinite(o.noise_threshold))
    return Status::InvalidArgument(fmt::format("noise threshold: {} is not a finite fraction >= 0", o.noise_threshold));
  if (!(o.max_regression >= 0) || !std::isfinite(o.max_regression))
    return Status::InvalidArgument(fmt::format("max regression: {} is not a finite fraction >= 0", o.max_regression));
  if (!(o.confidence_level > 0 && o.confidence_level < 1))
    return Status::InvalidArgument(fmt::format("confidence level: {} is not between 0 and 1", o.confidence_level));
  if (o.resamples == 0) return Status::InvalidArgument("resamples: must be at least 1");
  return Status::Ok();
}

BenchmarkKey BenchmarkKey::Of(const BenchmarkResult& b) {
  BenchmarkKey key{b.suite, b.workload, b.engine, b.parameters};
  std::stable_sort(key.parameters.begin(), key.parameters.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  return key;
}

std::string BenchmarkKey::Name() const { return suite + "/" + workload + "/" + engine; }

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNoChange: return "no change";
    case Verdict::kWithinNoise: return "change within noise threshold";
    case Verdict::kImproved: return "improved";
    case Verdict::kRegressed: return "regressed";
  }
  return "unknown";
}

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCompared: return "compared";
    case Outcome::kOnlyInBaseline: return "only in baseline";
    case Outcome::kOnlyInCurrent: return "only in current";
    case Outcome::kFailed: return "failed";
  }
  return "unknown";
}

Verdict Classify(double p_value, const Interval& change, Direction direction, double significance,
                 double noise_threshold) {
  if (!(p_value < significance)) return Verdict::kNoChange;
  const bool above = change.lower > noise_threshold && change.upper > noise_threshold;
  const bool below = change.lower < -noise_threshold && change.upper < -noise_threshold;
  if (direction == Direction::kLowerIsBetter) {
    if (below) return Verdict::kImproved;
    if (above) return Verdict::kRegressed;
  } else {
    if (above) return Verdict::kImproved;
    if (below) return Verdict::kRegressed;
  }
  return Verdict::kWithinNoise;
}

bool ExceedsGate(Verdict verdict, const Interval& change, Direction direction, double max_regression) {
  if (verdict != Verdict::kRegressed) return false;
  return direction == Direction::kLowerIsBetter ? change.lower > max_regression : change.upper < -max_regression;
}

uint64_t ComparisonSeed(uint64_t options_seed, const BenchmarkKey& key, const std::string& metric) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::string* s : {&key.suite, &key.workload, &key.engine, &metric}) h = HashString(h, *s);
  for (const auto& [name, value] : key.parameters) h = HashString(HashString(h, name), value);
  return Finalize(h ^ Finalize(options_seed));
}

void CompareMetric(const std::vector<double>& baseline, const std::vector<double>& current, const CompareOptions& options,
                   uint64_t seed, MetricComparison* row) {
  row->outcome = Outcome::kCompared;
  SetSide(baseline, &row->baseline_mean, &row->baseline_median, &row->baseline_count);
  SetSide(current, &row->current_mean, &row->current_median, &row->current_count);
  BootstrapOptions bootstrap{options.resamples, options.confidence_level, seed};
  const RelativeChange change = BootstrapRelativeChange(current, baseline, bootstrap);
  row->mean_change = change.mean;
  row->median_change = change.median;
  const TTestResult t = BootstrapTTest(current, baseline, options.resamples, seed + 2);
  row->t = t.t;
  row->p_value = t.p_value;
  row->verdict = Classify(row->p_value, row->mean_change, row->direction, options.significance, options.noise_threshold);
  row->over_threshold = ExceedsGate(row->verdict, row->mean_change, row->direction, options.max_regression);
}

Status SampledTimeMatcher::Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
                                 std::vector<MetricComparison>* rows) const {
  std::vector<BenchmarkKey> base_keys, cur_keys;
  DBXB_RETURN_IF_ERROR(KeysOf(baseline, &base_keys));
  DBXB_RETURN_IF_ERROR(KeysOf(current, &cur_keys));
  std::vector<double> base_times, cur_times;
  for (size_t i = 0; i < cur_keys.size(); ++i) {
    const BenchmarkResult& cur = current.results->benchmarks[i];
    const long j = FindKey(base_keys, cur_keys[i]);
    if (j < 0) {
      MetricComparison row = RowFor(cur_keys[i], Outcome::kOnlyInCurrent);
      if (!cur.error_occurred) {
        DBXB_RETURN_IF_ERROR(TimesOf(current, cur, &cur_times));
        SetSide(cur_times, &row.current_mean, &row.current_median, &row.current_count);
      }
      rows->push_back(std::move(row));
      continue;
    }
    const BenchmarkResult& base = baseline.results->benchmarks[static_cast<size_t>(j)];
    if (base.error_occurred || cur.error_occurred) {
      MetricComparison row = RowFor(cur_keys[i], Outcome::kFailed);
      if (base.error_occurred) row.note = Describe("baseline", base);
      if (cur.error_occurred) row.note += (row.note.empty() ? "" : "; ") + Describe("current", cur);
      if (!base.error_occurred && TimesOf(baseline, base, &base_times).ok())
        SetSide(base_times, &row.baseline_mean, &row.baseline_median, &row.baseline_count);
      if (!cur.error_occurred && TimesOf(current, cur, &cur_times).ok())
        SetSide(cur_times, &row.current_mean, &row.current_median, &row.current_count);
      rows->push_back(std::move(row));
      continue;
    }
    DBXB_RETURN_IF_ERROR(TimesOf(baseline, base, &base_times));
    DBXB_RETURN_IF_ERROR(TimesOf(current, cur, &cur_times));
    MetricComparison row = RowFor(cur_keys[i], Outcome::kCompared);
    CompareMetric(base_times, cur_times, options, ComparisonSeed(options.seed, row.key, row.metric), &row);
    rows->push_back(std::move(row));
  }
  for (size_t j = 0; j < base_keys.size(); ++j) {
    if (FindKey(cur_keys, base_keys[j]) >= 0) continue;
    const BenchmarkResult& base = baseline.results->benchmarks[j];
    MetricComparison row = RowFor(base_keys[j], Outcome::kOnlyInBaseline);
    if (!base.error_occurred) {
      DBXB_RETURN_IF_ERROR(TimesOf(baseline, base, &base_times));
      SetSide(base_times, &row.baseline_mean, &row.baseline_median, &row.baseline_count);
    }
    rows->push_back(std::move(row));
  }
  return Status::Ok();
}

size_t ComparisonReport::Count(Outcome outcome) const {
  return static_cast<size_t>(
      std::count_if(rows.begin(), rows.end(), [&](const MetricComparison& r) { return r.outcome == outcome; }));
}

size_t ComparisonReport::RegressionsOverThreshold() const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const MetricComparison& r) {
    return r.outcome == Outcome::kCompared && r.over_threshold;
  }));
}

std::vector<std::unique_ptr<Matcher>> BuiltinMatchers() {
  std::vector<std::unique_ptr<Matcher>> matchers;
  matchers.push_back(std::make_unique<SampledTimeMatcher>());
  return matchers;
}

Status CompareRuns(const RunResults& baseline, const RunResults& current, const CompareOptions& options,
                   ComparisonReport* report) {
  DBXB_RETURN_IF_ERROR(ValidateCompareOptions(options));
  ComparisonReport out;
  out.options = options;
  out.baseline = LabelOf(baseline, report->baseline.source);
  out.current = LabelOf(current, report->current.source);
  auto side_name = [](const char* side, const std::string& source) {
    return source.empty() ? std::string(side) : fmt::format("{} {}", side, source);
  };
  RunSide base{&baseline, side_name("baseline", out.baseline.source)};
  RunSide cur{&current, side_name("current", out.current.source)};
  for (const auto& matcher : BuiltinMatchers()) DBXB_RETURN_IF_ERROR(matcher->Match(base, cur, options, &out.rows));
  if (out.Count(Outcome::kCompared) + out.Count(Outcome::kFailed) == 0) {
    return Status::InvalidArgument(fmt::format(
        "no benchmark in common between the {} ({} benchmark{}) and the {} ({} benchmark{}): nothing to compare",
        base.name, baseline.benchmarks.size(), baseline.benchmarks.size() == 1 ? "" : "s", cur.name,
        current.benchmarks.size(), current.benchmarks.size() == 1 ? "" : "s"));
  }
  AddWarnings(baseline, current, &out.warnings);
  *report = std::move(out);
  return Status::Ok();
}

}  // namespace dbxb
