#include "writers/time_series_chart.h"

#include <fmt/format.h>

#include <utility>

#include "records/grouping.h"
#include "records/record_names.h"

namespace dbxb {
namespace {

// The group's name: its phase, with the parameters when another group has the same phase.
std::string Title(const std::vector<PhaseGroup>& groups, const PhaseGroup& g) {
  const PhaseResult& p = g.first();
  std::string title = JoinNonEmpty({p.suite, p.workload, p.dataset, p.phase}, " / ");
  for (const PhaseGroup& other : groups) {
    const PhaseResult& o = other.first();
    if (&other != &g && o.suite == p.suite && o.workload == p.workload && o.dataset == p.dataset && o.phase == p.phase)
      return fmt::format("{} ({} thread{}, {})", title, p.threads, p.threads == 1 ? "" : "s",
                         JoinKeyValues(p.parameters));
  }
  return title;
}

template <typename Pick>
LineChart SeriesChart(const PhaseGroup& g, Pick pick) {
  LineChart chart;
  chart.x = LineChartAxis{"second of the measured time", AxisUnit::kSeconds, {}, false};
  for (const PhaseResult* p : g.members) {
    if (p->per_second.empty()) continue;
    ChartLine line{p->engine, {}, false};
    for (const SecondSample& s : p->per_second)
      line.points.push_back(LinePoint{s.second, pick(s), fmt::format("second {:g}", s.second), false, false});
    chart.lines.push_back(std::move(line));
  }
  return chart;
}

}  // namespace

std::vector<NamedChart> TimeSeriesCharts(const RunResults& results, const std::string& host) {
  std::vector<NamedChart> charts;
  const std::vector<PhaseGroup> groups = GroupPhasesByPhase(results);
  for (const PhaseGroup& g : groups) {
    LineChart ops = SeriesChart(g, [](const SecondSample& s) { return s.ops_per_sec; });
    if (ops.lines.empty()) continue;
    const std::string title = Title(groups, g);
    ops.title = title + ": throughput per second";
    ops.subtitle = host + ": operations completed in each second of the measured time";
    ops.y = LineChartAxis{"ops/s", AxisUnit::kRate, {}, std::nullopt};
    LineChart p99 = SeriesChart(g, [](const SecondSample& s) { return s.p99_ns; });
    p99.title = title + ": p99 per second";
    p99.subtitle = host + ": service-time p99 of the operations completed in each second";
    p99.y = LineChartAxis{"p99 service time", AxisUnit::kDuration, {}, std::nullopt};
    charts.push_back(NamedChart{"series-" + title + "-throughput", ops.title, std::move(ops)});
    charts.push_back(NamedChart{"series-" + title + "-p99", p99.title, std::move(p99)});
  }
  return charts;
}

}  // namespace dbxb
