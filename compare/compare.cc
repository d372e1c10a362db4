#include "compare/compare.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <utility>

#include "compare/run_records.h"
#include "stats/bootstrap.h"
#include "stats/compare_stats.h"

namespace dbxb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A compared row before its statistics: the two records and what limits it.
struct Planned {
  MetricComparison row;
  const RunRecord* base = nullptr;
  const RunRecord* cur = nullptr;
  bool in_family = true;  // false: decided inconclusive without a test (too few seconds)
};

std::string Describe(const char* side, const std::string& error) {
  return fmt::format("failed in {}: {}", side, error.empty() ? "no reason recorded" : error);
}

// The between-run allowance of a row: its A/A-calibrated floor, else the noise floor for what varies
// between runs of one build (timing rows, duration-bound counters), else none.
double AllowanceOf(const MetricComparison& row, const RunRecord& record, const CompareOptions& o) {
  const std::string id = RowId(row.key, row.metric->name);
  for (const auto& [name, floor] : o.calibrated_floors)
    if (name == id) return floor;
  if (row.metric->family == MetricFamily::kTiming) return o.noise_floor;
  if (row.metric->family == MetricFamily::kCounter && record.counter_kind() == CounterKind::kDurationBound)
    return o.noise_floor;
  return 0;
}

// Why the A/A-calibrated floors do not hold for these two runs (empty when they do, or when no load
// was recorded to tell): a run started at a load average the calibration runs did not meet.
std::string CalibrationMisses(const CompareOptions& o, const RunResults& baseline, const RunResults& current) {
  if (o.calibrated_floors.empty() || !o.calibration_load) return "";
  const auto [lo, hi] = *o.calibration_load;
  for (const RunResults* r : {&baseline, &current}) {
    if (r->context.load_avg.empty()) continue;
    const double load = r->context.load_avg[0];
    if (load >= lo / kCalibrationLoadMargin && load <= hi * kCalibrationLoadMargin) continue;
    return fmt::format(
        "⚠️ The {} run started at a load average of {:.2f}, outside what the A/A runs met ({:.2f} to {:.2f}, "
        "give or take {:.0f} %): their floors (--aa-runs) do not hold for it, so its timing rows use the noise "
        "floor instead (inconclusive unless --noise-floor is given).",
        r == &baseline ? "baseline" : "current", load, lo, hi, (kCalibrationLoadMargin - 1) * 100);
  }
  return "";
}

// Two series whose ratio of sums is a run's estimate, with the block length of their bootstrap.
struct SumSeries {
  std::vector<double> numerator, denominator;
  double point = 0;
  size_t block = 1;
};

SumSeries SeriesOf(const RunRecord& r, const Metric& m) {
  SumSeries out;
  if (m.within_run == WithinRun::kPhaseSeconds) {
    PhaseSeries p = PhaseSeriesOf(*r.phase, m);
    out.block = BlockLength(p.numerator.size());
    out.point = p.point;
    out.numerator = std::move(p.numerator);
    out.denominator = std::move(p.denominator);
    return out;
  }
  for (const Sample& s : r.benchmark->samples) {  // samples are independent: blocks of one
    out.numerator.push_back(s.total_ns);
    out.denominator.push_back(static_cast<double>(s.iterations));
  }
  out.point = MeanIterationTime(*r.benchmark);
  return out;
}

// The change of the two runs' point estimates, with the spread of a (moving-block) bootstrap of each
// side's ratio of sums: each resample's ratio to its side's observed ratio, centred on the point
// estimates (a phase's p99 point is its merged histogram's, its spread the per-second p99s').
Interval RatioOfSumsInterval(const SumSeries& base, const SumSeries& cur, double level, uint64_t resamples,
                             uint64_t seed) {
  auto observed = [](const SumSeries& s) {
    double num = 0, den = 0;
    for (size_t i = 0; i < s.numerator.size(); ++i) {
      num += s.numerator[i];
      den += s.denominator[i];
    }
    return num / den;
  };
  const std::vector<double> b =
      BlockBootstrapRatioOfSums(base.numerator, base.denominator, base.block, resamples, seed);
  const std::vector<double> c =
      BlockBootstrapRatioOfSums(cur.numerator, cur.denominator, cur.block, resamples, seed + 1);
  const double point = cur.point / base.point;
  const double base_observed = observed(base), cur_observed = observed(cur);
  std::vector<double> change(resamples);
  for (uint64_t r = 0; r < resamples; ++r) {
    change[r] = point * (c[r] / cur_observed) / (b[r] / base_observed) - 1;
    if (std::isnan(change[r])) change[r] = kInf;
  }
  return SummarizeDistribution(point - 1, &change, level);
}

void Estimate(Planned* p, const FamilyCounts& counts, const CompareOptions& o) {
  MetricComparison& row = p->row;
  row.level = LevelOf(*row.metric, counts, o);
  const uint64_t seed = ComparisonSeed(o.seed, row.key, row.metric->name);
  switch (row.metric->within_run) {
    case WithinRun::kSampleMedian:
      row.change = BootstrapRelativeChange(SampleTimes(*p->cur->benchmark), SampleTimes(*p->base->benchmark),
                                           BootstrapOptions{o.resamples, row.level, seed})
                       .median;
      break;
    case WithinRun::kSampleTotal:
    case WithinRun::kPhaseSeconds:
      row.change = RatioOfSumsInterval(SeriesOf(*p->base, *row.metric), SeriesOf(*p->cur, *row.metric), row.level,
                                       o.resamples, seed);
      break;
    case WithinRun::kNone: {
      const double change = RatioChange(row.baseline.value, row.current.value);
      row.change = Interval{change, change, change, 0};
      break;
    }
  }
  row.allowance = AllowanceOf(row, *p->cur, o);
  row.change = WidenedBy(row.change, row.allowance);
}

// How many values a side's row rests on: samples, whole seconds, or one.
uint64_t CountOf(const RunRecord& r, const Metric& m) {
  if (m.within_run == WithinRun::kSampleMedian || m.within_run == WithinRun::kSampleTotal)
    return r.benchmark->samples.size();
  if (m.within_run == WithinRun::kPhaseSeconds) return PhaseSeriesOf(*r.phase, m).numerator.size();
  return 1;
}

// Rows of one pair of successful records.
void PlanPair(const RunRecord& base, const RunRecord& cur, std::vector<Planned>* planned) {
  for (const Metric& m : Metrics()) {
    const std::optional<double> b = base.Estimate(m), c = cur.Estimate(m);
    if (!b || !c) {
      const std::string why = base.Unavailable(m).empty() ? cur.Unavailable(m) : base.Unavailable(m);
      if (!why.empty()) {
        Planned p{RowOf(cur.key, m, Outcome::kInsufficientData)};
        p.row.note = fmt::format("{} in the {}", why, base.Unavailable(m).empty() ? "current run" : "baseline");
        planned->push_back(std::move(p));
      }
      continue;
    }
    Planned p{RowOf(cur.key, m, Outcome::kCompared), &base, &cur};
    p.row.baseline = {*b, CountOf(base, m)};
    p.row.current = {*c, CountOf(cur, m)};
    if (m.family == MetricFamily::kTiming && !(*b > 0 && *c > 0)) {
      p.row.outcome = Outcome::kInsufficientData;
      p.row.note = fmt::format("no {} measured on a side (no operations)", m.name);
    } else if (m.within_run == WithinRun::kPhaseSeconds) {
      const size_t seconds =
          std::min(PhaseSeriesOf(*base.phase, m).full_intervals, PhaseSeriesOf(*cur.phase, m).full_intervals);
      if (seconds < kMinFullSeconds) {
        p.in_family = false;
        p.row.note = fmt::format("{} whole second{} on a side (one run per side needs {}): inconclusive", seconds,
                                 seconds == 1 ? "" : "s", kMinFullSeconds);
      }
    }
    planned->push_back(std::move(p));
  }
}

// Every row, in the current run's order then the baseline-only records, before the statistics.
std::vector<Planned> Plan(const std::vector<RunRecord>& base, const std::vector<RunRecord>& cur) {
  std::vector<Planned> planned;
  for (const RunRecord& c : cur) {
    const long j = FindRecord(base, c.key);
    if (j < 0) {
      Planned p{RowOf(c.key, c.primary(), Outcome::kOnlyInCurrent)};
      p.row.current.value = c.Estimate(c.primary()).value_or(std::nan(""));
      planned.push_back(std::move(p));
      continue;
    }
    const RunRecord& b = base[static_cast<size_t>(j)];
    if (b.failed || c.failed) {
      Planned p{RowOf(c.key, c.primary(), Outcome::kFailed)};
      if (b.failed) p.row.note = Describe("baseline", b.error);
      if (c.failed) p.row.note += (p.row.note.empty() ? "" : "; ") + Describe("current", c.error);
      planned.push_back(std::move(p));
      continue;
    }
    PlanPair(b, c, &planned);
  }
  for (const RunRecord& b : base) {
    if (FindRecord(cur, b.key) >= 0) continue;
    Planned p{RowOf(b.key, b.primary(), Outcome::kOnlyInBaseline)};
    p.row.baseline.value = b.Estimate(b.primary()).value_or(std::nan(""));
    planned.push_back(std::move(p));
  }
  return planned;
}

// The values the bootstraps of the planned rows resample, each once per resample: every bootstrapped
// row's samples or seconds, both sides (a median and a ratio of sums alike).
double BootstrapValues(const std::vector<Planned>& planned) {
  double values = 0;
  for (const Planned& p : planned) {
    if (p.row.outcome != Outcome::kCompared || !p.in_family || p.row.metric->within_run == WithinRun::kNone) continue;
    values += static_cast<double>(p.row.baseline.count + p.row.current.count);
  }
  return values;
}

// InvalidArgument naming `runs`, the draws, the bound and the --resamples that fit, when `values` (samples
// and seconds) resampled `resamples` times exceed kMaxBootstrapDraws.
Status CheckBootstrapBound(double values, uint64_t resamples, const std::string& runs) {
  const double draws = values * static_cast<double>(resamples);
  if (draws <= kMaxBootstrapDraws) return Status::Ok();
  const double fits = std::floor(kMaxBootstrapDraws / values);
  return Status::InvalidArgument(fmt::format(
      "{}: {:.0f} values (each bootstrapped row's samples or seconds, both sides) resampled {} times is {:.3g} "
      "bootstrap draws, more than the bound of {:.3g}; give --resamples {:.0f} or fewer",
      runs, values, resamples, draws, kMaxBootstrapDraws, fits));
}

}  // namespace

double RatioChange(double baseline, double current) {
  if (baseline > 0) return current / baseline - 1;
  return current > 0 ? kInf : 0;
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
  std::vector<RunRecord> base, cur;
  DBXB_RETURN_IF_ERROR(RunRecordsOf(baseline, side_name("baseline", out.baseline.source), &base));
  DBXB_RETURN_IF_ERROR(RunRecordsOf(current, side_name("current", out.current.source), &cur));
  std::vector<Planned> planned = Plan(base, cur);
  DBXB_RETURN_IF_ERROR(CheckBootstrapBound(
      BootstrapValues(planned), options.resamples,
      fmt::format("{} and {}", side_name("baseline", out.baseline.source), side_name("current", out.current.source))));
  std::vector<std::string> warnings = CompareWarnings(baseline, current);
  CompareOptions effective = options;
  if (std::string why = CalibrationMisses(options, baseline, current); !why.empty()) {
    effective.calibrated_floors.clear();
    warnings.push_back(std::move(why));
  }
  FamilyCounts counts;
  for (const Planned& p : planned)
    if (p.row.outcome == Outcome::kCompared && p.in_family) counts.Add(*p.row.metric);
  bool common = false;
  for (Planned& p : planned) {
    common |= p.row.outcome == Outcome::kCompared || p.row.outcome == Outcome::kFailed ||
              p.row.outcome == Outcome::kInsufficientData;
    if (p.row.outcome == Outcome::kCompared && p.in_family) {
      Estimate(&p, counts, effective);
    } else if (p.row.outcome == Outcome::kCompared) {
      p.row.change = Interval{p.row.current.value / p.row.baseline.value - 1, -1, kInf, std::nan("")};
    }
    out.rows.push_back(std::move(p.row));
  }
  if (!common) {
    return Status::InvalidArgument(fmt::format(
        "no benchmark in common between the {} ({} benchmark{}) and the {} ({} benchmark{}): nothing to compare",
        side_name("baseline", out.baseline.source), base.size(), base.size() == 1 ? "" : "s",
        side_name("current", out.current.source), cur.size(), cur.size() == 1 ? "" : "s"));
  }
  SortRowsByFamily(&out.rows);
  out.warnings = std::move(warnings);
  DecideVerdicts(&out);
  *report = std::move(out);
  return Status::Ok();
}

}  // namespace dbxb
