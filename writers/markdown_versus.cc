#include "writers/markdown_versus.h"

#include <algorithm>
#include <optional>
#include <string>

#include "writers/markdown_collapse.h"

namespace dbxb {
namespace {

constexpr char kSqlite[] = "sqlite";
constexpr char kPostgres[] = "postgres";

bool SamePhase(const PhaseResult& x, const PhaseResult& y) {
  return x.suite == y.suite && x.workload == y.workload && x.dataset == y.dataset && x.phase == y.phase;
}

// The collapse of `engine` in `phase`, from the cached/disk-bound pairs.
std::optional<double> CollapseOf(const std::vector<PhasePair>& collapse, const PhasePair& row,
                                 const std::string& engine) {
  for (const PhasePair& c : collapse)
    if (c.suite == row.suite && c.workload == row.workload && c.phase == row.phase && c.engine == engine)
      return c.ratio;
  return std::nullopt;
}

void WriteSuite(const std::string& suite, const std::vector<PhasePair>& rows, const std::vector<PhasePair>& collapse,
                std::ostream& out) {
  out << "## SQLite vs PostgreSQL: " << suite << "\n\n";
  out << "The study's question — when does a client-server database pay off? — answered phase by phase: "
         "SQLite in-process, PostgreSQL as a private server on a Unix socket, same data, same durability.\n\n";
  WritePairTableHeader("Data set", "Phase", "SQLite", "PostgreSQL", "PostgreSQL ÷ SQLite", out);
  std::vector<std::string> datasets;
  for (const PhasePair& r : rows) {
    if (r.suite != suite) continue;
    WritePairRow(r.dataset.empty() ? "—" : r.dataset, PhaseLabel(r), r, out);
    if (std::find(datasets.begin(), datasets.end(), r.dataset) == datasets.end()) datasets.push_back(r.dataset);
  }
  out << "\nPostgreSQL ÷ SQLite > 1: PostgreSQL's throughput is higher in that phase.\n";
  for (const std::string& dataset : datasets) {
    int compared = 0, postgres_faster = 0;
    for (const PhasePair& r : rows) {
      if (r.suite != suite || r.dataset != dataset || !r.ratio.has_value()) continue;
      ++compared;
      postgres_faster += *r.ratio > 1.0;
    }
    out << (dataset.empty() ? std::string("All phases") : "On the " + dataset + " data set") << ": PostgreSQL was "
        << "faster in " << postgres_faster << " of " << compared << " phases, SQLite in " << compared - postgres_faster
        << ".\n";
  }

  bool any_collapse = false;
  for (const PhasePair& r : rows)
    if (r.suite == suite && r.dataset == "cached" &&
        (CollapseOf(collapse, r, kSqlite).has_value() || CollapseOf(collapse, r, kPostgres).has_value()))
      any_collapse = true;
  if (any_collapse) {
    out << "\n| Phase | SQLite collapse | PostgreSQL collapse |\n|:--|--:|--:|\n";
    for (const PhasePair& r : rows) {
      if (r.suite != suite || r.dataset != "cached") continue;
      out << "| " << PhaseLabel(r) << " | " << FormatRatio(CollapseOf(collapse, r, kSqlite)) << " | "
          << FormatRatio(CollapseOf(collapse, r, kPostgres)) << " |\n";
    }
    out << "\nCollapse = cached ÷ disk-bound throughput of the same phase and engine (higher = a harder fall "
           "when the data outgrows memory).\n";
  }
  out << "\n";
}

}  // namespace

std::vector<PhasePair> VersusTable(const std::vector<PhaseResult>& phases) {
  return PairPhases(
      phases, phases,
      [](const PhaseResult& s, const PhaseResult& p) {
        return s.engine == kSqlite && p.engine == kPostgres && SamePhase(s, p);
      },
      PairRatio::kSecondOverFirst);
}

void WriteSqliteVsPostgres(const RunResults& results, std::ostream& out) {
  const std::vector<PhasePair> rows = VersusTable(results.phases);
  const std::vector<PhasePair> collapse = CollapseTable(results.phases);
  for (const std::string& suite : SuitesOf(rows)) WriteSuite(suite, rows, collapse, out);
}

}  // namespace dbxb
