#include "writers/compare_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "tests/fixtures/golden.h"

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

MetricComparison Row(const std::string& workload, const std::string& engine, double base, double cur, Interval change,
                     Verdict verdict, const char* metric = "time") {
  MetricComparison r;
  r.key = BenchmarkKey{"dbx-micro", workload, engine, {{"key_size", "12"}, {"records", "10000"}}};
  r.metric = FindMetric(metric);
  r.baseline = {base, 6};
  r.current = {cur, 6};
  r.change = change;
  r.level = 0.99;
  r.verdict = verdict;
  r.detectable = 0.05 + (change.point - change.lower);
  r.ratios = {1 + change.point, 1 + change.lower, 1 + change.upper};
  return r;
}

// A report with every kind of row, built by hand: the writers only format.
ComparisonReport SampleReport() {
  ComparisonReport r;
  r.method = CompareMethod::kPairedRounds;
  r.baseline_runs = r.current_runs = 6;
  r.baseline = RunLabel{"results/ab/round-01/baseline … results/ab/round-06/baseline (6 rounds)",
                        "ci-runner",
                        "2026-11-30T15:34:56Z",
                        "0123456789abcdef0123456789abcdef01234567",
                        false,
                        "0.1.0 (0123456)"};
  r.current = RunLabel{"results/ab/round-01/current … results/ab/round-06/current (6 rounds)",
                       "ci-runner",
                       "2026-12-01T09:00:00Z",
                       "89abcdef0123456789abcdef0123456789abcdef",
                       true,
                       "0.1.0 (89abcde, dirty)"};
  r.rows.push_back(Row("get", "sqlite", 1210, 1331, Interval{0.1, 0.0812, 0.1195, 0.0098}, Verdict::kRegressed));
  r.rows.push_back(
      Row("get", "sqlite", 1215, 1340, Interval{0.102, 0.08, 0.12, 0.01}, Verdict::kRegressed, "time_mean"));
  r.rows.push_back(Row("get", "lmdb", 403.5, 415.6, Interval{0.03, 0.021, 0.039, 0.0046}, Verdict::kNoRegression));
  r.rows.push_back(
      Row("get", "lmdb", 410, 480, Interval{0.17, 0.07, 0.28, 0.04}, Verdict::kRegressed, "time_mean"));  // a tail
  r.rows.push_back(Row("get", "lmdb", 190, 194, Interval{0.02, -0.01, 0.06, 0.01}, Verdict::kInconclusive, "cpu"));
  r.rows.push_back(
      Row("insert", "sqlite", 35.92e6, 32.33e6, Interval{-0.1, -0.114, -0.087, 0.007}, Verdict::kImproved));
  MetricComparison failed = Row("scan", "sqlite", kNaN, kNaN, Interval{}, Verdict::kInconclusive);
  failed.outcome = Outcome::kFailed;
  failed.note = "failed in current round 3: Corruption: wrong value | key_00000042";
  r.rows.push_back(failed);
  MetricComparison only_cur = Row("count", "lmdb", kNaN, 51.2, Interval{}, Verdict::kInconclusive);
  only_cur.outcome = Outcome::kOnlyInCurrent;
  r.rows.push_back(only_cur);
  MetricComparison only_base = Row("get", "lmdb", 400, kNaN, Interval{}, Verdict::kInconclusive);
  only_base.key.parameters[1].second = "20000";
  only_base.outcome = Outcome::kOnlyInBaseline;
  r.rows.push_back(only_base);
  MetricComparison phase =
      Row("workloada", "lmdb", 18000, 14400, Interval{-0.2, -0.23, -0.17, 0.009}, Verdict::kRegressed, "throughput");
  phase.key = BenchmarkKey{"ycsb", "workloada", "lmdb", {{"threads", "4"}}, "run", "cached"};
  r.rows.push_back(phase);
  MetricComparison p99 =
      Row("workloada", "lmdb", 150000, 152000, Interval{0.013, -0.2, 0.27, 0.1}, Verdict::kInconclusive, "p99");
  p99.key = phase.key;
  r.rows.push_back(p99);
  MetricComparison fsyncs =
      Row("insert", "sqlite", 1, 2, Interval{1, 1, 1, 0}, Verdict::kRegressed, "fsyncs_per_commit");
  fsyncs.level = 0.995;
  r.rows.push_back(fsyncs);
  MetricComparison disk =
      Row("insert", "sqlite", 4096, 4096, Interval{0, 0, 0, 0}, Verdict::kNoRegression, "disk_bytes");
  disk.level = 0.995;
  r.rows.push_back(disk);  // unchanged: hidden in the tables
  r.warnings.push_back("⚠️ The current run was interrupted: it holds only the benchmarks that finished.");
  return r;
}

TEST(CompareWriterTest, FormatChange) {
  EXPECT_EQ(FormatChange(0.1003), "+10.03%");
  EXPECT_EQ(FormatChange(-0.015), "-1.50%");
  EXPECT_EQ(FormatChange(0), "+0.00%");
  EXPECT_EQ(FormatChange(-0.00001), "+0.00%");
  EXPECT_EQ(FormatChange(kNaN), "NaN");
  EXPECT_EQ(FormatChangeInterval(Interval{0.1, 0.08, 0.12, 0}), "+10.00% [+8.00%, +12.00%]");
}

TEST(CompareWriterTest, FormatMetricValue) {
  EXPECT_EQ(FormatMetricValue(*FindMetric("time"), 1210), "1.210 µs");
  EXPECT_EQ(FormatMetricValue(*FindMetric("throughput"), 18000), "18.000 Kop/s");
  EXPECT_EQ(FormatMetricValue(*FindMetric("fsyncs_per_commit"), 2), "2.00");
  EXPECT_EQ(FormatMetricValue(*FindMetric("disk_bytes"), 16384), "16.0 KiB");
  EXPECT_EQ(FormatMetricValue(*FindMetric("instructions"), 1234567), "1,234,567");
  EXPECT_EQ(FormatMetricValue(*FindMetric("time"), kNaN), "—");
  EXPECT_EQ(FormatChange(INFINITY), "+inf%");
}

TEST(CompareWriterTest, TailRowsShownWhereTheyDiffer) {
  const ComparisonReport report = SampleReport();
  EXPECT_FALSE(ShownInTables(report, report.rows[1]));   // sqlite's mean tells what its typical time tells
  EXPECT_TRUE(ShownInTables(report, report.rows[3]));    // lmdb's mean regressed, its typical time did not
  EXPECT_TRUE(ShownInTables(report, report.rows[4]));    // CPU: always beside the time
  EXPECT_TRUE(ShownInTables(report, report.rows[11]));   // a counter that changed
  EXPECT_FALSE(ShownInTables(report, report.rows[12]));  // one that did not
}

TEST(CompareWriterTest, ConsoleMatchesGolden) {
  std::ostringstream out;
  ASSERT_TRUE(WriteCompareConsole(SampleReport(), out).ok());
  testdata::ExpectMatchesGolden("compare/sample_console.txt", out.str());
}

TEST(CompareWriterTest, MarkdownMatchesGolden) {
  std::ostringstream out;
  ASSERT_TRUE(WriteCompareMarkdown(SampleReport(), out).ok());
  testdata::ExpectMatchesGolden("compare/sample.md", out.str());
}

TEST(CompareWriterTest, JsonMatchesGolden) {
  testdata::ExpectMatchesGolden("compare/sample_compare.json", SerializeComparison(SampleReport()));
}

TEST(CompareWriterTest, MarkdownMarksEachVerdict) {
  std::ostringstream out;
  ASSERT_TRUE(WriteCompareMarkdown(SampleReport(), out).ok());
  const std::string md = out.str();
  EXPECT_EQ(md.rfind("### dbx-bench compare: ❌ 5 regressions over 5.00%, 2 inconclusive\n", 0), 0u) << md;
  EXPECT_NE(md.find("| ❌ regressed |"), std::string::npos);
  EXPECT_NE(md.find("| ⚠️ inconclusive |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ no regression |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ improved |"), std::string::npos);
  EXPECT_NE(md.find("| ⚠️ failed |"), std::string::npos);
  EXPECT_NE(md.find("| ycsb/workloada/cached/run/lmdb (throughput) | 18.000 Kop/s | 14.400 Kop/s | "
                    "-20.00% [-23.00%, -17.00%] | ❌ regressed |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("wrong value \\| key"), std::string::npos) << "cells are escaped";
  ComparisonReport passing = SampleReport();
  for (MetricComparison& row : passing.rows)
    if (row.verdict == Verdict::kRegressed) row.verdict = Verdict::kNoRegression;
  std::ostringstream ok;
  ASSERT_TRUE(WriteCompareMarkdown(passing, ok).ok());
  EXPECT_EQ(ok.str().rfind("### dbx-bench compare: ✅ no regression over 5.00%, 2 inconclusive\n", 0), 0u) << ok.str();
  passing.options.fail_on_inconclusive = true;
  std::ostringstream strict;
  ASSERT_TRUE(WriteCompareMarkdown(passing, strict).ok());
  EXPECT_EQ(strict.str().rfind("### dbx-bench compare: ❌", 0), 0u);
  EXPECT_NE(strict.str().find("| ❌ inconclusive |"), std::string::npos);
}

TEST(CompareWriterTest, JsonFields) {
  const nlohmann::ordered_json j = CompareToJson(SampleReport());
  EXPECT_EQ(j["format"], "dbx-bench-compare");
  EXPECT_EQ(j["version"], kCompareJsonVersion);
  EXPECT_EQ(j["method"], "paired rounds");
  EXPECT_EQ(j["gate"]["failed"], true);
  EXPECT_EQ(j["gate"]["regressed"], 5);
  EXPECT_EQ(j["gate"]["inconclusive"], 2);
  EXPECT_EQ(j["gate"]["families"]["timing"]["rows"], 8);
  EXPECT_EQ(j["gate"]["families"]["counters"]["level"], 0.995);
  ASSERT_EQ(j["benchmarks"].size(), 13u);
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "regressed");
  EXPECT_EQ(j["benchmarks"][0]["change"]["lower"], 0.0812);
  EXPECT_EQ(j["benchmarks"][0]["level"], 0.99);
  EXPECT_EQ(j["benchmarks"][0]["parameters"]["records"], "10000");
  EXPECT_EQ(j["benchmarks"][0]["ratios"].size(), 3u);
  EXPECT_EQ(j["benchmarks"][1]["shown"], false);
  EXPECT_EQ(j["benchmarks"][6]["outcome"], "failed");
  EXPECT_TRUE(j["benchmarks"][6]["current"]["value"].is_null());
  EXPECT_TRUE(j["benchmarks"][6]["change"].is_null());
  EXPECT_TRUE(j["benchmarks"][6]["verdict"].is_null());
  EXPECT_EQ(j["benchmarks"][8]["outcome"], "only in baseline");
  EXPECT_EQ(j["benchmarks"][9]["phase"], "run");
  EXPECT_EQ(j["benchmarks"][9]["metric"], "throughput");
  EXPECT_EQ(j["benchmarks"][9]["unit"], "ops/s");
  EXPECT_EQ(j["benchmarks"][9]["direction"], "higher_is_better");
  EXPECT_EQ(j["benchmarks"][11]["family"], "counters");
  EXPECT_TRUE(j["options"]["noise_floor"].is_null());  // unknown by default
}

TEST(CompareWriterTest, StreamFailureIsReported) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_TRUE(WriteCompareConsole(SampleReport(), out).IsIOError());
  EXPECT_TRUE(WriteCompareMarkdown(SampleReport(), out).IsIOError());
}

}  // namespace
}  // namespace dbxb
