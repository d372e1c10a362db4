#include "compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "compare/compare_counters.h"
#include "records/record_names.h"
#include "stats/compare_stats.h"
#include "stats/paired_stats.h"
#include "stats/statistics.h"

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

// The keys of `records` (benchmarks or phases) in order; InvalidArgument when one repeats.
template <typename Record>
Status KeysOf(const RunSide& side, const std::vector<Record>& records, std::vector<BenchmarkKey>* keys) {
  for (const Record& r : records) {
    BenchmarkKey key = BenchmarkKey::Of(r);
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
      return Status::InvalidArgument(
          fmt::format("{}: {}: samples[{}] has zero iterations", side.name, BenchmarkName(b), i));
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

std::string Describe(const std::string& side, const std::string& error_message) {
  return fmt::format("failed in {}: {}", side, error_message.empty() ? "no reason recorded" : error_message);
}

}  // namespace

std::vector<std::string> CompareWarnings(const RunResults& baseline, const RunResults& current) {
  std::vector<std::string> out;
  std::vector<std::string>* warnings = &out;
  const RunContext& a = baseline.context;
  const RunContext& b = current.context;
  if (a.host_name != b.host_name || a.cpu_model != b.cpu_model) {
    warnings->push_back(
        fmt::format("⚠️ The runs come from different machines (baseline: {}, {}; current: {}, {}): "
                    "every change includes the difference of machines.",
                    a.host_name, a.cpu_model, b.host_name, b.cpu_model));
  }
  if (a.build_type != b.build_type || a.compiler != b.compiler || a.compiler_flags != b.compiler_flags) {
    warnings->push_back(
        fmt::format("⚠️ dbx-bench was built differently (baseline: {} {} `{}`; current: {} {} `{}`).", a.build_type,
                    a.compiler, a.compiler_flags, b.build_type, b.compiler, b.compiler_flags));
  }
  for (const LibraryInfo& lib : b.libraries) {
    for (const LibraryInfo& old : a.libraries) {
      if (old.engine == lib.engine && (old.version != lib.version || old.build != lib.build)) {
        warnings->push_back(fmt::format("⚠️ {} changed library: {} ({}) in the baseline, {} ({}) now.", lib.engine,
                                        old.version, old.build, lib.version, lib.build));
      }
    }
  }
  if (a.incomplete)
    warnings->push_back("⚠️ The baseline run was interrupted: it holds only the benchmarks that finished.");
  if (b.incomplete)
    warnings->push_back("⚠️ The current run was interrupted: it holds only the benchmarks that finished.");
  return out;
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

namespace {

// Pairs the records of both runs by key, in the current run's order then the baseline-only ones:
// compare_pair(key, base, cur) for a pair of successful records; `emit` gets the rows of failed pairs
// and of records on one side only (with that side's values from side_values when it did not fail).
template <typename Record, typename SideValues, typename ComparePair, typename Emit>
Status PairByKey(const RunSide& baseline, const std::vector<Record>& base_records, const RunSide& current,
                 const std::vector<Record>& cur_records, SideValues side_values, ComparePair compare_pair, Emit emit) {
  std::vector<BenchmarkKey> base_keys, cur_keys;
  DBXB_RETURN_IF_ERROR(KeysOf(baseline, base_records, &base_keys));
  DBXB_RETURN_IF_ERROR(KeysOf(current, cur_records, &cur_keys));
  std::vector<double> values;
  for (size_t i = 0; i < cur_keys.size(); ++i) {
    const Record& cur = cur_records[i];
    const long j = FindKey(base_keys, cur_keys[i]);
    if (j < 0) {
      MetricComparison row = RowFor(cur_keys[i], Outcome::kOnlyInCurrent);
      if (!cur.error_occurred) {
        DBXB_RETURN_IF_ERROR(side_values(current, cur, &values));
        if (!values.empty()) SetSide(values, &row.current_mean, &row.current_median, &row.current_count);
      }
      emit(std::move(row));
      continue;
    }
    const Record& base = base_records[static_cast<size_t>(j)];
    if (base.error_occurred || cur.error_occurred) {
      MetricComparison row = RowFor(cur_keys[i], Outcome::kFailed);
      if (base.error_occurred) row.note = Describe("baseline", base.error_message);
      if (cur.error_occurred) row.note += (row.note.empty() ? "" : "; ") + Describe("current", cur.error_message);
      if (!base.error_occurred && side_values(baseline, base, &values).ok() && !values.empty())
        SetSide(values, &row.baseline_mean, &row.baseline_median, &row.baseline_count);
      if (!cur.error_occurred && side_values(current, cur, &values).ok() && !values.empty())
        SetSide(values, &row.current_mean, &row.current_median, &row.current_count);
      emit(std::move(row));
      continue;
    }
    DBXB_RETURN_IF_ERROR(compare_pair(cur_keys[i], base, cur));
  }
  for (size_t j = 0; j < base_keys.size(); ++j) {
    if (FindKey(cur_keys, base_keys[j]) >= 0) continue;
    const Record& base = base_records[j];
    MetricComparison row = RowFor(base_keys[j], Outcome::kOnlyInBaseline);
    if (!base.error_occurred) {
      DBXB_RETURN_IF_ERROR(side_values(baseline, base, &values));
      if (!values.empty()) SetSide(values, &row.baseline_mean, &row.baseline_median, &row.baseline_count);
    }
    emit(std::move(row));
  }
  return Status::Ok();
}

// A phase's per-second intervals as two series whose ratio of sums is the metric, and its point
// estimate from the phase as a whole:
//  - throughput: (operations, interval length in s): the phase's rate; point = operations / duration;
//  - p99: (p99 x operations, operations): the operations-weighted mean of the per-second p99s, used
//    only for the spread; point = the p99 of the phase's merged histogram (service_time).
// The last interval's length is its real length (it may be partial). Intervals with no length, or
// for p99 no operations, are left out.
struct PhaseSeries {
  std::vector<double> numerator, denominator;
  double point = kNaN;
  double observed = kNaN;  // sum(numerator) / sum(denominator)
};

PhaseSeries SeriesOf(const PhaseResult& p, const std::string& metric) {
  PhaseSeries out;
  const auto& s = p.per_second;
  const bool rate = metric == "throughput";
  for (size_t i = 0; i < s.size(); ++i) {
    double length = i + 1 < s.size() ? s[i + 1].second - s[i].second : p.duration_ns / 1e9 - s[i].second;
    if (i + 1 == s.size() && s[i].operations > 0 && s[i].ops_per_sec > 0)
      length = static_cast<double>(s[i].operations) / s[i].ops_per_sec;
    const auto ops = static_cast<double>(s[i].operations);
    if (rate) {
      if (!(length > 0) || !std::isfinite(length)) continue;
      out.numerator.push_back(ops);
      out.denominator.push_back(length);
    } else if (s[i].operations > 0 && std::isfinite(s[i].p99_ns) && s[i].p99_ns > 0) {
      out.numerator.push_back(s[i].p99_ns * ops);
      out.denominator.push_back(ops);
    }
  }
  if (rate && p.duration_ns > 0) out.point = static_cast<double>(p.operations) * 1e9 / p.duration_ns;
  if (!rate && p.service_time.count > 0) out.point = p.service_time.p99_ns;
  double num = 0, den = 0;
  for (size_t i = 0; i < out.numerator.size(); ++i) {
    num += out.numerator[i];
    den += out.denominator[i];
  }
  out.observed = num / den;
  return out;
}

// Enough to compare: at least 2 intervals and a positive, finite point and observed ratio.
bool Comparable(const PhaseSeries& s) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  return s.numerator.size() >= 2 && positive(s.point) && positive(s.observed);
}

// One run per side of a phase metric: the change of the point estimates, with an interval and a
// bootstrap p from a moving-block bootstrap of each side's intervals (each resample's ratio to its
// side's observed value carries the spread, centred on the point estimates).
void ComparePhaseMetric(const PhaseSeries& base, const PhaseSeries& cur, const CompareOptions& options, uint64_t seed,
                        MetricComparison* row) {
  row->outcome = Outcome::kCompared;
  row->baseline_mean = row->baseline_median = base.point;
  row->current_mean = row->current_median = cur.point;
  row->baseline_count = base.numerator.size();
  row->current_count = cur.numerator.size();
  const std::vector<double> b = BlockBootstrapRatioOfSums(base.numerator, base.denominator,
                                                          BlockLength(base.numerator.size()), options.resamples, seed);
  const std::vector<double> c = BlockBootstrapRatioOfSums(
      cur.numerator, cur.denominator, BlockLength(cur.numerator.size()), options.resamples, seed + 1);
  const double point = cur.point / base.point;
  std::vector<double> change(options.resamples);
  uint64_t below = 0, above = 0;
  for (uint64_t r = 0; r < options.resamples; ++r) {
    change[r] = point * (c[r] / cur.observed) / (b[r] / base.observed) - 1;
    if (std::isnan(change[r])) change[r] = std::numeric_limits<double>::infinity();
    below += change[r] <= 0;
    above += change[r] >= 0;
  }
  row->mean_change = SummarizeDistribution(point - 1, &change, options.confidence_level);
  row->median_change = row->mean_change;
  row->t = kNaN;
  row->p_value =
      std::min(1.0, 2.0 * static_cast<double>(std::min(below, above)) / static_cast<double>(options.resamples));
  row->verdict =
      Classify(row->p_value, row->mean_change, row->direction, options.significance, options.noise_threshold);
  row->over_threshold = ExceedsGate(row->verdict, row->mean_change, row->direction, options.max_regression);
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
  if (!(o.noise_floor >= 0) || !std::isfinite(o.noise_floor))
    return Status::InvalidArgument(fmt::format("noise floor: {} is not a finite fraction >= 0", o.noise_floor));
  if (o.resamples == 0) return Status::InvalidArgument("resamples: must be at least 1");
  return Status::Ok();
}

BenchmarkKey BenchmarkKey::Of(const BenchmarkResult& b) {
  BenchmarkKey key{b.suite, b.workload, b.engine, b.parameters};
  std::stable_sort(key.parameters.begin(), key.parameters.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  return key;
}

BenchmarkKey BenchmarkKey::Of(const PhaseResult& p) {
  BenchmarkKey key{p.suite, p.workload, p.engine, p.parameters, p.phase, p.dataset};
  key.parameters.emplace_back("threads", std::to_string(p.threads));
  if (p.target_rate > 0) key.parameters.emplace_back("target_rate", fmt::format("{:g}", p.target_rate));
  std::stable_sort(key.parameters.begin(), key.parameters.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
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

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kNoChange:
      return "no change";
    case Verdict::kWithinNoise:
      return "change within noise threshold";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kRegressed:
      return "regressed";
  }
  return "unknown";
}

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kCompared:
      return "compared";
    case Outcome::kOnlyInBaseline:
      return "only in baseline";
    case Outcome::kOnlyInCurrent:
      return "only in current";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kInsufficientData:
      return "insufficient data";
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

const char* CompareMethodName(CompareMethod method) {
  switch (method) {
    case CompareMethod::kSamples:
      return "samples";
    case CompareMethod::kRuns:
      return "runs";
    case CompareMethod::kPairedRounds:
      return "paired rounds";
  }
  return "unknown";
}

std::string RowId(const BenchmarkKey& key, const std::string& metric) {
  return fmt::format("{} [{}] {}", key.Name(), JoinKeyValues(key.parameters), metric);
}

uint64_t ComparisonSeed(uint64_t options_seed, const BenchmarkKey& key, const std::string& metric) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::string* s : {&key.suite, &key.workload, &key.engine, &metric}) h = HashString(h, *s);
  if (!key.phase.empty()) h = HashString(HashString(h, key.phase), key.dataset);
  for (const auto& [name, value] : key.parameters) h = HashString(HashString(h, name), value);
  return Finalize(h ^ Finalize(options_seed));
}

void CompareMetric(const std::vector<double>& baseline, const std::vector<double>& current,
                   const CompareOptions& options, uint64_t seed, MetricComparison* row) {
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
  row->verdict =
      Classify(row->p_value, row->mean_change, row->direction, options.significance, options.noise_threshold);
  row->over_threshold = ExceedsGate(row->verdict, row->mean_change, row->direction, options.max_regression);
}

Status SampledTimeMatcher::Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
                                 std::vector<MetricComparison>* rows) const {
  auto side_values = [](const RunSide& side, const BenchmarkResult& b, std::vector<double>* times) {
    return TimesOf(side, b, times);
  };
  auto compare_pair = [&](const BenchmarkKey& key, const BenchmarkResult& base, const BenchmarkResult& cur) -> Status {
    std::vector<double> base_times, cur_times;
    DBXB_RETURN_IF_ERROR(TimesOf(baseline, base, &base_times));
    DBXB_RETURN_IF_ERROR(TimesOf(current, cur, &cur_times));
    MetricComparison row = RowFor(key, Outcome::kCompared);
    CompareMetric(base_times, cur_times, options, ComparisonSeed(options.seed, row.key, row.metric), &row);
    rows->push_back(std::move(row));
    return Status::Ok();
  };
  return PairByKey(baseline, baseline.results->benchmarks, current, current.results->benchmarks, side_values,
                   compare_pair, [&](MetricComparison row) { rows->push_back(std::move(row)); });
}

Status PhaseMatcher::Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
                           std::vector<MetricComparison>* rows) const {
  struct Metric {
    const char* name;
    Direction direction;
  };
  static const Metric kMetrics[] = {{"throughput", Direction::kHigherIsBetter}, {"p99", Direction::kLowerIsBetter}};
  // One pass per metric; both passes pair the phases in the same order, so their rows interleave
  // into throughput, p99, throughput, p99, ... per phase.
  std::vector<MetricComparison> by_metric[2];
  for (size_t m = 0; m < 2; ++m) {
    const Metric& metric = kMetrics[m];
    auto side_values = [&](const RunSide&, const PhaseResult& p, std::vector<double>* values) {
      const PhaseSeries series = SeriesOf(p, metric.name);
      values->clear();
      if (std::isfinite(series.point) && series.point > 0) values->push_back(series.point);
      return Status::Ok();
    };
    auto compare_pair = [&](const BenchmarkKey& key, const PhaseResult& base, const PhaseResult& cur) -> Status {
      const PhaseSeries base_series = SeriesOf(base, metric.name);
      const PhaseSeries cur_series = SeriesOf(cur, metric.name);
      MetricComparison row = RowFor(key, Outcome::kCompared);
      row.metric = metric.name;
      row.direction = metric.direction;
      std::string missing;
      if (!Comparable(base_series)) missing = "baseline";
      if (!Comparable(cur_series)) missing += missing.empty() ? "current run" : " and current run";
      if (!missing.empty()) {
        row.outcome = Outcome::kInsufficientData;
        row.note = fmt::format("fewer than 2 usable seconds in the {}", missing);
        row.baseline_mean = row.baseline_median = base_series.point;
        row.current_mean = row.current_median = cur_series.point;
        row.baseline_count = base_series.numerator.size();
        row.current_count = cur_series.numerator.size();
      } else {
        ComparePhaseMetric(base_series, cur_series, options, ComparisonSeed(options.seed, row.key, row.metric), &row);
      }
      by_metric[m].push_back(std::move(row));
      return Status::Ok();
    };
    auto emit = [&](MetricComparison row) {
      row.metric = metric.name;
      row.direction = metric.direction;
      by_metric[m].push_back(std::move(row));
    };
    DBXB_RETURN_IF_ERROR(PairByKey(baseline, baseline.results->phases, current, current.results->phases, side_values,
                                   compare_pair, emit));
  }
  for (size_t i = 0; i < by_metric[0].size(); ++i) {
    rows->push_back(std::move(by_metric[0][i]));
    rows->push_back(std::move(by_metric[1][i]));
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

size_t ComparisonReport::Unconfirmed() const {
  return static_cast<size_t>(std::count_if(rows.begin(), rows.end(), [](const MetricComparison& r) {
    return r.outcome == Outcome::kCompared && r.unconfirmed;
  }));
}

void DecideVerdicts(ComparisonReport* report) {
  const CompareOptions& o = report->options;
  std::vector<double> p;
  for (const MetricComparison& row : report->rows)
    if (row.outcome == Outcome::kCompared) p.push_back(row.p_value);
  const std::vector<double> adjusted = HolmAdjust(p);
  size_t next = 0;
  for (MetricComparison& row : report->rows) {
    if (row.outcome != Outcome::kCompared) continue;
    row.p_adjusted = adjusted[next++];
    row.verdict = Classify(row.p_adjusted, row.mean_change, row.direction, o.significance, o.noise_threshold);
    row.over_threshold = ExceedsGate(row.verdict, row.mean_change, row.direction, o.max_regression);
    row.unconfirmed = false;
    row.noise_floor = 0;
    if (report->method != CompareMethod::kSamples) continue;
    row.noise_floor = o.noise_floor;
    const std::string id = RowId(row.key, row.metric);
    for (const auto& [name, floor] : o.calibrated_floors)
      if (name == id) row.noise_floor = floor;
    if (row.over_threshold && !ExceedsGate(row.verdict, row.mean_change, row.direction, row.noise_floor)) {
      row.over_threshold = false;
      row.unconfirmed = true;
    }
  }
}

std::vector<std::unique_ptr<Matcher>> BuiltinMatchers() {
  std::vector<std::unique_ptr<Matcher>> matchers;
  matchers.push_back(std::make_unique<SampledTimeMatcher>());
  matchers.push_back(std::make_unique<PhaseMatcher>());
  matchers.push_back(std::make_unique<ResourceCounterMatcher>());
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
  if (out.Count(Outcome::kCompared) + out.Count(Outcome::kFailed) + out.Count(Outcome::kInsufficientData) == 0) {
    return Status::InvalidArgument(fmt::format(
        "no benchmark in common between the {} ({} benchmark{}) and the {} ({} benchmark{}): nothing to compare",
        base.name, baseline.benchmarks.size(), baseline.benchmarks.size() == 1 ? "" : "s", cur.name,
        current.benchmarks.size(), current.benchmarks.size() == 1 ? "" : "s"));
  }
  out.warnings = CompareWarnings(baseline, current);
  DecideVerdicts(&out);
  *report = std::move(out);
  return Status::Ok();
}

}  // namespace dbxb
