#include "writers/report_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "records/grouping.h"
#include "writers/amplification_chart.h"
#include "writers/capacity_report.h"
#include "writers/format.h"
#include "writers/markdown_collapse.h"
#include "writers/markdown_methodology.h"
#include "writers/markdown_phases.h"
#include "writers/markdown_reporter.h"
#include "writers/markdown_resources.h"
#include "writers/markdown_seed.h"
#include "writers/markdown_versus.h"
#include "writers/reporter.h"
#include "writers/study_report.h"
#include "writers/svg_chart.h"
#include "writers/sweep_report.h"
#include "writers/time_series_chart.h"

namespace dbxb {
namespace {

// Competition rank by TypicalTime among the successful members (1, 2, 2, 4), as the comparison tables rank;
// 0 for a failed benchmark.
int RankOf(const BenchmarkGroup& g, const BenchmarkResult& b) {
  if (b.error_occurred) return 0;
  int rank = 1;
  for (const BenchmarkResult* other : g.members) {
    if (!other->error_occurred && TypicalTime(*other).point < TypicalTime(b).point) ++rank;
  }
  return rank;
}

std::string Medal(int rank) {
  switch (rank) {
    case 1:
      return " 🥇";
    case 2:
      return " 🥈";
    case 3:
      return " 🥉";
    default:
      return fmt::format(" ({})", rank);
  }
}

// "bench-host-dbx-micro-get": lower case letters and digits, other runs of characters as one '-'.
std::string Slug(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) && c < 0x80)
      out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-')
      out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "chart" : out;
}

std::string UniqueName(std::vector<std::string>* taken, const std::string& base, const std::string& ext) {
  std::string name = base + ext;
  for (int n = 2; std::find(taken->begin(), taken->end(), name) != taken->end(); ++n)
    name = fmt::format("{}-{}{}", base, n, ext);
  taken->push_back(name);
  return name;
}

// The title of a workload: "dbx-micro / get", with its parameters when the run has the same workload
// with other parameters too.
std::string GroupTitle(const std::vector<BenchmarkGroup>& groups, const BenchmarkGroup& g) {
  const std::string title = g.first().suite + " / " + g.first().workload;
  std::vector<const KeyValues*> others;
  for (const BenchmarkGroup& other : groups) {
    if (&other != &g && other.first().suite == g.first().suite && other.first().workload == g.first().workload)
      others.push_back(&other.first().parameters);
  }
  return others.empty() ? title : title + " (" + JoinDifferingKeyValues(g.first().parameters, others) + ")";
}

// "ycsb / workloada / run", "sqlite-vps / disk-bound / select-pk"; when other groups share that name,
// what tells them apart: threads, closed or open loop (with its rate), parameters.
std::string PhaseTitle(const std::vector<PhaseGroup>& groups, const PhaseGroup& g) {
  const PhaseResult& p = g.first();
  std::string title;
  for (const std::string* part : {&p.suite, &p.workload, &p.dataset, &p.phase}) {
    if (part->empty()) continue;
    title += (title.empty() ? "" : " / ") + *part;
  }
  bool threads = false, rate = false, parameters = false;
  std::vector<const KeyValues*> others;
  for (const PhaseGroup& other : groups) {
    const PhaseResult& o = other.first();
    if (&other == &g || o.suite != p.suite || o.workload != p.workload || o.dataset != p.dataset || o.phase != p.phase)
      continue;
    threads |= o.threads != p.threads;
    rate |= o.target_rate != p.target_rate;
    parameters |= o.parameters != p.parameters;
    others.push_back(&o.parameters);
  }
  std::vector<std::string> distinct;
  if (threads) distinct.push_back(fmt::format("{} thread{}", p.threads, p.threads == 1 ? "" : "s"));
  if (rate) {
    distinct.push_back(p.target_rate > 0 ? fmt::format("open loop at {} ops/s", FormatCount(p.target_rate))
                                         : std::string("closed loop"));
  }
  if (parameters) distinct.push_back(JoinDifferingKeyValues(p.parameters, others));
  std::string suffix;
  for (const std::string& d : distinct) suffix += (suffix.empty() ? "" : ", ") + d;
  return suffix.empty() ? title : title + " (" + suffix + ")";
}

// Competition rank by throughput (highest first) among the successful members; 0 for a failed one.
int ThroughputRank(const PhaseGroup& g, const PhaseResult& p) {
  if (p.error_occurred) return 0;
  int rank = 1;
  for (const PhaseResult* other : g.members) {
    if (!other->error_occurred && other->throughput_ops_per_sec > p.throughput_ops_per_sec) ++rank;
  }
  return rank;
}

std::string HostName(const RunContext& c) { return c.host_name.empty() ? "unknown host" : c.host_name; }

void WriteIndex(const std::vector<ReportInput>& runs, std::ostream& out) {
  out << "| Host | CPU | Run (UTC) | Benchmarks | Phases | Source |\n|:--|:--|:--|--:|--:|:--|\n";
  for (const ReportInput& run : runs) {
    const RunContext& c = run.results.context;
    out << fmt::format("| {} | {}, {} cores | {} | {} | {} | `{}` |\n", EscapeTableCell(HostName(c)),
                       EscapeTableCell(c.cpu_model), c.num_cpus, EscapeTableCell(c.date_utc),
                       run.results.benchmarks.size(), run.results.phases.size(), EscapeTableCell(run.source));
  }
  out << "\n";
}

// A table of one row per group (`title(groups, g)` in the first column, headed `first_header`) and one
// column per engine: "—" where the group has no member of that engine, "failed" where it failed, else
// `cell(g, member)`. Group is BenchmarkGroup or PhaseGroup.
template <typename Group, typename Title, typename Cell>
void WriteEngineTable(std::string_view first_header, const std::vector<std::string>& engines,
                      const std::vector<Group>& groups, Title title, Cell cell, std::ostream& out) {
  out << "| " << first_header << " |";
  for (const std::string& e : engines) out << " " << EscapeTableCell(e) << " |";
  out << "\n|:--|";
  for (size_t i = 0; i < engines.size(); ++i) out << "--:|";
  out << "\n";
  for (const Group& g : groups) {
    out << "| " << EscapeTableCell(title(groups, g)) << " |";
    for (const std::string& engine : engines) {
      auto it = std::find_if(g.members.begin(), g.members.end(), [&](const auto* m) { return m->engine == engine; });
      if (it == g.members.end())
        out << " — |";
      else if ((*it)->error_occurred)
        out << " failed |";
      else
        out << " " << cell(g, **it) << " |";
    }
    out << "\n";
  }
  out << "\n";
}

void WritePhaseSummary(const std::vector<PhaseGroup>& groups, std::ostream& out) {
  std::vector<std::string> engines;
  for (const PhaseGroup& g : groups) {
    for (const PhaseResult* p : g.members)
      if (std::find(engines.begin(), engines.end(), p->engine) == engines.end()) engines.push_back(p->engine);
  }
  out << "Throughput of each phase on each engine; 🥇🥈🥉 mark the three highest.\n\n";
  WriteEngineTable(
      "Phase", engines, groups, PhaseTitle,
      [](const PhaseGroup& g, const PhaseResult& p) {
        return FormatCount(p.throughput_ops_per_sec) + " ops/s" + Medal(ThroughputRank(g, p));
      },
      out);
}

void WriteSummary(const RunResults& results, const std::vector<BenchmarkGroup>& groups,
                  const std::vector<PhaseGroup>& phases, std::ostream& out) {
  out << "### Summary\n\n";
  if (!phases.empty()) WritePhaseSummary(phases, out);
  if (groups.empty()) return;
  out << "Time per iteration of each workload on each engine (the slope in linear sampling, else the mean, as in "
         "the tables below); 🥇🥈🥉 mark the three fastest.\n\n";
  WriteEngineTable(
      "Workload", EnginesOfBenchmarks(results), groups, GroupTitle,
      [](const BenchmarkGroup& g, const BenchmarkResult& b) {
        return FormatDuration(TypicalTime(b).point) + Medal(RankOf(g, b));
      },
      out);
}

BarChart ChartOf(const RunResults& results, const std::vector<BenchmarkGroup>& groups, const BenchmarkGroup& g) {
  BarChart chart;
  chart.title = GroupTitle(groups, g);
  chart.subtitle = fmt::format("{}: time per iteration with its {:g} % confidence interval (shorter is faster)",
                               HostName(results.context), results.context.sampling.confidence_level * 100);
  for (const BenchmarkResult* b : g.members) {
    const Interval& time = TypicalTime(*b);
    chart.entries.push_back(BarChartEntry{b->engine, time.point, time.lower, time.upper, b->error_occurred});
  }
  return chart;
}

std::string Describe(const LatencySummary& l) {
  return fmt::format("p50 {}, p99 {}, p99.9 {}, max {}", FormatDuration(l.p50_ns), FormatDuration(l.p99_ns),
                     FormatDuration(l.p999_ns), FormatDuration(l.max_ns));
}

LatencyChart LatencyChartOf(const RunResults& results, const std::vector<PhaseGroup>& groups, const PhaseGroup& g) {
  LatencyChart chart;
  chart.title = PhaseTitle(groups, g);
  chart.subtitle = fmt::format("{}: service time by percentile, every measured operation (lower is better)",
                               HostName(results.context));
  for (const PhaseResult* p : g.members) {
    LatencyCurve curve{p->engine, p->service_time.percentile_curve, Describe(p->service_time), p->error_occurred};
    chart.curves.push_back(std::move(curve));
  }
  return chart;
}

void WriteReproduce(const RunContext& c, std::ostream& out) {
  out << "### How to reproduce\n\n";
  out << fmt::format(
      "Build dbx-bench at commit `{}`{} as a {} build ({}, flags `{}`), for example with "
      "`git checkout {}` and `scripts/build.sh`, then run on a comparable machine:\n\n",
      c.git_commit, c.git_dirty ? " (the run used uncommitted changes on top of it)" : "", c.build_type, c.compiler,
      c.compiler_flags, c.git_commit);
  out << "```\n" << c.command_line << "\n```\n\n";
}

// The resource tables, each with its write and space amplification chart.
void WriteResourceSection(const RunResults& results, std::vector<std::string>* taken, std::vector<ReportFile>* charts,
                          std::ostream& out) {
  const std::vector<ResourceTable> tables = ResourceTables(results);
  if (tables.empty()) return;
  const std::string host = HostName(results.context);
  for (const ResourceTable& t : tables) {
    std::ostringstream table;
    WriteResourceTable(t, table);
    out << DemoteHeadings(table.str(), 1);
    AmplificationChart chart;
    chart.title = "Resources: " + t.title;
    chart.subtitle = host + ": bytes written ÷ key + value bytes written; disk ÷ live key + value bytes";
    for (const ResourceRow& r : t.rows) {
      AmplificationEntry e{r.phase.empty() ? r.engine : r.phase + " / " + r.engine, r.engine, {}, {}};
      if (r.usage != nullptr) {
        e.write_amplification = r.usage->write_amplification;
        e.space_amplification = r.usage->space_amplification;
      }
      chart.entries.push_back(e);
    }
    const std::string file = UniqueName(taken, Slug(host + "-" + t.title + "-amplification"), ".svg");
    charts->push_back(ReportFile{file, RenderAmplificationChart(chart)});
    std::string alt = chart.title + " on " + host;
    std::replace(alt.begin(), alt.end(), '[', '(');
    std::replace(alt.begin(), alt.end(), ']', ')');
    out << fmt::format("![{}: write and space amplification per engine]({})\n\n", alt, file);
  }
  out << ResourceLegend(tables);
}

// Each chart as an SVG file named after the host and its stem, and its image in the Markdown.
void WriteLineCharts(const std::vector<NamedChart>& named, const std::string& host, std::vector<std::string>* taken,
                     std::vector<ReportFile>* charts, std::ostream& out) {
  for (const NamedChart& n : named) {
    const std::string file = UniqueName(taken, Slug(host + "-" + n.stem), ".svg");
    charts->push_back(ReportFile{file, RenderLineChart(n.chart)});
    std::string alt = n.alt + " on " + host;
    std::replace(alt.begin(), alt.end(), '[', '(');
    std::replace(alt.begin(), alt.end(), ']', ')');
    out << fmt::format("![{}]({})\n\n", alt, file);
  }
}

// A sweep's tables and scaling charts, capacity searches' tables and curves, and every phase's time series.
void WriteSweepAndCapacity(const RunResults& results, std::vector<std::string>* taken, std::vector<ReportFile>* charts,
                           std::ostream& out) {
  const std::string host = HostName(results.context);
  std::ostringstream capacity;
  WriteCapacityTables(results, capacity);
  if (!capacity.str().empty()) {
    out << DemoteHeadings(capacity.str(), 1);
    WriteLineCharts(CapacityCharts(results, host), host, taken, charts, out);
  }
  std::ostringstream sweep;
  WriteSweepTables(results, sweep);
  if (!sweep.str().empty()) {
    out << DemoteHeadings(sweep.str(), 1);
    WriteLineCharts(SweepCharts(results, host), host, taken, charts, out);
  }
  const std::vector<PhaseGroup> groups = GroupPhasesByPhase(results);
  std::vector<NamedChart> series;
  for (const PhaseGroup& g : groups)
    for (NamedChart& c : TimeSeriesCharts(g, PhaseTitle(groups, g), host)) series.push_back(std::move(c));
  if (series.empty()) return;
  out << "### Throughput and p99, second by second\n\n";
  WriteLineCharts(series, host, taken, charts, out);
}

// What a run holds, for its section's first line: "12 benchmarks (1 failed), 7 phases, 1 capacity search".
std::string RunContents(const RunResults& results) {
  std::string text;
  if (!results.benchmarks.empty() || (results.phases.empty() && results.capacity.empty())) {
    const size_t failed = std::count_if(results.benchmarks.begin(), results.benchmarks.end(),
                                        [](const BenchmarkResult& b) { return b.error_occurred; });
    text += fmt::format("{} benchmark{}", results.benchmarks.size(), results.benchmarks.size() == 1 ? "" : "s");
    if (failed > 0) text += fmt::format(" ({} failed)", failed);
    if (!results.phases.empty()) text += ", ";
  }
  if (!results.phases.empty()) {
    const size_t failed_phases = std::count_if(results.phases.begin(), results.phases.end(),
                                               [](const PhaseResult& p) { return p.error_occurred; });
    text += fmt::format("{} phase{}", results.phases.size(), results.phases.size() == 1 ? "" : "s");
    if (failed_phases > 0) text += fmt::format(" ({} failed)", failed_phases);
  }
  if (!results.capacity.empty()) {
    const bool first = results.benchmarks.empty() && results.phases.empty();
    text += fmt::format("{}{} capacity search{}", first ? "" : ", ", results.capacity.size(),
                        results.capacity.size() == 1 ? "" : "es");
  }
  return text;
}

// The section's heading, its first line, what a merge did, and the warnings for reading the run.
void WriteRunHeader(const ReportInput& run, const std::string& heading, std::ostream& out) {
  const RunResults& results = run.results;
  const RunContext& c = results.context;
  out << "## " << heading << "\n\n";
  out << fmt::format("Run of {} on {} ({}, {} cores): ", c.date_utc, HostName(c), c.cpu_model, c.num_cpus);
  out << RunContents(results);
  out << fmt::format(", dbx-bench {}. Source: `{}`.\n\n", c.tool_version, run.source);
  if (!c.merged_files.empty()) {
    const size_t concurrent = std::count_if(results.phases.begin(), results.phases.end(),
                                            [](const PhaseResult& p) { return p.merged_throughput == "concurrent"; });
    std::vector<std::string> files;
    for (const std::string& f : c.merged_files) files.push_back("`" + f + "`");
    out << fmt::format(
        "Merged by `dbx-bench merge` from {} results files ({}): histograms and counts added, "
        "percentiles computed from the added histograms. Throughput is the sum of the inputs' rates "
        "for the {} phase{} they ran at the same time and the operations over the summed durations "
        "for the other {}.\n\n",
        c.merged_files.size(), fmt::join(files, ", "), concurrent, concurrent == 1 ? "" : "s",
        results.phases.size() - concurrent);
  }
  const std::vector<std::string> warnings = ReadingWarnings(results);
  for (size_t i = 0; i < warnings.size(); ++i) out << (i == 0 ? "> " : ">\n> ") << warnings[i] << "\n";
  if (!warnings.empty()) out << "\n";
}

// A chart's image line in Markdown: its alt text (which must not contain brackets; a title has none,
// but the parameters in it could) and its file.
std::string ImageLine(const std::string& title, const RunContext& c, const std::string& what, const std::string& file) {
  std::string alt = title + " on " + HostName(c);
  std::replace(alt.begin(), alt.end(), '[', '(');
  std::replace(alt.begin(), alt.end(), ']', ')');
  return fmt::format("![{}: {}]({})\n\n", alt, what, file);
}

// Each workload's comparison table with its bar chart under it.
void WriteBenchmarkGroups(const RunResults& results, const std::vector<BenchmarkGroup>& groups,
                          const std::string& baseline, std::vector<std::string>* taken, std::vector<ReportFile>* charts,
                          std::ostream& out) {
  const RunContext& c = results.context;
  for (const BenchmarkGroup& g : groups) {
    // One table at a time, so that each chart sits under its table.
    RunResults one;
    one.context = c;
    for (const BenchmarkResult* b : g.members) one.benchmarks.push_back(*b);
    std::ostringstream table;
    WriteComparisonTables(one, baseline, table);
    out << DemoteHeadings(table.str(), 1);
    const BarChart chart = ChartOf(results, groups, g);
    const std::string file =
        UniqueName(taken, Slug(HostName(c) + "-" + g.first().suite + "-" + g.first().workload), ".svg");
    charts->push_back(ReportFile{file, RenderTimeBarChart(chart)});
    out << ImageLine(chart.title, c, "mean time per engine with confidence intervals", file);
  }
}

// The phase tables, then each phase's latency-percentile chart.
void WritePhaseGroups(const RunResults& results, const std::vector<PhaseGroup>& phase_groups,
                      std::vector<std::string>* taken, std::vector<ReportFile>* charts, std::ostream& out) {
  const RunContext& c = results.context;
  std::ostringstream tables;
  WritePhaseTables(results, tables);
  WriteCollapseTables(results, tables);
  WriteSqliteVsPostgres(results, tables);
  out << DemoteHeadings(tables.str(), 1);
  out << "### Latency percentiles\n\n";
  for (const PhaseGroup& g : phase_groups) {
    const LatencyChart chart = LatencyChartOf(results, phase_groups, g);
    const PhaseResult& p = g.first();
    const std::string file = UniqueName(
        taken, Slug(HostName(c) + "-" + p.suite + "-" + p.workload + "-" + p.dataset + "-" + p.phase + "-latency"),
        ".svg");
    charts->push_back(ReportFile{file, RenderLatencyPercentileChart(chart)});
    out << ImageLine(chart.title, c, "service-time percentiles per engine", file);
  }
}

void WriteRunSection(const ReportInput& run, const std::string& heading, const ReportOptions& options,
                     std::vector<std::string>* taken, std::vector<ReportFile>* charts, std::ostream& out) {
  const RunResults& results = run.results;
  WriteRunHeader(run, heading, out);

  const std::vector<BenchmarkGroup> groups = GroupBenchmarksByWorkload(results);
  const std::vector<PhaseGroup> phase_groups = GroupPhasesByPhase(results);
  if (groups.empty() && phase_groups.empty() && results.capacity.empty())
    out << "No benchmarks were recorded in this run.\n\n";
  else
    WriteSummary(results, groups, phase_groups, out);

  WriteBenchmarkGroups(results, groups, BaselineEngine(results, options.baseline_engine), taken, charts, out);
  if (!phase_groups.empty()) WritePhaseGroups(results, phase_groups, taken, charts, out);

  WriteSweepAndCapacity(results, taken, charts, out);
  WriteResourceSection(results, taken, charts, out);

  std::ostringstream methodology;
  WriteMethodology(results, methodology);
  out << DemoteHeadings(methodology.str(), 1) << "\n";
  WriteReproduce(results.context, out);
}

}  // namespace

std::string DemoteHeadings(const std::string& text, int levels) {
  std::istringstream in(text);
  std::string line, out;
  bool in_fence = false;
  while (std::getline(in, line)) {
    if (line.rfind("```", 0) == 0) in_fence = !in_fence;
    if (!in_fence && line.rfind("#", 0) == 0) line = std::string(static_cast<size_t>(levels), '#') + line;
    out += line;
    out += '\n';
  }
  if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

std::vector<ReportFile> RenderReport(const std::vector<ReportInput>& runs, const ReportOptions& options) {
  std::vector<std::string> taken = {kReportMarkdownName};
  std::vector<ReportFile> charts;
  std::ostringstream out;
  out << "# dbx-bench report\n\n";
  out << fmt::format(
      "Generated by `dbx-bench report` from {} result file{}: every number, table and chart below "
      "comes from the recorded results. Each run has its own section; runs from different machines "
      "are never averaged together.\n\n",
      runs.size(), runs.size() == 1 ? "" : "s");
  WriteIndex(runs, out);
  std::vector<const RunResults*> all;
  for (const ReportInput& run : runs) all.push_back(&run.results);
  WriteSeedComparison(all, out);  // only when a run holds the seed suite
  // The study's answer over every run of a host (a cached and a disk-bound run, a durability sweep, ...).
  std::vector<std::string> hosts;
  for (const ReportInput& run : runs)
    if (std::find(hosts.begin(), hosts.end(), HostName(run.results.context)) == hosts.end())
      hosts.push_back(HostName(run.results.context));
  for (const std::string& host : hosts) {
    std::vector<const RunResults*> of_host;
    for (const ReportInput& run : runs)
      if (HostName(run.results.context) == host) of_host.push_back(&run.results);
    std::ostringstream study;
    WriteSqliteOrPostgres(of_host, study);
    std::string text = study.str();
    if (hosts.size() > 1 && !text.empty()) text.insert(text.find('\n'), " (" + host + ")");
    out << text;
  }
  for (const ReportInput& run : runs) {
    const RunContext& c = run.results.context;
    const bool host_repeats = std::count_if(runs.begin(), runs.end(), [&](const ReportInput& other) {
                                return HostName(other.results.context) == HostName(c);
                              }) > 1;
    std::string heading = host_repeats ? fmt::format("{} (run of {})", HostName(c), c.date_utc) : HostName(c);
    WriteRunSection(run, heading, options, &taken, &charts, out);
  }
  std::vector<ReportFile> files;
  files.push_back(ReportFile{kReportMarkdownName, out.str()});
  for (ReportFile& f : charts) files.push_back(std::move(f));
  return files;
}

}  // namespace dbxb
