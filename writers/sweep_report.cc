#include "writers/sweep_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "records/record_names.h"
#include "writers/format.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

// One engine's figures at one swept value.
struct Cell {
  bool present = false;
  bool failed = false;
  double throughput = NAN;  // ops/s (records/s for a benchmark; the capacity for a search)
  double p99_ns = NAN;      // phases only
};

// One measurement across the first dimension's values: a benchmark workload, a phase or a capacity search,
// at one value of the second dimension (if any).
struct Series {
  std::string kind;    // "benchmark", "phase", "capacity"
  std::string title;   // "dbx-micro / get", "sqlite-vps / cached / select-pk"
  std::string second;  // "durability=full", or ""
  std::vector<std::string> engines;
  std::vector<std::vector<Cell>> cells;  // [engine][value index]
};

std::string Param(const KeyValues& kvs, const std::string& key) {
  for (const auto& [k, v] : kvs)
    if (k == key) return v;
  return "";
}

class SeriesBuilder {
 public:
  explicit SeriesBuilder(const SweepInfo& sweep) : sweep_(sweep) {}

  void Add(const std::string& kind, const std::string& title, const std::string& engine, const KeyValues& params,
           Cell cell) {
    const SweepDimension& first = sweep_.dimensions.front();
    const std::string value = Param(params, kSweepParameterPrefix + first.name);
    auto at = std::find(first.values.begin(), first.values.end(), value);
    if (at == first.values.end()) return;
    std::string second;
    if (sweep_.dimensions.size() > 1) {
      const SweepDimension& d = sweep_.dimensions[1];
      second = d.name + "=" + Param(params, kSweepParameterPrefix + d.name);
    }
    Series& s = Find(kind, title, second);
    auto e = std::find(s.engines.begin(), s.engines.end(), engine);
    if (e == s.engines.end()) {
      s.engines.push_back(engine);
      s.cells.emplace_back(first.values.size());
      e = s.engines.end() - 1;
    }
    cell.present = true;
    s.cells[e - s.engines.begin()][at - first.values.begin()] = cell;
  }

  std::vector<Series> Take() { return std::move(series_); }

 private:
  Series& Find(const std::string& kind, const std::string& title, const std::string& second) {
    for (Series& s : series_)
      if (s.kind == kind && s.title == title && s.second == second) return s;
    series_.push_back(Series{kind, title, second, {}, {}});
    return series_.back();
  }

  const SweepInfo& sweep_;
  std::vector<Series> series_;
};

std::vector<Series> Collect(const RunResults& r) {
  SeriesBuilder b(*r.sweep);
  for (const BenchmarkResult& x : r.benchmarks) {
    Cell c;
    c.failed = x.error_occurred;
    c.throughput = x.throughput.point;
    b.Add("benchmark", x.suite + " / " + x.workload, x.engine, x.parameters, c);
  }
  for (const PhaseResult& p : r.phases) {
    Cell c;
    c.failed = p.error_occurred;
    c.throughput = p.throughput_ops_per_sec;
    c.p99_ns = p.latency_from_intended_start ? p.latency_from_intended_start->p99_ns : p.service_time.p99_ns;
    b.Add("phase", JoinNonEmpty({p.suite, p.workload, p.dataset, p.phase}, " / "), p.engine, p.parameters, c);
  }
  for (const CapacityResult& x : r.capacity) {
    Cell c;
    c.failed = x.error_occurred;
    c.throughput = x.capacity_ops_per_sec;
    b.Add("capacity",
          JoinNonEmpty({x.suite, x.workload, x.dataset, x.phase}, " / ") + ": capacity at " + x.sla +
              (x.latency == "service" ? " (service time)" : ""),
          x.engine, x.parameters, c);
  }
  return b.Take();
}

std::string CellText(const Series& s, const Cell& c) {
  if (!c.present) return "—";
  if (c.failed) return "failed";
  if (s.kind == "benchmark") return FormatCount(c.throughput) + " rec/s";
  if (s.kind == "capacity") return c.throughput > 0 ? FormatCount(c.throughput) + " ops/s" : "none";
  return fmt::format("{} ops/s, p99 {}", FormatCount(c.throughput), FormatDuration(c.p99_ns, 3));
}

void WritePoints(const SweepInfo& sweep, std::ostream& out) {
  out << "| Point | Status | Time | First failure |\n|:--|:--|--:|:--|\n";
  for (const SweepPoint& p : sweep.points) {
    std::string values;
    for (const auto& [name, value] : p.values)
      values += fmt::format("{}{}={}", values.empty() ? "" : ", ", name, value);
    out << fmt::format("| {} | {} | {:.1f} s | {} |\n", EscapeTableCell(values), p.status, p.seconds,
                       EscapeTableCell(p.message));
  }
  out << "\n";
}

std::string Heading(const Series& s) { return s.title + (s.second.empty() ? "" : " (" + s.second + ")"); }

LineChart BaseChart(const SweepDimension& d, const Series& s, const std::string& host) {
  LineChart chart;
  chart.x.title = d.name;
  chart.x.categories = d.values;
  for (size_t e = 0; e < s.engines.size(); ++e) {
    std::vector<std::string> failed, none;
    for (size_t i = 0; i < d.values.size(); ++i) {
      const Cell& c = s.cells[e][i];
      if (c.failed) failed.push_back(d.name + "=" + d.values[i]);
      if (s.kind == "capacity" && c.present && !c.failed && !(c.throughput > 0))
        none.push_back(d.name + "=" + d.values[i]);
    }
    if (!failed.empty())
      chart.notes.push_back(fmt::format("{} failed at {} (no point drawn).", s.engines[e], fmt::join(failed, ", ")));
    if (!none.empty())
      chart.notes.push_back(
          fmt::format("{}: no rate met the SLA at {} (no point drawn).", s.engines[e], fmt::join(none, ", ")));
  }
  chart.subtitle = host + ": one line per engine, a point per swept value";
  return chart;
}

// The chart of one figure of a series: `pick` gives a cell's value (NaN: no point).
template <typename Pick>
LineChart FigureChart(LineChart chart, const Series& s, Pick pick) {
  for (size_t e = 0; e < s.engines.size(); ++e) {
    ChartLine line{s.engines[e], {}, false};
    for (size_t i = 0; i < s.cells[e].size(); ++i) {
      const Cell& c = s.cells[e][i];
      if (!c.present || c.failed || (s.kind == "capacity" && !(c.throughput > 0))) continue;
      line.points.push_back(LinePoint{static_cast<double>(i), pick(c), chart.x.categories[i], false, false});
    }
    chart.lines.push_back(std::move(line));
  }
  return chart;
}

}  // namespace

void WriteSweepTables(const RunResults& results, std::ostream& out) {
  if (!results.sweep || results.sweep->dimensions.empty()) return;
  const SweepInfo& sweep = *results.sweep;
  std::vector<std::string> dims;
  for (const SweepDimension& d : sweep.dimensions)
    dims.push_back(fmt::format("{} = {}", d.name, fmt::join(d.values, ", ")));
  out << "## Sweep: " << EscapeTableCell(fmt::format("{}", fmt::join(dims, "; "))) << "\n\n";
  out << fmt::format(
      "{} points, each a complete run with its own settings; every record of a point carries its values as "
      "`sweep.*` parameters.\n\n",
      sweep.points.size());
  WritePoints(sweep, out);
  const SweepDimension& first = sweep.dimensions.front();
  for (const Series& s : Collect(results)) {
    out << "### " << EscapeTableCell(Heading(s)) << "\n\n| Engine |";
    for (const std::string& v : first.values) out << " " << EscapeTableCell(first.name + "=" + v) << " |";
    out << "\n|:--|";
    for (size_t i = 0; i < first.values.size(); ++i) out << "--:|";
    out << "\n";
    for (size_t e = 0; e < s.engines.size(); ++e) {
      out << "| " << EscapeTableCell(s.engines[e]) << " |";
      for (const Cell& c : s.cells[e]) out << " " << CellText(s, c) << " |";
      out << "\n";
    }
    out << "\n";
  }
}

std::vector<NamedChart> SweepCharts(const RunResults& results, const std::string& host) {
  std::vector<NamedChart> charts;
  if (!results.sweep || results.sweep->dimensions.empty()) return charts;
  const SweepDimension& first = results.sweep->dimensions.front();
  for (const Series& s : Collect(results)) {
    const std::string stem = "sweep-" + Heading(s);
    LineChart base = BaseChart(first, s, host);
    LineChart t = FigureChart(base, s, [](const Cell& c) { return c.throughput; });
    t.title = Heading(s) + (s.kind == "capacity" ? "" : ": throughput");
    t.y.title = s.kind == "benchmark" ? "records per second" : s.kind == "capacity" ? "capacity (ops/s)" : "ops/s";
    t.y.unit = AxisUnit::kRate;
    charts.push_back(NamedChart{stem + "-throughput", t.title + " against " + first.name, std::move(t)});
    if (s.kind != "phase") continue;
    LineChart p = FigureChart(base, s, [](const Cell& c) { return c.p99_ns; });
    p.title = Heading(s) + ": p99 latency";
    p.y.title = "p99";
    p.y.unit = AxisUnit::kDuration;
    charts.push_back(NamedChart{stem + "-p99", p.title + " against " + first.name, std::move(p)});
  }
  return charts;
}

}  // namespace dbxb
