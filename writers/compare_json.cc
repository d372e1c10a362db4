// CompareToJson and SerializeComparison of writers/compare_writer.h.
#include <cmath>

#include "writers/compare_writer.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

Json NumberOrNull(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json IntervalJson(const Interval& i) {
  return Json{{"point", NumberOrNull(i.point)}, {"lower", NumberOrNull(i.lower)}, {"upper", NumberOrNull(i.upper)}};
}

Json LabelJson(const RunLabel& l, size_t runs) {
  return Json{{"source", l.source},
              {"host_name", l.host_name},
              {"date_utc", l.date_utc},
              {"git_commit", l.git_commit},
              {"git_dirty", l.git_dirty},
              {"tool_version", l.tool_version},
              {"runs", runs}};
}

Json SideJson(const SideValue& side) { return Json{{"value", NumberOrNull(side.value)}, {"count", side.count}}; }

Json OptionsJson(const CompareOptions& o) {
  return Json{{"significance", o.significance},
              {"max_regression", o.max_regression},
              {"max_instruction_regression", o.max_instruction_regression},
              {"resamples", o.resamples},
              {"seed", o.seed},
              {"noise_floor", NumberOrNull(o.noise_floor)},
              {"looks", o.looks},
              {"fail_on_inconclusive", o.fail_on_inconclusive}};
}

Json GateJson(const ComparisonReport& report) {
  Json gate;
  gate["regressed"] = report.Count(Verdict::kRegressed);
  gate["inconclusive"] = report.Count(Verdict::kInconclusive);
  gate["no_regression"] = report.Count(Verdict::kNoRegression) + report.Count(Verdict::kImproved);
  gate["decided"] = report.Decided();
  gate["failed"] = report.GateFailed();
  Json families = Json::object();
  for (MetricFamily f : {MetricFamily::kTiming, MetricFamily::kCounter, MetricFamily::kInstructions}) {
    const FamilySummary s = report.Family(f);
    if (s.rows == 0) continue;
    families[FamilyName(f)] = Json{{"rows", s.rows}, {"level", s.level}, {"threshold", s.threshold}};
  }
  gate["families"] = families;
  return gate;
}

Json RowJson(const ComparisonReport& report, const MetricComparison& row) {
  Json r;
  r["suite"] = row.key.suite;
  r["workload"] = row.key.workload;
  r["engine"] = row.key.engine;
  Json params = Json::object();
  for (const auto& [k, v] : row.key.parameters) params[k] = v;
  r["parameters"] = params;
  r["phase"] = row.key.phase;
  r["dataset"] = row.key.dataset;
  r["metric"] = row.metric->name;
  r["family"] = FamilyName(row.metric->family);
  r["unit"] = row.metric->unit;
  r["direction"] = row.metric->direction == Direction::kLowerIsBetter ? "lower_is_better" : "higher_is_better";
  r["outcome"] = OutcomeName(row.outcome);
  r["note"] = row.note;
  r["shown"] = ShownInTables(report, row);
  r["baseline"] = SideJson(row.baseline);
  r["current"] = SideJson(row.current);
  const bool compared = row.outcome == Outcome::kCompared;
  r["change"] = compared ? IntervalJson(row.change) : Json(nullptr);
  r["level"] = compared ? NumberOrNull(row.level) : Json(nullptr);
  r["allowance"] = compared ? NumberOrNull(row.allowance) : Json(nullptr);
  r["verdict"] = compared ? Json(VerdictName(row.verdict)) : Json(nullptr);
  r["detectable"] = compared ? NumberOrNull(row.detectable) : Json(nullptr);
  if (report.method == CompareMethod::kPairedRounds) {
    Json ratios = Json::array();
    for (double x : row.ratios) ratios.push_back(NumberOrNull(x));
    r["ratios"] = ratios;
  }
  return r;
}

}  // namespace

Json CompareToJson(const ComparisonReport& report) {
  Json j;
  j["format"] = "dbx-bench-compare";
  j["version"] = kCompareJsonVersion;
  j["method"] = CompareMethodName(report.method);
  j["baseline"] = LabelJson(report.baseline, report.baseline_runs);
  j["current"] = LabelJson(report.current, report.current_runs);
  j["options"] = OptionsJson(report.options);
  j["warnings"] = report.warnings;
  j["gate"] = GateJson(report);
  Json rows = Json::array();
  for (const MetricComparison& row : report.rows) rows.push_back(RowJson(report, row));
  j["benchmarks"] = rows;
  return j;
}

std::string SerializeComparison(const ComparisonReport& report) {
  return CompareToJson(report).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace dbxb
