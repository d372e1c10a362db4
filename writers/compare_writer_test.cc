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
                     double p, Verdict verdict, bool over) {
  MetricComparison r;
  r.key = BenchmarkKey{"dbx-micro", workload, engine, {{"key_size", "12"}, {"records", "10000"}}};
  r.baseline_mean = base;
  r.baseline_median = base * 0.99;
  r.current_mean = cur;
  r.current_median = cur * 0.99;
  r.baseline_count = r.current_count = 100;
  r.mean_change = change;
  r.median_change = Interval{change.point - 0.001, change.lower, change.upper, change.std_error};
  r.t = 3.25;
  r.p_value = p;
  r.p_adjusted = p;
  r.verdict = verdict;
  r.over_threshold = over;
  return r;
}

// A report with every kind of row, built by hand: the writers only format.
ComparisonReport SampleReport() {
  ComparisonReport r;
  r.baseline = RunLabel{"results/baselines/main.json",
                        "ci-runner",
                        "2026-11-30T15:34:56Z",
                        "0123456789abcdef0123456789abcdef01234567",
                        false,
                        "0.1.0 (0123456)"};
  r.current = RunLabel{
      "results/pr/results.json", "ci-runner", "2026-12-01T09:00:00Z", "89abcdef0123456789abcdef0123456789abcdef", true,
      "0.1.0 (89abcde, dirty)"};
  r.rows.push_back(
      Row("get", "sqlite", 1210, 1331, Interval{0.1, 0.0812, 0.1195, 0.0098}, 0.00002, Verdict::kRegressed, true));
  r.rows.push_back(
      Row("get", "lmdb", 403.5, 415.6, Interval{0.03, 0.021, 0.039, 0.0046}, 0.012, Verdict::kRegressed, false));
  r.rows.push_back(
      Row("insert", "sqlite", 35.92e6, 32.33e6, Interval{-0.1, -0.114, -0.087, 0.007}, 0, Verdict::kImproved, false));
  r.rows.push_back(Row("insert", "lmdb", 2.822e6, 2.85e6, Interval{0.0099, 0.004, 0.016, 0.003}, 0.021,
                       Verdict::kWithinNoise, false));
  r.rows.push_back(
      Row("scan", "lmdb", 88.1e3, 88.0e3, Interval{-0.0011, -0.006, 0.004, 0.0025}, 0.6412, Verdict::kNoChange, false));
  MetricComparison failed = Row("scan", "sqlite", 120e3, kNaN, Interval{}, 1, Verdict::kNoChange, false);
  failed.outcome = Outcome::kFailed;
  failed.note = "failed in current: Corruption: wrong value | key_00000042";
  r.rows.push_back(failed);
  MetricComparison only_cur = Row("count", "lmdb", kNaN, 51.2, Interval{}, 1, Verdict::kNoChange, false);
  only_cur.outcome = Outcome::kOnlyInCurrent;
  r.rows.push_back(only_cur);
  MetricComparison only_base = Row("get", "lmdb", 400, kNaN, Interval{}, 1, Verdict::kNoChange, false);
  only_base.key.parameters[1].second = "20000";
  only_base.outcome = Outcome::kOnlyInBaseline;
  r.rows.push_back(only_base);
  MetricComparison phase =
      Row("workloada", "lmdb", 18000, 19980, Interval{0.11, 0.093, 0.128, 0.009}, 0, Verdict::kImproved, false);
  phase.key = BenchmarkKey{"ycsb", "workloada", "lmdb", {{"threads", "4"}}, "run", "cached"};
  phase.metric = "throughput";
  phase.direction = Direction::kHigherIsBetter;
  r.rows.push_back(phase);
  MetricComparison short_phase = phase;
  short_phase.key.engine = "sqlite";
  short_phase.metric = "p99";
  short_phase.direction = Direction::kLowerIsBetter;
  short_phase.outcome = Outcome::kInsufficientData;
  short_phase.note = "fewer than 2 usable seconds in the baseline";
  short_phase.baseline_mean = 150000;
  short_phase.current_mean = 148000;
  r.rows.push_back(short_phase);
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

TEST(CompareWriterTest, FormatPValue) {
  EXPECT_EQ(FormatPValue(0), "< 0.001");
  EXPECT_EQ(FormatPValue(0.0009), "< 0.001");
  EXPECT_EQ(FormatPValue(0.0123), "0.012");
  EXPECT_EQ(FormatPValue(1), "1.000");
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
  EXPECT_EQ(md.rfind("### dbx-bench compare: ❌ 1 regression over 5.00%\n", 0), 0u) << md;
  EXPECT_NE(md.find("| ❌ regressed |"), std::string::npos);
  EXPECT_NE(md.find("| ⚠️ regressed |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ improved |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ change within noise threshold |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ no change |"), std::string::npos);
  EXPECT_NE(md.find("| ⚠️ failed |"), std::string::npos);
  EXPECT_NE(
      md.find("| ycsb/workloada/cached/run/lmdb (throughput) | 18.000 Kop/s | 19.980 Kop/s | +11.00% [+9.30%, +12.80%] "
              "| < 0.001 | ✅ improved |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("| ⚠️ insufficient data |"), std::string::npos);
  EXPECT_NE(md.find("wrong value \\| key"), std::string::npos) << "cells are escaped";
  ComparisonReport passing = SampleReport();
  passing.rows[0].over_threshold = false;
  std::ostringstream ok;
  ASSERT_TRUE(WriteCompareMarkdown(passing, ok).ok());
  EXPECT_EQ(ok.str().rfind("### dbx-bench compare: ✅ no regression over 5.00%\n", 0), 0u);
}

TEST(CompareWriterTest, JsonFields) {
  const nlohmann::ordered_json j = CompareToJson(SampleReport());
  EXPECT_EQ(j["format"], "dbx-bench-compare");
  EXPECT_EQ(j["version"], kCompareJsonVersion);
  EXPECT_EQ(j["gate"]["failed"], true);
  EXPECT_EQ(j["gate"]["regressions_over_threshold"], 1);
  ASSERT_EQ(j["benchmarks"].size(), 10u);
  EXPECT_EQ(j["benchmarks"][0]["verdict"], "regressed");
  EXPECT_EQ(j["benchmarks"][0]["change"]["mean"]["lower"], 0.0812);
  EXPECT_EQ(j["benchmarks"][0]["parameters"]["records"], "10000");
  EXPECT_EQ(j["benchmarks"][5]["outcome"], "failed");
  EXPECT_TRUE(j["benchmarks"][5]["current"]["mean"].is_null());
  EXPECT_TRUE(j["benchmarks"][5]["change"].is_null());
  EXPECT_TRUE(j["benchmarks"][5]["verdict"].is_null());
  EXPECT_EQ(j["benchmarks"][7]["outcome"], "only in baseline");
  EXPECT_EQ(j["benchmarks"][8]["phase"], "run");
  EXPECT_EQ(j["benchmarks"][8]["metric"], "throughput");
  EXPECT_EQ(j["benchmarks"][8]["unit"], "ops/s");
  EXPECT_EQ(j["benchmarks"][8]["direction"], "higher_is_better");
  EXPECT_EQ(j["benchmarks"][9]["outcome"], "insufficient data");
}

TEST(CompareWriterTest, StreamFailureIsReported) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  EXPECT_TRUE(WriteCompareConsole(SampleReport(), out).IsIOError());
  EXPECT_TRUE(WriteCompareMarkdown(SampleReport(), out).IsIOError());
}

}  // namespace
}  // namespace dbxb
