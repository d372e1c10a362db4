#include "writers/markdown_seed.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "records/seed_published.h"
#include "writers/format.h"

namespace dbxb {
namespace {

const std::vector<std::string> kEngines = {"dbx-core", "sqlite", "sled", "redb", "dbx"};
const std::vector<std::string> kWorkloads = {"insert", "get", "scan"};

// suite -> workload -> engine -> typical time (ns) of the first such benchmark that did not fail.
using Times = std::map<std::string, std::map<std::string, double>>;

Times Collect(const std::vector<const RunResults*>& runs, const std::string& suite) {
  Times t;
  for (const RunResults* r : runs)
    for (const BenchmarkResult& b : r->benchmarks)
      if (b.suite == suite && !b.error_occurred && !t[b.workload].count(b.engine))
        t[b.workload][b.engine] = TypicalTime(b).point;
  return t;
}

// "25.21 ms (#1)", or "—" when there is no figure.
std::string Cell(const std::map<std::string, double>& column, const std::string& engine,
                 const std::string& extra = "") {
  auto it = column.find(engine);
  if (it == column.end()) return "—";
  const int rank = 1 + static_cast<int>(std::count_if(column.begin(), column.end(),
                                                      [&](const auto& kv) { return kv.second < it->second; }));
  return fmt::format("{}{} (#{})", FormatDuration(it->second), extra, rank);
}

void WriteTables(const Times& replica, const Times& fair, std::ostream& out) {
  for (const std::string& w : kWorkloads) {
    std::map<std::string, double> published;
    for (const std::string& e : kEngines)
      if (const PublishedFigure* f = FindPublished("summary", w, e)) published[e] = *f->mean_ns;
    out << "### " << w << "\n\n";
    out << "| Engine | Published (its report) | Replica of its code (this machine) | Fair dbx-micro (this machine) |\n";
    out << "|:--|--:|--:|--:|\n";
    for (const std::string& e : kEngines) {
      std::string sd;
      if (const PublishedFigure* d = FindPublished("detailed", w, e); d && d->std_dev_ns)
        sd = " ± " + FormatDuration(*d->std_dev_ns);
      auto col = [&](const Times& t) { return t.count(w) ? Cell(t.at(w), e) : std::string("—"); };
      out << fmt::format("| {} | {} | {} | {} |\n", e, Cell(published, e, sd), col(replica), col(fair));
    }
    out << "\n";
  }
}

void WriteClaims(std::ostream& out) {
  out << "### Claims the report's own tables contradict\n\n";
  out << "| Claim (its \"Performance vs Competitors\") | Its detailed table: engine ÷ DBX |\n|:--|--:|\n";
  for (const PublishedFigure& c : SeedPublishedFigures()) {
    if (c.section != "claim") continue;
    const PublishedFigure* dbx = FindPublished("detailed", c.workload, "dbx-core");
    const PublishedFigure* other = FindPublished("detailed", c.workload, c.engine);
    std::string ratio = "—";
    if (dbx && other && dbx->mean_ns && other->mean_ns && *dbx->mean_ns > 0)
      ratio = fmt::format("{:.2f}× ({} {} vs {})", *other->mean_ns / *dbx->mean_ns, c.engine,
                          FormatDuration(*other->mean_ns), FormatDuration(*dbx->mean_ns));
    out << fmt::format("| {} | {} |\n", c.printed, ratio);
  }
  out << "\n";
}

}  // namespace

void WriteSeedComparison(const std::vector<const RunResults*>& runs, std::ostream& out) {
  const Times replica = Collect(runs, "seed");
  if (replica.empty()) return;
  const Times fair = Collect(runs, "dbx-micro");
  out << "## The DBX team's comparison: published, replicated, fair\n\n";
  out << "Published: the figures of the DBX team's report, as it printed them (summary table; ± its detailed "
         "table's std dev), transcribed in records/seed_published.csv. Source:\n\n";
  for (const std::string& line : SeedPublishedSource()) out << "> " << line << "\n";
  out << "\nReplica: the `seed` suite, the report's benchmark code (official_db_comparison.rs) run as it is "
         "written, on this machine. Fair: the `dbx-micro` suite on this machine (one batch per insert, the "
         "same durability for every engine, file-backed, every read verified). Times are Criterion's "
         "typical estimate per iteration of 10,000 rows; the rank is within each column.\n\n";
  WriteTables(replica, fair, out);
  WriteClaims(out);
  out << "### Where the report's stated \"fair conditions\" differ from its code\n\n";
  for (const std::string& d : SeedConditionDifferences()) out << "- " << d << "\n";
  out << "\n";
}

}  // namespace dbxb
