#include "compare/compare_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "records/record_names.h"
#include "stats/paired_stats.h"
#include "stats/statistics.h"

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool Positive(double v) { return std::isfinite(v) && v > 0; }

// Where a row is found in a run's estimates, or -1.
long Find(const std::vector<RowEstimate>& rows, const BenchmarkKey& key, const std::string& metric) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].metric == metric && rows[i].key == key) return static_cast<long>(i);
  return -1;
}

// One side's values of one row, across its runs; Status names a run that lacks the row or failed.
struct SideValues {
  std::vector<double> values;
  std::string failure;  ///< "failed in current round 3: ..." (empty = every run succeeded)
  bool unusable = false;
};

std::string RunName(const char* side, bool paired, size_t i, const std::string& source) {
  return fmt::format("{} {} {} ({})", side, paired ? "round" : "run", i + 1, source);
}

Status Collect(const std::vector<std::vector<RowEstimate>>& side, const RunSet& set, const char* side_name, bool paired,
               const RowEstimate& row, SideValues* out) {
  for (size_t i = 0; i < side.size(); ++i) {
    const long j = Find(side[i], row.key, row.metric);
    if (j < 0) {
      return Status::InvalidArgument(
          fmt::format("{} has no {} ({}), which {} run 1 has: the runs of one side must be runs of the same command",
                      RunName(side_name, paired, i, set.sources[i]), row.key.Name(), row.metric, side_name));
    }
    const RowEstimate& e = side[i][static_cast<size_t>(j)];
    if (e.failed && out->failure.empty()) {
      out->failure = fmt::format("failed in {}: {}", RunName(side_name, paired, i, set.sources[i]),
                                 e.error.empty() ? "no reason recorded" : e.error);
    }
    if (!e.failed && !e.usable) out->unusable = true;
    out->values.push_back(e.value);
  }
  return Status::Ok();
}

void SetSide(const std::vector<double>& values, double* mean, double* median, uint64_t* count) {
  *mean = GeometricMean(values);
  *median = Median(values);
  *count = values.size();
}

std::string SideSource(const RunSet& set, bool paired) {
  if (set.sources.size() == 1) return set.sources[0];
  return fmt::format("{} … {} ({} {})", set.sources.front(), set.sources.back(), set.sources.size(),
                     paired ? "rounds" : "runs");
}

// The statistics of one compared row.
void CompareValues(const std::vector<double>& base, const std::vector<double>& cur, bool paired,
                   const CompareOptions& options, MetricComparison* row) {
  row->outcome = Outcome::kCompared;
  SetSide(base, &row->baseline_mean, &row->baseline_median, &row->baseline_count);
  SetSide(cur, &row->current_mean, &row->current_median, &row->current_count);
  if (paired) {
    std::vector<double> logs;
    for (size_t i = 0; i < base.size(); ++i) {
      row->ratios.push_back(cur[i] / base[i]);
      logs.push_back(std::log(row->ratios.back()));
    }
    // Robust over rounds: one round that a burst of load hit on one side is trimmed, not averaged in.
    const TrimmedTest trimmed = TrimmedMeanTest(logs, kTrimProportion, options.confidence_level);
    const Interval& l = trimmed.interval;
    const double point = std::exp(l.point);
    row->mean_change = Interval{point - 1, std::exp(l.lower) - 1, std::exp(l.upper) - 1, point * l.std_error};
    row->trimmed_rounds = trimmed.trimmed;
    const double median = Median(row->ratios) - 1;
    row->median_change = Interval{median, median, median, 0};
    row->t = trimmed.test.t;
    row->p_value = trimmed.test.p_value;
    row->signed_rank_p = WilcoxonSignedRank(logs).p_value;
    return;
  }
  const Interval r = RatioOfGeometricMeans(cur, base, options.confidence_level);
  row->mean_change = Interval{r.point - 1, r.lower - 1, r.upper - 1, r.std_error};
  const double median = Median(cur) / Median(base) - 1;
  row->median_change = Interval{median, median, median, 0};
  std::vector<double> lc, lb;
  for (double v : cur) lc.push_back(std::log(v));
  for (double v : base) lb.push_back(std::log(v));
  const TTest t = WelchTTest(lc, lb);
  row->t = t.t;
  row->p_value = t.p_value;
}

MetricComparison EmptyRow(const RowEstimate& e, Outcome outcome) {
  MetricComparison row;
  row.key = e.key;
  row.metric = e.metric;
  row.direction = e.direction;
  row.outcome = outcome;
  row.baseline_mean = row.baseline_median = row.current_mean = row.current_median = kNaN;
  return row;
}

}  // namespace

double RunTimeEstimate(const BenchmarkResult& b) {
  std::vector<double> times = PerIterationTimes(b.samples);
  return QuantileInPlace(&times, 0.25);
}

Status RunEstimates(const RunResults& run, const std::string& side, std::vector<RowEstimate>* out, bool typical_time) {
  out->clear();
  auto add = [&](RowEstimate e) -> Status {
    if (Find(*out, e.key, e.metric) >= 0) {
      return Status::InvalidArgument(fmt::format("{}: {} appears twice with the same parameters ({})", side,
                                                 e.key.Name(), JoinKeyValues(e.key.parameters)));
    }
    out->push_back(std::move(e));
    return Status::Ok();
  };
  for (const BenchmarkResult& b : run.benchmarks) {
    RowEstimate e{BenchmarkKey::Of(b),       "time",
                  Direction::kLowerIsBetter, typical_time ? TypicalTime(b).point : RunTimeEstimate(b),
                  b.error_occurred,          b.error_message};
    if (!e.failed && !Positive(e.value)) {
      return Status::InvalidArgument(
          fmt::format("{}: {}: time estimate {} is not finite and positive", side, BenchmarkName(b), e.value));
    }
    DBXB_RETURN_IF_ERROR(add(std::move(e)));
  }
  for (const PhaseResult& p : run.phases) {
    const BenchmarkKey key = BenchmarkKey::Of(p);
    // The phase total, not a mean of per-second rates; the p99 of the merged histogram.
    const double throughput = p.duration_ns > 0 ? static_cast<double>(p.operations) * 1e9 / p.duration_ns : 0;
    RowEstimate rate{key, "throughput", Direction::kHigherIsBetter, throughput, p.error_occurred, p.error_message};
    rate.usable = Positive(throughput);
    RowEstimate p99{key, "p99", Direction::kLowerIsBetter, p.service_time.p99_ns, p.error_occurred, p.error_message};
    p99.usable = p.service_time.count > 0 && Positive(p.service_time.p99_ns);
    DBXB_RETURN_IF_ERROR(add(std::move(rate)));
    DBXB_RETURN_IF_ERROR(add(std::move(p99)));
  }
  return Status::Ok();
}

Status CompareRunSets(const RunSet& baseline, const RunSet& current, bool paired, const CompareOptions& options,
                      ComparisonReport* report) {
  DBXB_RETURN_IF_ERROR(ValidateCompareOptions(options));
  if (baseline.runs.size() < 2 || current.runs.size() < 2) {
    return Status::InvalidArgument(
        fmt::format("{} baseline and {} current {}: at least 2 per side are needed to "
                    "compare runs",
                    baseline.runs.size(), current.runs.size(), paired ? "rounds" : "runs"));
  }
  if (paired && baseline.runs.size() != current.runs.size()) {
    return Status::InvalidArgument(fmt::format("{} baseline rounds but {} current rounds: rounds come in pairs",
                                               baseline.runs.size(), current.runs.size()));
  }
  auto estimates_of = [&](const RunSet& set, const char* side_name, std::vector<std::vector<RowEstimate>>* out) {
    out->resize(set.runs.size());
    for (size_t i = 0; i < set.runs.size(); ++i)
      DBXB_RETURN_IF_ERROR(RunEstimates(set.runs[i], RunName(side_name, paired, i, set.sources[i]), &(*out)[i]));
    return Status::Ok();
  };
  std::vector<std::vector<RowEstimate>> base_rows, cur_rows;
  DBXB_RETURN_IF_ERROR(estimates_of(baseline, "baseline", &base_rows));
  DBXB_RETURN_IF_ERROR(estimates_of(current, "current", &cur_rows));
  // Every run of a side must hold the rows of its first run (and no others).
  for (const auto* side : {&base_rows, &cur_rows}) {
    const bool is_base = side == &base_rows;
    const RunSet& set = is_base ? baseline : current;
    for (size_t i = 1; i < side->size(); ++i) {
      for (const RowEstimate& e : (*side)[i]) {
        if (Find((*side)[0], e.key, e.metric) < 0) {
          return Status::InvalidArgument(
              fmt::format("{} has {} ({}), which {} 1 has not: the runs of one side must be runs of the same command",
                          RunName(is_base ? "baseline" : "current", paired, i, set.sources[i]), e.key.Name(), e.metric,
                          paired ? "round" : "run"));
        }
      }
    }
  }

  ComparisonReport out;
  out.options = options;
  out.method = paired ? CompareMethod::kPairedRounds : CompareMethod::kRuns;
  out.baseline_runs = baseline.runs.size();
  out.current_runs = current.runs.size();
  out.baseline = LabelOf(baseline.runs[0], SideSource(baseline, paired));
  out.current = LabelOf(current.runs[0], SideSource(current, paired));
  for (const RowEstimate& e : cur_rows[0]) {
    SideValues cur;
    DBXB_RETURN_IF_ERROR(Collect(cur_rows, current, "current", paired, e, &cur));
    if (Find(base_rows[0], e.key, e.metric) < 0) {
      MetricComparison row = EmptyRow(e, Outcome::kOnlyInCurrent);
      if (cur.failure.empty() && !cur.unusable)
        SetSide(cur.values, &row.current_mean, &row.current_median, &row.current_count);
      out.rows.push_back(std::move(row));
      continue;
    }
    SideValues base;
    DBXB_RETURN_IF_ERROR(Collect(base_rows, baseline, "baseline", paired, e, &base));
    if (!base.failure.empty() || !cur.failure.empty()) {
      MetricComparison row = EmptyRow(e, Outcome::kFailed);
      row.note = base.failure;
      if (!cur.failure.empty()) row.note += (row.note.empty() ? "" : "; ") + cur.failure;
      out.rows.push_back(std::move(row));
      continue;
    }
    if (base.unusable || cur.unusable) {
      MetricComparison row = EmptyRow(e, Outcome::kInsufficientData);
      const char* which = base.unusable && cur.unusable ? "baseline and a current"
                          : base.unusable               ? "baseline"
                                                        : "current";
      row.note = fmt::format("a {} run measured no operations", which);
      out.rows.push_back(std::move(row));
      continue;
    }
    MetricComparison row = EmptyRow(e, Outcome::kCompared);
    CompareValues(base.values, cur.values, paired, options, &row);
    out.rows.push_back(std::move(row));
  }
  for (const RowEstimate& e : base_rows[0]) {
    if (Find(cur_rows[0], e.key, e.metric) >= 0) continue;
    SideValues base;
    DBXB_RETURN_IF_ERROR(Collect(base_rows, baseline, "baseline", paired, e, &base));
    MetricComparison row = EmptyRow(e, Outcome::kOnlyInBaseline);
    if (base.failure.empty() && !base.unusable)
      SetSide(base.values, &row.baseline_mean, &row.baseline_median, &row.baseline_count);
    out.rows.push_back(std::move(row));
  }
  if (out.Count(Outcome::kCompared) + out.Count(Outcome::kFailed) + out.Count(Outcome::kInsufficientData) == 0) {
    return Status::InvalidArgument(fmt::format(
        "no benchmark in common between the baseline ({} row{}) and the current runs ({} row{}): nothing to compare",
        base_rows[0].size(), base_rows[0].size() == 1 ? "" : "s", cur_rows[0].size(),
        cur_rows[0].size() == 1 ? "" : "s"));
  }
  out.warnings = CompareWarnings(baseline.runs[0], current.runs[0]);
  DecideVerdicts(&out);
  *report = std::move(out);
  return Status::Ok();
}

Status CalibrateNoiseFloors(const RunSet& aa_runs, std::vector<std::pair<std::string, double>>* floors) {
  if (aa_runs.runs.size() < 2)
    return Status::InvalidArgument(
        fmt::format("{} A/A run given: at least 2 are needed to calibrate a noise floor", aa_runs.runs.size()));
  std::vector<std::vector<RowEstimate>> rows(aa_runs.runs.size());
  for (size_t i = 0; i < aa_runs.runs.size(); ++i)
    DBXB_RETURN_IF_ERROR(RunEstimates(aa_runs.runs[i], fmt::format("A/A run {}", aa_runs.sources[i]), &rows[i], true));
  floors->clear();
  for (const RowEstimate& e : rows[0]) {
    double lo = INFINITY, hi = 0;
    bool complete = true;
    for (const auto& run : rows) {
      const long j = Find(run, e.key, e.metric);
      if (j < 0 || run[static_cast<size_t>(j)].failed || !run[static_cast<size_t>(j)].usable) {
        complete = false;
        break;
      }
      lo = std::min(lo, run[static_cast<size_t>(j)].value);
      hi = std::max(hi, run[static_cast<size_t>(j)].value);
    }
    if (complete) floors->emplace_back(RowId(e.key, e.metric), hi / lo - 1);
  }
  return Status::Ok();
}

}  // namespace dbxb
