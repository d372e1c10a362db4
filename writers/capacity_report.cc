#include "writers/capacity_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "records/record_names.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

bool SameGroup(const CapacityResult& a, const CapacityResult& b) {
  return a.suite == b.suite && a.workload == b.workload && a.dataset == b.dataset && a.phase == b.phase &&
         a.sla == b.sla && a.latency == b.latency && a.parameters == b.parameters;
}

double SlaLatency(const CapacityResult& r, const CapacityStep& s) {
  return r.latency == "service" || s.target_rate == 0 ? s.service_time.sla_percentile_ns
                                                      : s.from_intended.sla_percentile_ns;
}

std::string Percentile(const CapacityResult& r) { return fmt::format("p{:g}", r.percentile); }

std::string PassedCell(const CapacityResult& r) {
  if (r.lower_step < 0) return "none passed";
  const CapacityStep& s = r.steps[r.lower_step];
  return fmt::format("{} → {} ops/s, {} {}, {} late, {} dropped", FormatCount(s.target_rate),
                     FormatCount(s.achieved_ops_per_sec), Percentile(r), FormatDuration(SlaLatency(r, s), 3),
                     s.late_operations, s.dropped_operations);
}

std::string FailedCell(const CapacityResult& r) {
  if (r.upper_step < 0) return "none failed";
  const CapacityStep& s = r.steps[r.upper_step];
  const char* why = !s.kept_up ? "fell behind" : "missed the SLA";
  return fmt::format("{} → {} ops/s, {} {} ({})", FormatCount(s.target_rate), FormatCount(s.achieved_ops_per_sec),
                     Percentile(r), FormatDuration(SlaLatency(r, s), 3), why);
}

void WriteGroup(const CapacityGroup& g, std::ostream& out) {
  out << "### " << EscapeTableCell(g.title) << "\n\n";
  out << "| Engine | Threads | Capacity | Passed | Failed | Closed loop | Harness floor | Steps | Search |\n";
  out << "|:--|--:|--:|:--|:--|--:|--:|--:|--:|\n";
  for (const CapacityResult* r : g.members) {
    if (r->error_occurred) {
      out << fmt::format("| {} | {} | FAILED: {} | | | | | {} | |\n", EscapeTableCell(r->engine), r->threads,
                         EscapeTableCell(r->error_message), r->steps.size());
      continue;
    }
    const double closed = r->steps.empty() ? 0 : r->steps.front().achieved_ops_per_sec;
    out << fmt::format("| {} | {} | {} | {} | {} | {} ops/s | {} | {} | {:.1f} s measured, {:.1f} s in all |\n",
                       EscapeTableCell(r->engine), r->threads,
                       r->capacity_ops_per_sec > 0 ? "**" + FormatCount(r->capacity_ops_per_sec) + " ops/s**" : "none",
                       PassedCell(*r), FailedCell(*r), FormatCount(closed), FormatDuration(r->harness_floor_ns, 3),
                       r->steps.size(), r->measured_seconds, r->search_seconds);
  }
  out << "\n";
  for (const CapacityResult* r : g.members) {
    if (r->note.empty() && r->memory_method.empty()) continue;
    out << "- " << EscapeTableCell(r->engine) << ": " << EscapeTableCell(r->note);
    if (!r->memory_method.empty()) out << " Memory: " << EscapeTableCell(r->memory_method) << ".";
    out << "\n";
  }
  out << "\n";
}

}  // namespace

std::string CapacityLatencyName(const CapacityResult& r) {
  return fmt::format("{} {}", Percentile(r), r.latency == "service" ? "service time" : "from the intended start");
}

std::vector<CapacityGroup> GroupCapacity(const RunResults& results) {
  std::vector<CapacityGroup> groups;
  for (const CapacityResult& r : results.capacity) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const CapacityGroup& g) { return SameGroup(*g.members.front(), r); });
    if (it != groups.end()) {
      it->members.push_back(&r);
      continue;
    }
    groups.push_back(CapacityGroup{JoinNonEmpty({r.suite, r.workload, r.dataset, r.phase}, " / "), {&r}});
  }
  // Groups that share a title differ in their parameters: name the ones that differ (a sweep's without
  // its "sweep." prefix).
  const std::vector<CapacityGroup> plain = groups;
  for (size_t i = 0; i < groups.size(); ++i) {
    const CapacityResult& r = *plain[i].members.front();
    std::vector<const KeyValues*> others;
    for (const CapacityGroup& o : plain)
      if (&o != &plain[i] && o.title == plain[i].title && o.members.front()->sla == r.sla)
        others.push_back(&o.members.front()->parameters);
    if (!others.empty()) groups[i].title += " (" + JoinDifferingKeyValues(r.parameters, others) + ")";
  }
  return groups;
}

void WriteCapacityTables(const RunResults& results, std::ostream& out) {
  const std::vector<CapacityGroup> groups = GroupCapacity(results);
  if (groups.empty()) return;
  std::vector<std::string> slas;
  for (const CapacityGroup& g : groups) {
    const std::string sla = g.members.front()->sla;
    if (std::find(slas.begin(), slas.end(), sla) == slas.end()) slas.push_back(sla);
  }
  for (const std::string& sla : slas) {
    const CapacityResult& any = *std::find_if(groups.begin(), groups.end(), [&](const CapacityGroup& g) {
                                   return g.members.front()->sla == sla;
                                 })->members.front();
    out << "## Capacity at " << EscapeTableCell(sla) << "\n\n";
    out << fmt::format(
        "The highest open-loop rate each engine sustained with its {} within {} and its achieved throughput at "
        "least {:g} % of the target: a closed-loop probe, then a ramp (doubling, or halving after a first "
        "failure), then bisection until the failing rate is within {:g} % of the passing one. Passed is the "
        "step that gives the capacity, Failed the lowest failing step above it. Late: operations issued after "
        "their intended start because their thread was still busy; dropped: operations the schedule placed in "
        "the step that were never issued. Harness floor: the same latency of an empty operation at 10,000 ops/s, "
        "measured before each search: no bound below it could be met on the machine as it was.\n\n",
        CapacityLatencyName(any), FormatDuration(any.bound_ns, 3), any.keep_up * 100, any.resolution * 100);
    for (const CapacityGroup& g : groups)
      if (g.members.front()->sla == sla) WriteGroup(g, out);
  }
}

std::vector<NamedChart> CapacityCharts(const RunResults& results, const std::string& host) {
  std::vector<NamedChart> charts;
  for (const CapacityGroup& g : GroupCapacity(results)) {
    const CapacityResult& first = *g.members.front();
    LineChart chart;
    chart.title = g.title + ": latency against throughput";
    chart.subtitle = fmt::format("{}: {} at each open-loop step; ringed: the capacity at {}", host,
                                 CapacityLatencyName(first), first.sla);
    chart.x = LineChartAxis{"achieved throughput (ops/s)", AxisUnit::kRate, {}, std::nullopt};
    chart.y = LineChartAxis{CapacityLatencyName(first), AxisUnit::kDuration, {}, true};
    chart.threshold = first.bound_ns;
    chart.threshold_label = "SLA " + first.sla;
    chart.notes.push_back("Hollow points: steps that failed (missed the SLA or fell behind the target rate).");
    for (const CapacityResult* r : g.members) {
      std::vector<const CapacityStep*> steps;
      for (const CapacityStep& s : r->steps)
        if (s.target_rate > 0 && s.error.empty()) steps.push_back(&s);
      std::stable_sort(steps.begin(), steps.end(),
                       [](const CapacityStep* a, const CapacityStep* b) { return a->target_rate < b->target_rate; });
      if (steps.empty()) chart.notes.push_back(r->engine + ": no open-loop step ran (its note in the table says why).");
      ChartLine line{r->engine, {}, false};
      for (const CapacityStep* s : steps) {
        const bool at_capacity = r->lower_step >= 0 && s == &r->steps[r->lower_step];
        const std::string note = fmt::format("target {} ops/s, achieved {}, {} {}: {}", FormatCount(s->target_rate),
                                             FormatCount(s->achieved_ops_per_sec), Percentile(*r),
                                             FormatDuration(SlaLatency(*r, *s), 3), s->passed() ? "passed" : "failed");
        line.points.push_back(LinePoint{s->achieved_ops_per_sec, SlaLatency(*r, *s), note, at_capacity, !s->passed()});
      }
      chart.lines.push_back(std::move(line));
    }
    charts.push_back(NamedChart{"capacity-" + g.title, chart.title, std::move(chart)});
  }
  return charts;
}

}  // namespace dbxb
