#include "writers/console_reporter.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_results.h"
#include "writers/markdown_reporter.h"

namespace dbxb {
namespace {

std::string Report(const BenchmarkResult& b) {
  std::ostringstream out;
  ConsoleReporter reporter;
  reporter.ReportBenchmark(b, out);
  return out.str();
}

TEST(ConsoleReporter, LinearSamplingShowsTheSlope) {
  // get on sqlite: slope 2797.457 ns ± 0.98 %, one record per iteration, 4 outliers in 10 samples.
  EXPECT_EQ(Report(testdata::SampleRunResults().benchmarks[5]),
            "dbx-micro/get/sqlite\n"
            "                        time:   [2.7700 µs 2.7975 µs 2.8249 µs]\n"
            "                        thrpt:  [354.00 Kelem/s 357.47 Kelem/s 361.01 Kelem/s]\n"
            "Found 4 outliers among 10 measurements (40.00%)\n"
            "  1 (10.00%) low mild\n"
            "  2 (20.00%) high mild\n"
            "  1 (10.00%) high severe\n");
}

TEST(ConsoleReporter, FlatSamplingShowsTheMean) {
  BenchmarkResult b = testdata::SampleRunResults().benchmarks[0];  // insert on dbx, 10,000 records
  b.outliers = OutlierCounts{};
  EXPECT_EQ(Report(b),
            "dbx-micro/insert/dbx\n"
            "                        time:   [4.0727 ms 4.1235 ms 4.1742 ms]\n"
            "                        thrpt:  [2.3957 Melem/s 2.4251 Melem/s 2.4554 Melem/s]\n");
}

TEST(ConsoleReporter, NoThroughputWithoutElementsAndOneOutlier) {
  BenchmarkResult b = testdata::SampleRunResults().benchmarks[0];
  b.elements_per_iteration = 0;
  b.outliers = OutlierCounts{0, 0, 0, 1};
  EXPECT_EQ(Report(b),
            "dbx-micro/insert/dbx\n"
            "                        time:   [4.0727 ms 4.1235 ms 4.1742 ms]\n"
            "Found 1 outlier among 10 measurements (10.00%)\n"
            "  1 (10.00%) high severe\n");
}

TEST(ConsoleReporter, FailureIsOneLine) {
  EXPECT_EQ(Report(testdata::SampleRunResults().benchmarks[6]),
            "dbx-micro/get/lmdb: FAILED: wrong value for key_00000042\n");
}

TEST(ConsoleReporter, SamplingNotesFollowTheSummary) {
  std::string text = Report(testdata::SampleRunResults().benchmarks[7]);
  EXPECT_NE(text.find("\nNote: Measurement took 7.9 s instead of the 5.0 s planned"), std::string::npos) << text;
}

TEST(ConsoleReporter, SummaryReusesTheMarkdownTables) {
  RunResults r = testdata::SampleRunResults();
  std::ostringstream console, tables;
  ConsoleReporter("sqlite").ReportSummary(r, console);
  WriteComparisonTables(r, "sqlite", tables);
  ASSERT_EQ(console.str().rfind(tables.str(), 0), 0u);
  EXPECT_NE(console.str().find("⚠️ rocksdb (RocksDB 7.8.3) was built with assertions enabled"), std::string::npos);
}

// Golden file: tests/fixtures/sample_results_console.txt; regenerate with
//   DBXB_UPDATE_GOLDEN=1 build/writers/reporters_test --gtest_filter='Console*'
TEST(ConsoleReporter, MatchesGoldenFile) {
  std::ostringstream out;
  ASSERT_TRUE(ConsoleReporter().Write(testdata::SampleRunResults(), out).ok());
  testdata::ExpectMatchesGolden("sample_results_console.txt", out.str());
}

TEST(ConsoleReporter, WriteReportsEveryBenchmarkThenTheSummary) {
  RunResults r = testdata::SampleRunResults();
  std::ostringstream out;
  ASSERT_TRUE(ConsoleReporter().Write(r, out).ok());
  std::string text = out.str();
  size_t last = 0;
  for (const BenchmarkResult& b : r.benchmarks) {
    size_t pos = text.find(BenchmarkName(b), last);
    ASSERT_NE(pos, std::string::npos) << BenchmarkName(b);
    last = pos;
  }
  EXPECT_LT(last, text.find("## dbx-micro / insert"));
}

TEST(ConsoleReporter, EmptyRunWritesNothingButWarnings) {
  RunResults r;
  r.context.build_type = "Release";
  std::ostringstream out;
  ASSERT_TRUE(ConsoleReporter().Write(r, out).ok());
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, TerminalRewritesOneLine) {
  std::ostringstream out;
  ProgressLine line(out, /*is_tty=*/true);
  line.WarmingUp("dbx-micro/get/sqlite", 3);
  line.Collecting("dbx-micro/get/sqlite", 0, 100);
  line.Collecting("dbx-micro/get/sqlite", 42, 100);
  line.Analyzing("dbx-micro/get/sqlite");
  line.Clear();
  line.Clear();  // nothing more to erase
  EXPECT_EQ(out.str(),
            "\r\x1b[2Kdbx-micro/get/sqlite: Warming up for 3.0000 s"
            "\r\x1b[2Kdbx-micro/get/sqlite: Collecting 100 samples ... 0/100"
            "\r\x1b[2Kdbx-micro/get/sqlite: Collecting 100 samples ... 42/100"
            "\r\x1b[2Kdbx-micro/get/sqlite: Analyzing"
            "\r\x1b[2K");
}

TEST(ProgressLine, PlainStreamPrintsPhaseChangesOnly) {
  std::ostringstream out;
  ProgressLine line(out, /*is_tty=*/false);
  line.WarmingUp("dbx-micro/get/sqlite", 3);
  for (uint64_t i = 0; i <= 100; ++i) line.Collecting("dbx-micro/get/sqlite", i, 100);
  line.Analyzing("dbx-micro/get/sqlite");
  line.Clear();
  line.WarmingUp("dbx-micro/get/rocksdb", 0.5);
  line.Collecting("dbx-micro/get/rocksdb", 1, 10);
  line.Collecting("dbx-micro/get/rocksdb", 2, 10);
  EXPECT_EQ(out.str(),
            "dbx-micro/get/sqlite: Warming up for 3.0000 s\n"
            "dbx-micro/get/sqlite: Collecting 100 samples\n"
            "dbx-micro/get/sqlite: Analyzing\n"
            "dbx-micro/get/rocksdb: Warming up for 0.5000 s\n"
            "dbx-micro/get/rocksdb: Collecting 10 samples\n");
}

}  // namespace
}  // namespace dbxb
