#include "compare/compare_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "compare/compare.h"
#include "compare/run_records.h"
#include "stats/statistics.h"
#include "stats/t_tests.h"

namespace dbxb {
namespace {

using Records = std::vector<std::vector<RunRecord>>;  // per run

std::string RunName(const char* side, bool paired, size_t i, const std::string& source) {
  return fmt::format("{} {} {} ({})", side, paired ? "round" : "run", i + 1, source);
}

std::string SideSource(const RunSet& set, bool paired) {
  if (set.sources.size() == 1) return set.sources[0];
  return fmt::format("{} … {} ({} {})", set.sources.front(), set.sources.back(), set.sources.size(),
                     paired ? "rounds" : "runs");
}

Status RecordsOfSet(const RunSet& set, const char* side, bool paired, Records* out) {
  out->resize(set.runs.size());
  for (size_t i = 0; i < set.runs.size(); ++i)
    DBXB_RETURN_IF_ERROR(RunRecordsOf(set.runs[i], RunName(side, paired, i, set.sources[i]), &(*out)[i]));
  // Every run of a side holds the records of its first run, and no others.
  const std::string first = RunName(side, paired, 0, set.sources[0]);
  for (size_t i = 1; i < out->size(); ++i) {
    const std::string run = RunName(side, paired, i, set.sources[i]);
    for (const RunRecord& r : (*out)[i])
      if (FindRecord((*out)[0], r.key) < 0)
        return Status::InvalidArgument(fmt::format("{} has {}, which {} has not: {}", run, r.key.Name(), first,
                                                   "the runs of one side must be runs of the same command"));
    for (const RunRecord& r : (*out)[0])
      if (FindRecord((*out)[i], r.key) < 0)
        return Status::InvalidArgument(fmt::format("{} has no {}, which {} has: {}", run, r.key.Name(), first,
                                                   "the runs of one side must be runs of the same command"));
  }
  return Status::Ok();
}

// One side's view of one record across its runs.
struct SideRecord {
  std::vector<const RunRecord*> runs;
  std::string failure;  // "failed in current round 3: ..." (empty = every run succeeded)
};

SideRecord Collect(const Records& side, const RunSet& set, const char* name, bool paired, const BenchmarkKey& key) {
  SideRecord out;
  for (size_t i = 0; i < side.size(); ++i) {
    const RunRecord& r = side[i][static_cast<size_t>(FindRecord(side[i], key))];
    if (r.failed && out.failure.empty())
      out.failure = fmt::format("failed in {}: {}", RunName(name, paired, i, set.sources[i]),
                                r.error.empty() ? "no reason recorded" : r.error);
    out.runs.push_back(&r);
  }
  return out;
}

// The metric's estimate in every run, or empty when a run lacks it.
std::vector<double> Values(const SideRecord& side, const Metric& m) {
  std::vector<double> out;
  for (const RunRecord* r : side.runs) {
    const std::optional<double> v = r->Estimate(m);
    if (!v) return {};
    out.push_back(*v);
  }
  return out;
}

// Why a run of the side has no estimate of `m` it measured ("count refused: ... in baseline run 2"), or "".
std::string Unavailable(const SideRecord& side, const char* name, const Metric& m) {
  for (size_t i = 0; i < side.runs.size(); ++i) {
    const std::string why = side.runs[i]->Unavailable(m);
    if (!why.empty()) return fmt::format("{} in {} run {}", why, name, i + 1);
  }
  return "";
}

SideValue SideOf(const std::vector<double>& values) {
  const double gm = GeometricMean(values);
  return {std::isnan(gm) ? Median(values) : gm, values.size()};
}

bool AllPositive(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return x > 0 && std::isfinite(x); });
}

// A counter that is 0 in some run: every run against every other.
Interval RangeChange(const std::vector<double>& base, const std::vector<double>& cur) {
  const auto [bmin, bmax] = std::minmax_element(base.begin(), base.end());
  const auto [cmin, cmax] = std::minmax_element(cur.begin(), cur.end());
  return Interval{RatioChange(Median(base), Median(cur)), RatioChange(*bmax, *cmin), RatioChange(*bmin, *cmax), 0};
}

// The row's interval at its level, and the per-round ratios when paired.
void Estimate(const std::vector<double>& base, const std::vector<double>& cur, bool paired, MetricComparison* row) {
  if (!AllPositive(base) || !AllPositive(cur)) {
    row->change = RangeChange(base, cur);
    if (paired)
      for (size_t i = 0; i < base.size(); ++i) row->ratios.push_back(1 + RatioChange(base[i], cur[i]));
    return;
  }
  TTest test;
  if (paired) {
    std::vector<double> logs;
    for (size_t i = 0; i < base.size(); ++i) {
      row->ratios.push_back(cur[i] / base[i]);
      logs.push_back(std::log(row->ratios.back()));
    }
    test = TrimmedMeanTest(logs, kTrimProportion);
  } else {
    std::vector<double> lc, lb;
    for (double v : cur) lc.push_back(std::log(v));
    for (double v : base) lb.push_back(std::log(v));
    test = WelchTTest(lc, lb);
  }
  const Interval l = test.IntervalAt(row->level);
  const double point = std::exp(l.point);
  row->change = Interval{point - 1, std::exp(l.lower) - 1, std::exp(l.upper) - 1, point * l.std_error};
}

struct Planned {
  MetricComparison row;
  std::vector<double> base, cur;
};

// The rows of one record present on both sides.
void PlanRecord(const SideRecord& base, const SideRecord& cur, const RunRecord& first, std::vector<Planned>* out) {
  if (!base.failure.empty() || !cur.failure.empty()) {
    Planned p{RowOf(first.key, first.primary(), Outcome::kFailed)};
    p.row.note = base.failure + (base.failure.empty() || cur.failure.empty() ? "" : "; ") + cur.failure;
    out->push_back(std::move(p));
    return;
  }
  for (const Metric& m : Metrics()) {
    Planned p{RowOf(first.key, m, Outcome::kCompared), Values(base, m), Values(cur, m)};
    if (p.base.empty() || p.cur.empty()) {
      const std::string b = Unavailable(base, "baseline", m), c = Unavailable(cur, "current", m);
      p.row.note = b + (b.empty() || c.empty() ? "" : "; ") + c;
      if (p.row.note.empty()) continue;
      p.row.outcome = Outcome::kInsufficientData;
      out->push_back(std::move(p));
      continue;
    }
    p.row.baseline = SideOf(p.base);
    p.row.current = SideOf(p.cur);
    if (m.family == MetricFamily::kTiming && (!AllPositive(p.base) || !AllPositive(p.cur))) {
      p.row.outcome = Outcome::kInsufficientData;
      p.row.note = fmt::format("a {} run measured no {}", AllPositive(p.base) ? "current" : "baseline", m.name);
    }
    out->push_back(std::move(p));
  }
}

// Rows of the records on one side only.
void PlanOneSide(const Records& side, const RunSet& set, const char* name, bool paired, const RunRecord& r,
                 Outcome outcome, std::vector<Planned>* out) {
  Planned p{RowOf(r.key, r.primary(), outcome)};
  const SideRecord s = Collect(side, set, name, paired, r.key);
  const std::vector<double> v = s.failure.empty() ? Values(s, r.primary()) : std::vector<double>{};
  if (!v.empty()) (outcome == Outcome::kOnlyInBaseline ? p.row.baseline : p.row.current) = SideOf(v);
  out->push_back(std::move(p));
}

Status CheckSizes(const RunSet& baseline, const RunSet& current, bool paired) {
  if (baseline.runs.size() < 2 || current.runs.size() < 2) {
    return Status::InvalidArgument(
        fmt::format("{} baseline and {} current {}: at least 2 per side are needed to compare runs",
                    baseline.runs.size(), current.runs.size(), paired ? "rounds" : "runs"));
  }
  if (paired && baseline.runs.size() != current.runs.size()) {
    return Status::InvalidArgument(fmt::format("{} baseline rounds but {} current rounds: rounds come in pairs",
                                               baseline.runs.size(), current.runs.size()));
  }
  return Status::Ok();
}

std::vector<Planned> PlanRows(const Records& base, const RunSet& baseline, const Records& cur, const RunSet& current,
                              bool paired) {
  std::vector<Planned> planned;
  for (const RunRecord& c : cur[0]) {
    if (FindRecord(base[0], c.key) < 0) {
      PlanOneSide(cur, current, "current", paired, c, Outcome::kOnlyInCurrent, &planned);
      continue;
    }
    PlanRecord(Collect(base, baseline, "baseline", paired, c.key), Collect(cur, current, "current", paired, c.key), c,
               &planned);
  }
  for (const RunRecord& b : base[0])
    if (FindRecord(cur[0], b.key) < 0)
      PlanOneSide(base, baseline, "baseline", paired, b, Outcome::kOnlyInBaseline, &planned);
  return planned;
}

}  // namespace

Status CompareRunSets(const RunSet& baseline, const RunSet& current, bool paired, const CompareOptions& options,
                      ComparisonReport* report) {
  DBXB_RETURN_IF_ERROR(ValidateCompareOptions(options));
  DBXB_RETURN_IF_ERROR(CheckSizes(baseline, current, paired));
  Records base, cur;
  DBXB_RETURN_IF_ERROR(RecordsOfSet(baseline, "baseline", paired, &base));
  DBXB_RETURN_IF_ERROR(RecordsOfSet(current, "current", paired, &cur));
  std::vector<Planned> planned = PlanRows(base, baseline, cur, current, paired);
  FamilyCounts counts;
  bool common = false;
  for (const Planned& p : planned) {
    if (p.row.outcome == Outcome::kCompared) counts.Add(*p.row.metric);
    common |= p.row.outcome != Outcome::kOnlyInBaseline && p.row.outcome != Outcome::kOnlyInCurrent;
  }
  if (!common) {
    return Status::InvalidArgument(fmt::format(
        "no benchmark in common between the baseline ({} record{}) and the current runs ({} record{}): nothing "
        "to compare",
        base[0].size(), base[0].size() == 1 ? "" : "s", cur[0].size(), cur[0].size() == 1 ? "" : "s"));
  }
  ComparisonReport out;
  out.options = options;
  out.method = paired ? CompareMethod::kPairedRounds : CompareMethod::kRuns;
  out.baseline_runs = baseline.runs.size();
  out.current_runs = current.runs.size();
  out.baseline = LabelOf(baseline.runs[0], SideSource(baseline, paired));
  out.current = LabelOf(current.runs[0], SideSource(current, paired));
  for (Planned& p : planned) {
    if (p.row.outcome == Outcome::kCompared) {
      p.row.level = LevelOf(*p.row.metric, counts, options);
      Estimate(p.base, p.cur, paired, &p.row);
    }
    out.rows.push_back(std::move(p.row));
  }
  SortRowsByFamily(&out.rows);
  out.warnings = CompareWarnings(baseline.runs[0], current.runs[0]);
  DecideVerdicts(&out);
  *report = std::move(out);
  return Status::Ok();
}

Status CalibrateNoiseFloors(const RunSet& aa_runs, CompareOptions* options) {
  if (aa_runs.runs.size() < 2)
    return Status::InvalidArgument(
        fmt::format("{} A/A run given: at least 2 are needed to calibrate a noise floor", aa_runs.runs.size()));
  Records runs(aa_runs.runs.size());
  for (size_t i = 0; i < aa_runs.runs.size(); ++i)
    DBXB_RETURN_IF_ERROR(RunRecordsOf(aa_runs.runs[i], fmt::format("A/A run {}", aa_runs.sources[i]), &runs[i]));
  std::vector<std::pair<std::string, double>>* floors = &options->calibrated_floors;
  floors->clear();
  options->calibration_load.reset();
  std::pair<double, double> load{INFINITY, 0};
  for (const RunResults& r : aa_runs.runs) {
    if (r.context.load_avg.empty()) {
      load = {INFINITY, 0};
      break;
    }
    load = {std::min(load.first, r.context.load_avg[0]), std::max(load.second, r.context.load_avg[0])};
  }
  if (load.first <= load.second) options->calibration_load = load;
  for (const RunRecord& first : runs[0]) {
    SideRecord side;
    for (const auto& run : runs) {
      const long j = FindRecord(run, first.key);
      if (j < 0 || run[static_cast<size_t>(j)].failed) break;
      side.runs.push_back(&run[static_cast<size_t>(j)]);
    }
    if (side.runs.size() != runs.size()) continue;
    for (const Metric& m : Metrics()) {
      const std::vector<double> v = Values(side, m);
      if (v.empty()) continue;
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      const double spread = *lo > 0 ? *hi / *lo - 1 : *hi > 0 ? INFINITY : 0;
      floors->emplace_back(RowId(first.key, m.name), spread);
    }
  }
  return Status::Ok();
}

Status CheckCommonRecords(const RunResults& baseline, const RunResults& current) {
  std::vector<RunRecord> base, cur;
  DBXB_RETURN_IF_ERROR(RunRecordsOf(baseline, "baseline", &base));
  DBXB_RETURN_IF_ERROR(RunRecordsOf(current, "current", &cur));
  for (const RunRecord& c : cur)
    if (FindRecord(base, c.key) >= 0) return Status::Ok();
  auto names = [](const std::vector<RunRecord>& records) {
    std::string out;
    for (size_t i = 0; i < records.size() && i < 3; ++i) out += (i ? ", " : "") + records[i].key.Name();
    return records.size() > 3 ? out + ", …" : out.empty() ? std::string("nothing") : out;
  };
  return Status::InvalidArgument(fmt::format(
      "the two builds share no benchmark: the baseline ran {} ({} record{}), the current build {} ({} record{})",
      names(base), base.size(), base.size() == 1 ? "" : "s", names(cur), cur.size(), cur.size() == 1 ? "" : "s"));
}

}  // namespace dbxb
