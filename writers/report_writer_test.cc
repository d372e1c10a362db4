#include "writers/report_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/report/xml_check.h"
#include "tests/fixtures/sample_phases.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

// A second machine: another host and CPU, no RocksDB, slower times.
RunResults ArmRun() {
  RunResults r = testdata::SampleRunResults();
  r.context.host_name = "arm-host";
  r.context.cpu_model = "Neoverse-N1";
  r.context.num_cpus = 8;
  r.context.date_utc = "2026-12-02T08:00:00Z";
  r.context.command_line = "build/dbx-bench run --engines dbx,sqlite,lmdb --seed 42";
  r.context.libraries.pop_back();
  r.benchmarks.erase(std::remove_if(r.benchmarks.begin(), r.benchmarks.end(),
                                    [](const BenchmarkResult& b) { return b.engine == "rocksdb"; }),
                     r.benchmarks.end());
  for (BenchmarkResult& b : r.benchmarks) {
    if (b.error_occurred) {
      b.error_occurred = false;  // lmdb/get works on this machine
      b.error_message.clear();
      b.estimates.mean = Interval{980.5, 970.25, 991.0, 5.1};
      if (b.estimates.slope) b.estimates.slope = b.estimates.mean;
      b.samples = {{3, 2941.5}, {6, 5883.0}};
      continue;
    }
    for (Interval* time : {&b.estimates.mean, b.estimates.slope ? &*b.estimates.slope : nullptr}) {
      if (time == nullptr) continue;
      time->point *= 1.5;
      time->lower *= 1.5;
      time->upper *= 1.5;
    }
  }
  return r;
}

std::vector<ReportInput> TwoHosts() {
  return {{"results/x86/results.json", testdata::SampleRunResults()}, {"results/arm/results.json", ArmRun()}};
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ReportWriterTest, MatchesGoldenFiles) {
  const std::vector<ReportFile> files = RenderReport(TwoHosts(), ReportOptions{});
  std::vector<std::string> names;
  for (const ReportFile& f : files) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "README.md", "bench-host-dbx-micro-insert.svg", "bench-host-dbx-micro-get.svg",
                       "bench-host-dbx-micro-insert-amplification.svg", "bench-host-dbx-micro-get-amplification.svg",
                       "arm-host-dbx-micro-insert.svg", "arm-host-dbx-micro-get.svg",
                       "arm-host-dbx-micro-insert-amplification.svg", "arm-host-dbx-micro-get-amplification.svg"}));
  for (const ReportFile& f : files) testdata::ExpectMatchesGolden("report/" + f.name, f.contents);
}

TEST(ReportWriterTest, EveryChartIsWellFormedLinkedAndNamesItsEngines) {
  const std::vector<ReportFile> files = RenderReport(TwoHosts(), ReportOptions{});
  const std::string& md = files[0].contents;
  for (size_t i = 1; i < files.size(); ++i) {
    const ReportFile& f = files[i];
    const testdata::XmlCheck x = testdata::CheckXml(f.contents);
    ASSERT_EQ(x.error, "") << f.name;
    EXPECT_EQ(x.root, "svg");
    EXPECT_EQ(Count(md, "](" + f.name + ")"), 1u) << f.name << " is linked once";
    const bool arm = f.name.rfind("arm-host", 0) == 0;
    for (const char* engine : {"dbx", "sqlite", "lmdb", "rocksdb"}) {
      const bool expected = !(arm && std::string(engine) == "rocksdb");
      EXPECT_EQ(std::find(x.texts.begin(), x.texts.end(), engine) != x.texts.end(), expected)
          << f.name << " " << engine;
    }
  }
}

TEST(ReportWriterTest, OneSectionPerHostNeverAveraged) {
  const std::string md = RenderReport(TwoHosts(), ReportOptions{})[0].contents;
  const size_t x86 = md.find("\n## bench-host\n"), arm = md.find("\n## arm-host\n");
  ASSERT_NE(x86, std::string::npos);
  ASSERT_NE(arm, std::string::npos);
  ASSERT_LT(x86, arm);
  const std::string x86_section = md.substr(x86, arm - x86), arm_section = md.substr(arm);
  // sqlite/insert: 9.532 ms on one machine, 1.5 times that on the other; each only in its own section.
  EXPECT_NE(x86_section.find("| 9.532 ms 🥉 |"), std::string::npos) << x86_section;
  EXPECT_EQ(arm_section.find("9.532 ms"), std::string::npos);
  EXPECT_NE(arm_section.find("14.30 ms"), std::string::npos);
  // The run that failed lmdb/get on one machine and not on the other.
  EXPECT_NE(x86_section.find("| dbx-micro / get | 1.211 µs 🥇 | 2.797 µs 🥉 | failed | 1.842 µs 🥈 |"),
            std::string::npos);
  EXPECT_NE(arm_section.find("| dbx-micro / get | 1.816 µs 🥈 | 4.196 µs 🥉 | 980.5 ns 🥇 |"),
            std::string::npos);
  // Methodology and reproduction per host, with the exact command line.
  EXPECT_EQ(Count(md, "### Methodology"), 2u);
  EXPECT_NE(
      x86_section.find("```\nbuild/dbx-bench run --suite dbx-micro --engines dbx,sqlite,lmdb,rocksdb --seed 42\n```"),
      std::string::npos);
  EXPECT_NE(arm_section.find("```\nbuild/dbx-bench run --engines dbx,sqlite,lmdb --seed 42\n```"), std::string::npos);
  // Warnings of each run in its own section: RocksDB's assertions only where RocksDB ran.
  EXPECT_NE(x86_section.find("assertions enabled"), std::string::npos);
  EXPECT_EQ(arm_section.find("assertions enabled"), std::string::npos);
}

TEST(ReportWriterTest, RepeatedHostGetsDatedSectionsAndUniqueCharts) {
  RunResults later = testdata::SampleRunResults();
  later.context.date_utc = "2026-12-05T10:00:00Z";
  const std::vector<ReportFile> files =
      RenderReport({{"a.json", testdata::SampleRunResults()}, {"b.json", later}}, ReportOptions{});
  const std::string& md = files[0].contents;
  EXPECT_NE(md.find("\n## bench-host (run of 2026-11-30T15:34:56Z)\n"), std::string::npos);
  EXPECT_NE(md.find("\n## bench-host (run of 2026-12-05T10:00:00Z)\n"), std::string::npos);
  ASSERT_EQ(files.size(), 9u);  // per run: two time charts, two amplification charts
  EXPECT_EQ(files[5].name, "bench-host-dbx-micro-insert-2.svg");
  EXPECT_NE(md.find("](bench-host-dbx-micro-insert-2.svg)"), std::string::npos);
}

TEST(ReportWriterTest, BaselineEngineOption) {
  const std::string md = RenderReport(TwoHosts(), ReportOptions{"lmdb"})[0].contents;
  EXPECT_EQ(Count(md, "| vs lmdb |"), 4u);
  EXPECT_NE(md.find("| lmdb | 3.400 ms |"), std::string::npos);
  EXPECT_NE(md.find("1.00× (baseline)"), std::string::npos);
}

TEST(ReportWriterTest, EmptyRunStillRenders) {
  RunResults empty = testdata::SampleRunResults();
  empty.benchmarks.clear();
  const std::vector<ReportFile> files = RenderReport({{"empty.json", empty}}, ReportOptions{});
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].contents.find("No benchmarks were recorded in this run."), std::string::npos);
}

TEST(ReportWriterTest, PhasesGetTablesSummaryAndLatencyCharts) {
  const std::vector<ReportFile> files =
      RenderReport({{"results/ycsb/results.json", testdata::SamplePhaseResults()}}, ReportOptions{});
  std::vector<std::string> names;
  for (const ReportFile& f : files) names.push_back(f.name);
  // The open-loop lmdb run and the closed-loop sqlite and rocksdb runs measure different things: two charts.
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "README.md", "bench-host-ycsb-workloada-load-latency.svg", "bench-host-ycsb-workloada-run-latency.svg",
                "bench-host-ycsb-workloada-run-latency-2.svg", "bench-host-sqlite-vps-disk-bound-select-pk-latency.svg",
                "bench-host-ycsb-workloada-amplification.svg", "bench-host-sqlite-vps-disk-bound-amplification.svg"}));
  // The charts against goldens; the page by its parts, since most of its phase text (tables, methodology)
  // is WritePhaseTables' and WriteMethodology's, tested with their own goldens.
  for (size_t i = 1; i < files.size(); ++i)
    testdata::ExpectMatchesGolden("report/phases/" + files[i].name, files[i].contents);
  const std::string& md = files[0].contents;
  const size_t summary = md.find("### Summary"), tables = md.find("### ycsb / workloada / sqlite"),
               charts = md.find("### Latency percentiles"), methodology = md.find("### Methodology"),
               reproduce = md.find("### How to reproduce");
  ASSERT_NE(summary, std::string::npos);
  EXPECT_LT(summary, tables);
  EXPECT_LT(tables, charts);
  EXPECT_LT(charts, methodology);
  EXPECT_LT(methodology, reproduce);
  EXPECT_NE(md.find("⚠️ Phase ycsb/workloada/run/rocksdb failed"), std::string::npos) << "phase warnings are shown";
  EXPECT_NE(md.find("| ycsb / workloada / run (closed loop) | 800 ops/s 🥇 | failed | — |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| ycsb / workloada / run (open loop at 1,000 ops/s) | — | — | 1,000 ops/s 🥇 |"),
            std::string::npos);
  EXPECT_EQ(md.find("0 benchmarks"), std::string::npos) << "a run of phases only does not count benchmarks";
  EXPECT_NE(md.find("Run of 2026-11-30T15:34:56Z on bench-host (Intel(R) Xeon(R) CPU @ 2.30GHz, 2 cores): 5 phases (1 "
                    "failed), dbx-bench"),
            std::string::npos);
  for (size_t i = 1; i < files.size(); ++i) {
    const testdata::XmlCheck x = testdata::CheckXml(files[i].contents);
    ASSERT_EQ(x.error, "") << files[i].name;
    EXPECT_NE(md.find("](" + files[i].name + ")"), std::string::npos) << files[i].name;
  }
  const testdata::XmlCheck closed = testdata::CheckXml(files[2].contents), open = testdata::CheckXml(files[3].contents);
  for (const char* engine : {"sqlite", "rocksdb (failed)"})
    EXPECT_NE(std::find(closed.texts.begin(), closed.texts.end(), engine), closed.texts.end()) << engine;
  EXPECT_NE(std::find(open.texts.begin(), open.texts.end(), "lmdb"), open.texts.end());
}

TEST(ReportWriterTest, AMergedFileSaysWhatItMerged) {
  RunResults merged = testdata::SamplePhaseResults();
  merged.context.merged_files = {"client-a/results.json", "client-b/results.json"};
  const std::vector<ReportFile> files = RenderReport({{"merged.json", merged}}, ReportOptions{});
  ASSERT_FALSE(files.empty());
  EXPECT_NE(files[0].contents.find("Merged by `dbx-bench merge` from 2 results files (`client-a/results.json`, "
                                   "`client-b/results.json`): histograms and counts added, percentiles computed from "
                                   "the added histograms. Throughput is the sum of the inputs' rates for the 1 phase "
                                   "they ran at the same time and the operations over the summed durations for the "
                                   "other 4."),
            std::string::npos)
      << files[0].contents.substr(0, 1500);
}

TEST(DemoteHeadingsTest, MovesHeadingsOutsideCodeFences) {
  EXPECT_EQ(DemoteHeadings("## a\ntext # not\n### b\n```\n# comment\n```\n# c\n", 1),
            "### a\ntext # not\n#### b\n```\n# comment\n```\n## c\n");
  EXPECT_EQ(DemoteHeadings("# a", 2), "### a");
}

}  // namespace
}  // namespace dbxb
