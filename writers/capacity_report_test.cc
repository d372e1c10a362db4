// The charts and sections of sweeps and capacity searches: goldens (regenerate with DBXB_UPDATE_GOLDEN=1,
// then render the SVGs to PNG and look at them), well-formed SVG, and the study section's sentences
// checked against its own tables.
#include "writers/capacity_report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <sstream>
#include <string>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/report/xml_check.h"
#include "tests/fixtures/sample_capacity.h"
#include "tests/fixtures/sample_phases.h"
#include "writers/line_chart.h"
#include "writers/report_writer.h"
#include "writers/study_report.h"
#include "writers/svg_chart.h"
#include "writers/sweep_report.h"
#include "writers/time_series_chart.h"

namespace dbxb {
namespace {

using testdata::CheckXml;

void ExpectWellFormed(const std::string& svg) {
  const testdata::XmlCheck x = CheckXml(svg);
  EXPECT_EQ(x.error, "") << svg;
  EXPECT_EQ(x.root, "svg");
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const NamedChart& Named(const std::vector<NamedChart>& charts, const std::string& stem) {
  for (const NamedChart& c : charts)
    if (c.stem == stem) return c;
  ADD_FAILURE() << "no chart " << stem;
  static const NamedChart none;
  return none;
}

// --- Line charts ---

LineChart SampleLineChart() {
  LineChart c;
  c.title = "sample: latency against throughput";
  c.subtitle = "bench-host: p99 at each step";
  c.x = LineChartAxis{"achieved throughput (ops/s)", AxisUnit::kRate, {}, std::nullopt};
  c.y = LineChartAxis{"p99", AxisUnit::kDuration, {}, true};
  c.threshold = 1e6;
  c.threshold_label = "SLA p99<=1ms";
  c.lines = {
      ChartLine{"dbx",
                {{1000, 5e3, "a", false, false}, {100000, 2e5, "b", true, false}, {200000, 5e7, "c", false, true}},
                false},
      ChartLine{"postgres (full)", {{500, 9e4, "", false, false}, {2000, 3e6, "", false, true}}, true}};
  c.notes = {"Hollow points: steps that failed."};
  return c;
}

TEST(LineChartTest, MatchesGoldenAndIsWellFormed) {
  const std::string svg = RenderLineChart(SampleLineChart());
  ExpectWellFormed(svg);
  EXPECT_TRUE(Contains(svg, "Log scale on x: the values span 400×")) << svg;
  EXPECT_TRUE(Contains(svg, "Log scale on y")) << svg;
  EXPECT_TRUE(Contains(svg, "SLA p99&lt;=1ms"));
  EXPECT_TRUE(Contains(svg, "stroke-dasharray=\"6 4\"")) << "the dashed line";
  EXPECT_TRUE(Contains(svg, EngineColor("postgres"))) << "a label's first word picks its colour";
  testdata::ExpectMatchesGolden("report/line_chart_sample.svg", svg);
}

TEST(LineChartTest, EmptyAndNonFiniteInputDrawsNoGarbage) {
  LineChart c;
  c.lines = {ChartLine{"dbx", {{NAN, 1, "", false, false}, {1, INFINITY, "", false, false}}, false}};
  const std::string svg = RenderLineChart(c);
  ExpectWellFormed(svg);
  EXPECT_FALSE(Contains(svg, "nan"));
  EXPECT_FALSE(Contains(svg, "inf\""));
}

// --- Capacity ---

TEST(CapacityReportTest, TablesMatchGolden) {
  std::ostringstream out;
  WriteCapacityTables(testdata::SampleCapacityRuns()[1], out);
  EXPECT_TRUE(Contains(out.str(), "## Capacity at p99<=1ms"));
  testdata::ExpectMatchesGolden("report/capacity_tables_sample.md", out.str());
}

TEST(CapacityReportTest, OneCurvePerGroupWithEveryEngine) {
  const std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  const std::vector<NamedChart> charts = CapacityCharts(runs[0], "bench-host");
  ASSERT_EQ(charts.size(), GroupCapacity(runs[0]).size());
  EXPECT_EQ(charts.size(), 6u) << "per data set, phase and durability: engines' memory methods differ, groups do not";
  const NamedChart& first = charts.front();
  ASSERT_EQ(first.chart.lines.size(), 4u);
  for (const ChartLine& line : first.chart.lines) EXPECT_GE(line.points.size(), 3u) << line.label;
  const std::string svg = RenderLineChart(first.chart);
  ExpectWellFormed(svg);
  testdata::ExpectMatchesGolden("report/capacity_curve_sample.svg", svg);
}

// --- The study's answer ---

std::string StudySection() {
  const std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  std::ostringstream out;
  WriteSqliteOrPostgres({&runs[0], &runs[1]}, out);
  return out.str();
}

TEST(StudyReportTest, MatchesGolden) {
  testdata::ExpectMatchesGolden("report/sqlite_or_postgres_sample.md", StudySection());
}

TEST(StudyReportTest, SaysWhereEachHoldsTheSla) {
  const std::string s = StudySection();
  EXPECT_TRUE(Contains(s, "## SQLite or PostgreSQL?"));
  EXPECT_TRUE(Contains(s, "SQLite holds the SLA at a higher rate than PostgreSQL")) << s;
  EXPECT_TRUE(Contains(s, "PostgreSQL holds it at a higher rate than SQLite")) << s;
  EXPECT_TRUE(Contains(s, "Only PostgreSQL holds p99<=1ms")) << "mixed-oltp at full: SQLite's 1.5 ms service time";
  EXPECT_TRUE(Contains(s, "threads 1 → 2 → 4 → 8")) << "concurrent writers growing";
  EXPECT_TRUE(Contains(s, "data set cached → disk-bound")) << s;
  EXPECT_TRUE(Contains(s, "At threads 4, PostgreSQL overtakes SQLite.")) << s;
  EXPECT_TRUE(Contains(s, "durability normal → full")) << s;
}

// Every "N ops/s" a verdict states appears in the table of its section: no sentence without a row.
TEST(StudyReportTest, EveryFigureOfAVerdictIsInItsTable) {
  std::istringstream in(StudySection());
  std::string line, table;
  const std::regex figure("([0-9][0-9,.]*) ops/s");
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.rfind("### ", 0) == 0) table.clear();
    if (line.rfind("|", 0) == 0) table += line + "\n";
    if (line.rfind("- ", 0) != 0 || table.empty() || Contains(line, "down to")) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), figure), end; it != end; ++it, ++checked)
      EXPECT_TRUE(Contains(table, (*it)[0].str())) << (*it)[0].str() << " in: " << line;
  }
  EXPECT_GT(checked, 20);
}

TEST(StudyReportTest, SaysWhenTheMachineCouldNotResolveTheSla) {
  std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  for (CapacityResult& c : runs[1].capacity) {  // nothing met it, and the harness alone was above the bound
    c.capacity_ops_per_sec = 0;
    c.lower_step = -1;
    c.harness_floor_ns = 3.8e6;
  }
  std::ostringstream out;
  WriteSqliteOrPostgres({&runs[1]}, out);
  EXPECT_TRUE(Contains(out.str(), "Neither SQLite nor PostgreSQL holds p99<=1ms at any rate tried")) << out.str();
  EXPECT_TRUE(Contains(out.str(),
                       "The harness alone measured up to 3.80 ms at the same percentile there, above the "
                       "bound: the machine as it was could not resolve p99<=1ms."))
      << out.str();
  EXPECT_FALSE(Contains(StudySection(), "could not resolve")) << "35 µs is below the bound";
}

// An engine whose search ran no open-loop step has no line on the capacity curve: the chart says so.
TEST(CapacityReportTest, ACurveNamesTheEngineWithNoStep) {
  RunResults r = testdata::SampleCapacityRuns()[0];
  for (CapacityResult& c : r.capacity)
    if (c.engine == "sqlite") c.steps.resize(1), c.lower_step = c.upper_step = -1, c.capacity_ops_per_sec = 0;
  bool said = false;
  for (const NamedChart& c : CapacityCharts(r, "h"))
    for (const std::string& n : c.chart.notes)
      said |= n == "sqlite: no open-loop step ran (its note in the table says why).";
  EXPECT_TRUE(said);
}

// A search that stopped after its probe ran no open-loop step: it says why, not "down to 0.00 ops/s".
TEST(StudyReportTest, ASearchWithOnlyItsProbeSaysWhyNotHowFarDown) {
  std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  for (CapacityResult& c : runs[1].capacity) {
    c.capacity_ops_per_sec = 0;
    c.lower_step = c.upper_step = -1;
    c.steps.resize(1);  // the probe
    c.harness_floor_ns = c.engine == "sqlite" ? 3.8e6 : 0;
  }
  std::ostringstream out;
  WriteSqliteOrPostgres({&runs[1]}, out);
  EXPECT_TRUE(Contains(out.str(),
                       "(SQLite: not searched: the harness floor was above the bound; PostgreSQL: "
                       "not searched: "))
      << out.str();
  EXPECT_TRUE(Contains(out.str(), "ops/s closed loop, below the lowest rate searched")) << out.str();
  EXPECT_FALSE(Contains(out.str(), "down to")) << out.str();
}

// A search whose ramp stopped at its ceiling with every step passed found a lower bound, not the knee.
TEST(StudyReportTest, ACapacityWithNoFailureAboveItIsALowerBound) {
  std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  for (CapacityResult& c : runs[1].capacity)
    if (c.engine == "dbx" || c.engine == "sqlite") c.upper_step = -1;
  std::ostringstream out;
  WriteSqliteOrPostgres({&runs[1]}, out);
  EXPECT_TRUE(Contains(out.str(), "| ≥ ")) << out.str();
  EXPECT_TRUE(Contains(out.str(), "Highest first: dbx ≥ ")) << out.str();
  EXPECT_TRUE(Contains(out.str(), "SQLite holds p99<=1ms at least ")) << out.str();
  EXPECT_FALSE(Contains(StudySection(), "≥")) << "every sample search has a failing step above its capacity";
}

TEST(StudyReportTest, NothingWithoutCapacityRecords) {
  RunResults none;
  std::ostringstream out;
  WriteSqliteOrPostgres({&none}, out);
  EXPECT_EQ(out.str(), "");
}

// --- Sweeps ---

TEST(SweepReportTest, TablesAndScalingChartMatchGolden) {
  const RunResults r = testdata::SampleSweepRun();
  std::ostringstream out;
  WriteSweepTables(r, out);
  EXPECT_TRUE(Contains(out.str(), "| rocksdb | 2,100,000 rec/s | 4,200,000 rec/s | failed |")) << out.str();
  testdata::ExpectMatchesGolden("report/sweep_tables_sample.md", out.str());
  const std::vector<NamedChart> charts = SweepCharts(r, "bench-host");
  ASSERT_EQ(charts.size(), 1u) << "a benchmark has a throughput chart only";
  const std::string svg = RenderLineChart(charts[0].chart);
  ExpectWellFormed(svg);
  EXPECT_TRUE(Contains(svg, "rocksdb failed at threads=4")) << svg;
  testdata::ExpectMatchesGolden("report/sweep_throughput_sample.svg", svg);
}

TEST(SweepReportTest, NothingWithoutASweep) {
  std::ostringstream out;
  WriteSweepTables(testdata::SamplePhaseResults(), out);
  EXPECT_EQ(out.str(), "");
  EXPECT_TRUE(SweepCharts(testdata::SamplePhaseResults(), "h").empty());
}

TEST(SweepReportTest, CapacityAgainstTheSweptValue) {
  const std::vector<NamedChart> charts = SweepCharts(testdata::SampleCapacityRuns()[1], "bench-host");
  const NamedChart& c = Named(charts, "sweep-sqlite-vps / cached / concurrent-writes: capacity at p99<=1ms-throughput");
  ASSERT_EQ(c.chart.lines.size(), 3u);
  EXPECT_EQ(c.chart.x.categories, (std::vector<std::string>{"1", "2", "4", "8"}));
}

// An engine that met the SLA at no rate has no point at 0 (off a log axis): the chart says so instead,
// and a service-time SLA is named as one.
TEST(SweepReportTest, CapacityNoneIsSaidAndServiceTimeNamed) {
  RunResults r = testdata::SampleCapacityRuns()[1];
  for (CapacityResult& c : r.capacity) {
    c.latency = "service";
    if (c.engine == "sqlite" && Contains(c.phase + c.workload, "concurrent-writes")) c.capacity_ops_per_sec = 0;
  }
  const std::vector<NamedChart> charts = SweepCharts(r, "bench-host");
  const NamedChart& c =
      Named(charts, "sweep-sqlite-vps / cached / concurrent-writes: capacity at p99<=1ms (service time)-throughput");
  for (const ChartLine& line : c.chart.lines)
    if (line.label == "sqlite") EXPECT_TRUE(line.points.empty());
  std::string notes;
  for (const std::string& n : c.chart.notes) notes += n + " | ";
  EXPECT_TRUE(Contains(notes, "sqlite: no rate met the SLA at writers=1, writers=2")) << notes;
}

// --- Time series ---

TEST(TimeSeriesChartTest, ThroughputAndP99PerPhase) {
  const RunResults r = testdata::SamplePhaseResults();
  std::vector<NamedChart> charts;
  for (const PhaseGroup& g : GroupPhasesByPhase(r))
    for (NamedChart& c : TimeSeriesCharts(g, "title", "bench-host")) charts.push_back(std::move(c));
  ASSERT_FALSE(charts.empty());
  ASSERT_EQ(charts.size() % 2, 0u);
  for (const NamedChart& c : charts) ExpectWellFormed(RenderLineChart(c.chart));
  testdata::ExpectMatchesGolden("report/series_sample.svg", RenderLineChart(charts[0].chart));
}

// --- The report with all of it ---

TEST(ReportWithCapacityTest, HasTheStudyOnceAndEveryChartItLinks) {
  const std::vector<RunResults> runs = testdata::SampleCapacityRuns();
  const std::vector<ReportFile> files =
      RenderReport({ReportInput{"a.json", runs[0]}, ReportInput{"b.json", runs[1]}}, ReportOptions{});
  const std::string& page = files.front().contents;
  EXPECT_EQ(page.find("## SQLite or PostgreSQL?"), page.rfind("## SQLite or PostgreSQL?"));
  EXPECT_TRUE(Contains(page, "### Capacity at p99<=1ms"));
  for (size_t i = 1; i < files.size(); ++i) {
    EXPECT_TRUE(Contains(page, "(" + files[i].name + ")")) << files[i].name;
    ExpectWellFormed(files[i].contents);
  }
}

}  // namespace
}  // namespace dbxb
