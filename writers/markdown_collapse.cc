#include "writers/markdown_collapse.h"

#include <algorithm>

#include "writers/format.h"

namespace dbxb {
namespace {

bool SamePhase(const PhaseResult& x, const PhaseResult& y) {
  return x.suite == y.suite && x.workload == y.workload && x.phase == y.phase && x.engine == y.engine;
}

CollapseRow MakeRow(const PhaseResult& cached, const PhaseResult& disk) {
  CollapseRow row;
  row.suite = cached.suite;
  row.workload = cached.workload;
  row.phase = cached.phase;
  row.engine = cached.engine;
  row.cached = &cached;
  row.disk_bound = &disk;
  if (!cached.error_occurred && !disk.error_occurred && disk.throughput_ops_per_sec > 0)
    row.collapse = cached.throughput_ops_per_sec / disk.throughput_ops_per_sec;
  return row;
}

std::string Throughput(const PhaseResult& p) {
  return p.error_occurred ? "FAILED" : FormatCount(p.throughput_ops_per_sec);
}

std::string Latency(const PhaseResult& p, double ns) {
  return p.error_occurred || p.service_time.count == 0 ? "—" : FormatDuration(ns, 3);
}

std::string Collapse(const std::optional<double>& c) {
  if (!c.has_value()) return "—";
  return FormatCount(*c) + "×";
}

}  // namespace

std::vector<CollapseRow> CollapseTable(const std::vector<PhaseResult>& phases) {
  std::vector<CollapseRow> rows;
  for (const PhaseResult& c : phases) {
    if (c.dataset != "cached") continue;
    auto d = std::find_if(phases.begin(), phases.end(),
                          [&](const PhaseResult& p) { return p.dataset == "disk-bound" && SamePhase(c, p); });
    if (d != phases.end()) rows.push_back(MakeRow(c, *d));
  }
  return rows;
}

std::vector<CollapseRow> CollapseTable(const std::vector<PhaseResult>& cached,
                                       const std::vector<PhaseResult>& disk_bound) {
  std::vector<CollapseRow> rows;
  for (const PhaseResult& c : cached) {
    auto d = std::find_if(disk_bound.begin(), disk_bound.end(), [&](const PhaseResult& p) { return SamePhase(c, p); });
    if (d != disk_bound.end()) rows.push_back(MakeRow(c, *d));
  }
  return rows;
}

void WriteCollapseTables(const std::vector<CollapseRow>& rows, std::ostream& out) {
  std::vector<std::string> suites;
  for (const CollapseRow& r : rows)
    if (std::find(suites.begin(), suites.end(), r.suite) == suites.end()) suites.push_back(r.suite);
  for (const std::string& suite : suites) {
    out << "## Cached vs disk-bound: " << suite << "\n\n";
    out << "| Phase | Engine | Cached (ops/s) | Disk-bound (ops/s) | Collapse | Cached p50 | Disk-bound p50 | "
           "Cached p99 | Disk-bound p99 |\n";
    out << "|:--|:--|--:|--:|--:|--:|--:|--:|--:|\n";
    std::vector<std::string> methods;
    for (const CollapseRow& r : rows) {
      if (r.suite != suite) continue;
      const PhaseResult& c = *r.cached;
      const PhaseResult& d = *r.disk_bound;
      std::string phase = r.workload.empty() ? r.phase : r.workload + "/" + r.phase;
      out << "| " << phase << " | " << r.engine << " | " << Throughput(c) << " | " << Throughput(d) << " | "
          << Collapse(r.collapse) << " | " << Latency(c, c.service_time.p50_ns) << " | "
          << Latency(d, d.service_time.p50_ns) << " | " << Latency(c, c.service_time.p99_ns) << " | "
          << Latency(d, d.service_time.p99_ns) << " |\n";
      const std::string method = d.memory_method.empty() ? "not limited (none recorded)" : d.memory_method;
      if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
    }
    out << "\nCollapse = cached throughput ÷ disk-bound throughput of the same phase and engine "
           "(higher = a harder fall when the data outgrows memory).\n";
    for (const std::string& m : methods) out << "Disk-bound memory: " << m << ".\n";
    out << "\n";
  }
}

void WriteCollapseTables(const RunResults& results, std::ostream& out) {
  WriteCollapseTables(CollapseTable(results.phases), out);
}

}  // namespace dbxb
