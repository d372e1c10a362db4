#include "writers/time_series_chart.h"

#include <fmt/format.h>

#include <utility>

#include "records/record_names.h"

namespace dbxb {
namespace {

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

std::vector<NamedChart> TimeSeriesCharts(const PhaseGroup& g, const std::string& title, const std::string& host) {
  LineChart ops = SeriesChart(g, [](const SecondSample& s) { return s.ops_per_sec; });
  if (ops.lines.empty()) return {};
  ops.title = title + ": throughput per second";
  ops.subtitle = host + ": operations completed in each second of the measured time";
  ops.y = LineChartAxis{"ops/s", AxisUnit::kRate, {}, std::nullopt};
  LineChart p99 = SeriesChart(g, [](const SecondSample& s) { return s.p99_ns; });
  p99.title = title + ": p99 per second";
  p99.subtitle = host + ": service-time p99 of the operations completed in each second";
  p99.y = LineChartAxis{"p99 service time", AxisUnit::kDuration, {}, std::nullopt};
  const PhaseResult& p = g.first();
  const std::string stem = "series-" + JoinNonEmpty({p.suite, p.workload, p.dataset, p.phase}, "-");
  std::vector<NamedChart> charts;
  charts.push_back(NamedChart{stem + "-throughput", ops.title, std::move(ops)});
  charts.push_back(NamedChart{stem + "-p99", p99.title, std::move(p99)});
  return charts;
}

}  // namespace dbxb
