#include "writers/markdown_versus.h"

#include <algorithm>

#include "writers/format.h"

namespace dbxb {
namespace {

constexpr char kSqlite[] = "sqlite";
constexpr char kPostgres[] = "postgres";

bool SamePhase(const PhaseResult& x, const PhaseResult& y) {
  return x.suite == y.suite && x.workload == y.workload && x.dataset == y.dataset && x.phase == y.phase;
}

std::string Throughput(const PhaseResult& p) {
  return p.error_occurred ? "FAILED" : FormatCount(p.throughput_ops_per_sec);
}

std::string Latency(const PhaseResult& p, double ns) {
  return p.error_occurred || p.service_time.count == 0 ? "—" : FormatDuration(ns, 3);
}

std::string Ratio(const std::optional<double>& r) { return r.has_value() ? FormatCount(*r) + "×" : "—"; }

std::string PhaseName(const std::string& workload, const std::string& phase) {
  return workload.empty() ? phase : workload + "/" + phase;
}

// The collapse of `engine` in `phase`, from the cached/disk-bound pairs.
std::optional<double> CollapseOf(const std::vector<CollapseRow>& collapse, const VersusRow& row,
                                 const std::string& engine) {
  for (const CollapseRow& c : collapse)
    if (c.suite == row.suite && c.workload == row.workload && c.phase == row.phase && c.engine == engine)
      return c.collapse;
  return std::nullopt;
}

void WriteSuite(const std::string& suite, const std::vector<VersusRow>& rows, const std::vector<CollapseRow>& collapse,
                std::ostream& out) {
  out << "## SQLite vs PostgreSQL: " << suite << "\n\n";
  out << "The study's question — when does a client-server database pay off? — answered phase by phase: "
         "SQLite in-process, PostgreSQL as a private server on a Unix socket, same data, same durability.\n\n";
  out << "| Data set | Phase | SQLite (ops/s) | PostgreSQL (ops/s) | PostgreSQL ÷ SQLite | SQLite p50 | "
         "PostgreSQL p50 | SQLite p99 | PostgreSQL p99 |\n";
  out << "|:--|:--|--:|--:|--:|--:|--:|--:|--:|\n";
  std::vector<std::string> datasets;
  for (const VersusRow& r : rows) {
    if (r.suite != suite) continue;
    const PhaseResult& s = *r.sqlite;
    const PhaseResult& p = *r.postgres;
    out << "| " << (r.dataset.empty() ? "—" : r.dataset) << " | " << PhaseName(r.workload, r.phase) << " | "
        << Throughput(s) << " | " << Throughput(p) << " | " << Ratio(r.ratio) << " | "
        << Latency(s, s.service_time.p50_ns) << " | " << Latency(p, p.service_time.p50_ns) << " | "
        << Latency(s, s.service_time.p99_ns) << " | " << Latency(p, p.service_time.p99_ns) << " |\n";
    if (std::find(datasets.begin(), datasets.end(), r.dataset) == datasets.end()) datasets.push_back(r.dataset);
  }
  out << "\nPostgreSQL ÷ SQLite > 1: PostgreSQL's throughput is higher in that phase.\n";
  for (const std::string& dataset : datasets) {
    int compared = 0, postgres_faster = 0;
    for (const VersusRow& r : rows) {
      if (r.suite != suite || r.dataset != dataset || !r.ratio.has_value()) continue;
      ++compared;
      postgres_faster += *r.ratio > 1.0;
    }
    out << (dataset.empty() ? std::string("All phases") : "On the " + dataset + " data set") << ": PostgreSQL was "
        << "faster in " << postgres_faster << " of " << compared << " phases, SQLite in " << compared - postgres_faster
        << ".\n";
  }

  bool any_collapse = false;
  for (const VersusRow& r : rows)
    if (r.suite == suite && r.dataset == "cached" &&
        (CollapseOf(collapse, r, kSqlite).has_value() || CollapseOf(collapse, r, kPostgres).has_value()))
      any_collapse = true;
  if (any_collapse) {
    out << "\n| Phase | SQLite collapse | PostgreSQL collapse |\n|:--|--:|--:|\n";
    for (const VersusRow& r : rows) {
      if (r.suite != suite || r.dataset != "cached") continue;
      out << "| " << PhaseName(r.workload, r.phase) << " | " << Ratio(CollapseOf(collapse, r, kSqlite)) << " | "
          << Ratio(CollapseOf(collapse, r, kPostgres)) << " |\n";
    }
    out << "\nCollapse = cached ÷ disk-bound throughput of the same phase and engine (higher = a harder fall "
           "when the data outgrows memory).\n";
  }
  out << "\n";
}

}  // namespace

std::vector<VersusRow> VersusTable(const std::vector<PhaseResult>& phases) {
  std::vector<VersusRow> rows;
  for (const PhaseResult& s : phases) {
    if (s.engine != kSqlite) continue;
    auto p = std::find_if(phases.begin(), phases.end(),
                          [&](const PhaseResult& q) { return q.engine == kPostgres && SamePhase(s, q); });
    if (p == phases.end()) continue;
    VersusRow row;
    row.suite = s.suite;
    row.workload = s.workload;
    row.dataset = s.dataset;
    row.phase = s.phase;
    row.sqlite = &s;
    row.postgres = &*p;
    if (!s.error_occurred && !p->error_occurred && s.throughput_ops_per_sec > 0)
      row.ratio = p->throughput_ops_per_sec / s.throughput_ops_per_sec;
    rows.push_back(row);
  }
  return rows;
}

void WriteSqliteVsPostgres(const RunResults& results, std::ostream& out) {
  const std::vector<VersusRow> rows = VersusTable(results.phases);
  const std::vector<CollapseRow> collapse = CollapseTable(results.phases);
  std::vector<std::string> suites;
  for (const VersusRow& r : rows)
    if (std::find(suites.begin(), suites.end(), r.suite) == suites.end()) suites.push_back(r.suite);
  for (const std::string& suite : suites) WriteSuite(suite, rows, collapse, out);
}

}  // namespace dbxb
