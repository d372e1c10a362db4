#include "writers/markdown_reporter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "records/grouping.h"
#include "writers/capacity_report.h"
#include "writers/format.h"
#include "writers/markdown_collapse.h"
#include "writers/markdown_methodology.h"
#include "writers/markdown_phases.h"
#include "writers/markdown_resources.h"
#include "writers/markdown_versus.h"
#include "writers/study_report.h"
#include "writers/sweep_report.h"

namespace dbxb {
namespace {

// "95 % CI" for 0.95, "99.9 % CI" for 0.999.
std::string ConfidenceHeader(double level) { return fmt::format("{:g} % CI", level * 100); }

// Competition ranking of the successful benchmarks by TypicalTime (the estimate the row shows): 1, 2, 2, 4.
std::vector<int> RanksByTime(const std::vector<const BenchmarkResult*>& members) {
  std::vector<int> ranks(members.size(), 0);
  for (size_t i = 0; i < members.size(); ++i) {
    if (members[i]->error_occurred) continue;
    int rank = 1;
    for (const BenchmarkResult* other : members) {
      if (!other->error_occurred && TypicalTime(*other).point < TypicalTime(*members[i]).point) ++rank;
    }
    ranks[i] = rank;
  }
  return ranks;
}

void WriteGroupTable(const BenchmarkGroup& g, std::string_view baseline, double confidence_level, std::ostream& out) {
  out << "## " << g.first().suite << " / " << g.first().workload << "\n\n";
  if (!g.first().parameters.empty())
    out << "Parameters: " << EscapeTableCell(JoinKeyValues(g.first().parameters)) << "\n\n";

  const BenchmarkResult* base = nullptr;
  for (const BenchmarkResult* b : g.members) {
    if (b->engine == baseline && !b->error_occurred) {
      base = b;
      break;
    }
  }
  std::vector<int> ranks = RanksByTime(g.members);

  out << "| Engine | Time | ± Std dev | " << ConfidenceHeader(confidence_level) << " | Throughput (rec/s) | vs "
      << EscapeTableCell(std::string(baseline)) << " | Rank |\n";
  out << "|:--|--:|--:|:--:|--:|:--|--:|\n";
  for (size_t i = 0; i < g.members.size(); ++i) {
    const BenchmarkResult& b = *g.members[i];
    std::string engine = EscapeTableCell(b.engine);
    if (b.error_occurred) {
      std::string reason = b.error_message.empty() ? "(no reason recorded)" : EscapeTableCell(b.error_message);
      out << "| " << engine << " | FAILED: " << reason << " | | | | | — |\n";
      continue;
    }
    // Time, its interval, vs, rank and throughput all come from one estimate (TypicalTime).
    const Interval& time = TypicalTime(b);
    std::string versus = "n/a";
    if (&b == base)
      versus = "1.00× (baseline)";
    else if (base != nullptr)
      versus = FormatSpeedup(TypicalTime(*base).point, time.point);
    out << fmt::format("| {} | {} | ± {} | [{}, {}] | {} | {} | {} |\n", engine, FormatDuration(time.point),
                       FormatDuration(b.estimates.std_dev.point), FormatDuration(time.lower),
                       FormatDuration(time.upper), b.elements_per_iteration > 0 ? FormatCount(b.throughput.point) : "—",
                       versus, ranks[i]);
  }
  out << "\n";
}

}  // namespace

std::string DefaultBaselineEngine(const RunResults& results) {
  return results.benchmarks.empty() ? std::string() : results.benchmarks.front().engine;
}

std::string BaselineEngine(const RunResults& results, std::string_view chosen) {
  return chosen.empty() ? DefaultBaselineEngine(results) : std::string(chosen);
}

std::string FormatSpeedup(double baseline_mean_ns, double mean_ns) {
  if (!(baseline_mean_ns > 0) || !(mean_ns > 0) || std::isinf(baseline_mean_ns) || std::isinf(mean_ns)) return "n/a";
  double ratio = baseline_mean_ns / mean_ns;
  if (ratio >= 1) return fmt::format("{:.2f}× faster", ratio);
  return fmt::format("{:.2f}× slower", 1 / ratio);
}

void WriteComparisonTables(const RunResults& results, std::string_view baseline_engine, std::ostream& out) {
  for (const BenchmarkGroup& g : GroupBenchmarksByWorkload(results)) {
    WriteGroupTable(g, baseline_engine, results.context.sampling.confidence_level, out);
  }
}

MarkdownReporter::MarkdownReporter(std::string baseline_engine) : baseline_engine_(std::move(baseline_engine)) {}

Status MarkdownReporter::Write(const RunResults& results, std::ostream& out) {
  const RunContext& c = results.context;
  size_t failed = std::count_if(results.benchmarks.begin(), results.benchmarks.end(),
                                [](const BenchmarkResult& b) { return b.error_occurred; });
  out << "# dbx-bench results\n\n";
  out << fmt::format("Run of {} on {}: {} benchmark{}", c.date_utc, c.host_name, results.benchmarks.size(),
                     results.benchmarks.size() == 1 ? "" : "s");
  if (failed > 0) out << fmt::format(" ({} failed)", failed);
  if (!results.phases.empty()) {
    size_t failed_phases = std::count_if(results.phases.begin(), results.phases.end(),
                                         [](const PhaseResult& p) { return p.error_occurred; });
    out << fmt::format(", {} phase{}", results.phases.size(), results.phases.size() == 1 ? "" : "s");
    if (failed_phases > 0) out << fmt::format(" ({} failed)", failed_phases);
  }
  if (!results.capacity.empty())
    out << fmt::format(", {} capacity search{}", results.capacity.size(), results.capacity.size() == 1 ? "" : "es");
  out << fmt::format(", dbx-bench {}.\n\n", c.tool_version);
  std::vector<std::string> warnings = ReadingWarnings(results);
  for (size_t i = 0; i < warnings.size(); ++i) out << (i == 0 ? "> " : ">\n> ") << warnings[i] << "\n";
  if (!warnings.empty()) out << "\n";
  WriteComparisonTables(results, BaselineEngine(results, baseline_engine_), out);
  WritePhaseTables(results, out);
  WriteCollapseTables(results, out);
  WriteSqliteVsPostgres(results, out);
  WriteCapacityTables(results, out);
  WriteSqliteOrPostgres({&results}, out);
  WriteSweepTables(results, out);
  WriteResourceTables(results, out);
  WriteMethodology(results, out);
  return StreamStatus(out, "results.md");
}

}  // namespace dbxb
