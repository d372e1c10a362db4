// Golden files: tests/fixtures/*.md. After an intended change of output, regenerate them with
//   DBXB_UPDATE_GOLDEN=1 build/writers/reporters_test --gtest_filter='Markdown*'
// and review `git diff tests/fixtures/`.
#include "writers/markdown_reporter.h"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <string_view>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_results.h"
#include "writers/markdown_methodology.h"

namespace dbxb {
namespace {

std::string Render(const RunResults& r, const std::string& baseline = "") {
  std::ostringstream out;
  MarkdownReporter reporter(baseline);
  EXPECT_TRUE(reporter.Write(r, out).ok());
  return out.str();
}

std::string Tables(const RunResults& r, const std::string& baseline) {
  std::ostringstream out;
  WriteComparisonTables(r, baseline, out);
  return out.str();
}

// The table row of `engine` in the first table of `text`.
std::string RowOf(const std::string& text, const std::string& engine) {
  size_t pos = text.find("\n| " + engine + " |");
  if (pos == std::string::npos) return "";
  size_t end = text.find('\n', pos + 1);
  return text.substr(pos + 1, end - pos - 1);
}

TEST(MarkdownReporter, MatchesGoldenFile) {
  testdata::ExpectMatchesGolden("sample_results.md", Render(testdata::SampleRunResults()));
}

TEST(MarkdownReporter, MatchesGoldenFileWithOtherBaseline) {
  testdata::ExpectMatchesGolden("sample_results_vs_sqlite.md", Render(testdata::SampleRunResults(), "sqlite"));
}

TEST(MarkdownReporter, DefaultBaselineIsFirstEngine) {
  RunResults r = testdata::SampleRunResults();
  EXPECT_EQ(DefaultBaselineEngine(r), "dbx");
  EXPECT_EQ(DefaultBaselineEngine(RunResults()), "");
  EXPECT_EQ(BaselineEngine(r, ""), "dbx");
  EXPECT_EQ(BaselineEngine(r, "sqlite"), "sqlite");
  std::string text = Render(r);
  EXPECT_NE(text.find("| vs dbx | Rank |"), std::string::npos);
  EXPECT_NE(RowOf(text, "dbx").find("| 1.00× (baseline) |"), std::string::npos) << RowOf(text, "dbx");
}

TEST(MarkdownReporter, RowShowsFormattedEstimates) {
  // insert on dbx: mean 4.1234567 ms, std dev 3.12 % of it, CI ±1.23 %, 10,000 records per iteration.
  std::string row = RowOf(Tables(testdata::SampleRunResults(), "sqlite"), "dbx");
  EXPECT_EQ(row, "| dbx | 4.123 ms | ± 128.7 µs | [4.073 ms, 4.174 ms] | 2,425,150 | 2.31× faster | 2 |");
}

TEST(MarkdownReporter, FailedBenchmarkIsShownAndUnranked) {
  std::string text = Tables(testdata::SampleRunResults(), "dbx");
  size_t get = text.find("## dbx-micro / get");
  ASSERT_NE(get, std::string::npos);
  std::string row = RowOf(text.substr(get), "lmdb");
  EXPECT_EQ(row, "| lmdb | FAILED: wrong value for key_00000042 | | | | | — |");
  // The three others are ranked 1..3.
  EXPECT_NE(RowOf(text.substr(get), "dbx").find("| 1 |"), std::string::npos);
  EXPECT_NE(RowOf(text.substr(get), "rocksdb").find("| 2 |"), std::string::npos);
  EXPECT_NE(RowOf(text.substr(get), "sqlite").find("| 3 |"), std::string::npos);
}

TEST(MarkdownReporter, FailedBaselineGivesNotApplicable) {
  std::string text = Tables(testdata::SampleRunResults(), "lmdb");
  std::string get = text.substr(text.find("## dbx-micro / get"));
  EXPECT_NE(RowOf(get, "dbx").find("| n/a |"), std::string::npos) << RowOf(get, "dbx");
  std::string insert = text.substr(0, text.find("## dbx-micro / get"));
  EXPECT_NE(RowOf(insert, "lmdb").find("1.00× (baseline)"), std::string::npos);
}

TEST(MarkdownReporter, EqualMeansShareARank) {
  RunResults r = testdata::SampleRunResults();
  r.benchmarks[1].estimates.mean.point = r.benchmarks[0].estimates.mean.point;  // sqlite insert == dbx insert
  std::string text = Tables(r, "dbx");
  EXPECT_EQ(RowOf(text, "dbx").substr(RowOf(text, "dbx").rfind("| 2 |")), "| 2 |");
  EXPECT_EQ(RowOf(text, "sqlite").substr(RowOf(text, "sqlite").rfind("| 2 |")), "| 2 |");
  EXPECT_NE(RowOf(text, "rocksdb").find("| 4 |"), std::string::npos);
}

TEST(MarkdownReporter, DifferentParametersGetTheirOwnTable) {
  RunResults r = testdata::SampleRunResults();
  BenchmarkResult big = r.benchmarks[0];
  big.parameters[0].second = "1000000";
  r.benchmarks.push_back(big);
  std::string text = Tables(r, "dbx");
  size_t first = text.find("## dbx-micro / insert");
  size_t second = text.find("## dbx-micro / insert", first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_NE(text.find("Parameters: records=1000000, key_size=12", second), std::string::npos);
}

TEST(MarkdownReporter, ConfidenceHeaderFollowsTheRecordedLevel) {
  RunResults r = testdata::SampleRunResults();
  r.context.sampling.confidence_level = 0.99;
  EXPECT_NE(Tables(r, "dbx").find("| 99 % CI |"), std::string::npos);
}

TEST(MarkdownReporter, PipesInTextAreEscaped) {
  RunResults r = testdata::SampleRunResults();
  r.benchmarks[6].error_message = "bad | value\nsecond line";
  std::string text = Tables(r, "dbx");
  EXPECT_NE(text.find("FAILED: bad \\| value second line |"), std::string::npos);
}

TEST(MarkdownReporter, NoElementsNoReasonAndEmptyRun) {
  RunResults r = testdata::SampleRunResults();
  r.benchmarks[0].elements_per_iteration = 0;
  r.benchmarks[6].error_message.clear();
  std::string text = Tables(r, "dbx");
  EXPECT_NE(RowOf(text, "dbx").find("| — | 1.00× (baseline) |"), std::string::npos) << RowOf(text, "dbx");
  EXPECT_NE(text.find("| lmdb | FAILED: (no reason recorded) |"), std::string::npos);
  std::string empty = Render(RunResults());
  EXPECT_EQ(empty.rfind("# dbx-bench results\n\nRun of  on : 0 benchmarks, dbx-bench .\n\n", 0), 0u) << empty;
  EXPECT_NE(empty.find("## Methodology"), std::string::npos);
  EXPECT_EQ(empty.find("| Engine | Time"), std::string::npos);
}

TEST(FormatSpeedup, FasterSlowerAndInvalid) {
  struct Case {
    double baseline_mean_ns;
    double mean_ns;
    std::string_view text;
  };
  for (const Case& c :
       {Case{2310, 1000, "2.31× faster"}, Case{1000, 1520, "1.52× slower"}, Case{1000, 1000, "1.00× faster"},
        Case{0, 1000, "n/a"}, Case{1000, 0, "n/a"}, Case{1000, std::numeric_limits<double>::quiet_NaN(), "n/a"}})
    EXPECT_EQ(FormatSpeedup(c.baseline_mean_ns, c.mean_ns), c.text) << c.baseline_mean_ns << " vs " << c.mean_ns;
}

TEST(ReadingWarnings, SampleHasAssertionsAndFailure) {
  std::vector<std::string> w = ReadingWarnings(testdata::SampleRunResults());
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(
      w[0],
      "⚠️ rocksdb (RocksDB 7.8.3) was built with assertions enabled (debian-package (assertions enabled)): its "
      "times include the checks and read slower than a release build would.");
  EXPECT_EQ(w[1],
            "⚠️ dbx-micro/get/rocksdb: Measurement took 7.9 s instead of the 5.0 s planned: the estimate of one "
            "iteration was too low.");
  EXPECT_EQ(w[2], "⚠️ 1 benchmark failed and is not ranked: dbx-micro/get/lmdb.");
}

TEST(ReadingWarnings, BuildMachineAndRunState) {
  RunResults r;
  r.context.build_type = "Release";
  EXPECT_TRUE(ReadingWarnings(r).empty());
  r.context.build_type = "Debug";
  r.context.git_dirty = true;
  r.context.cpu_scaling_enabled = true;
  r.context.incomplete = true;
  r.context.num_cpus = 2;
  r.context.load_avg = {1.5, 0.5, 0.2};
  r.context.libraries = {{"sqlite", "SQLite 3.40.1", "local debug build"}};
  BenchmarkResult b;
  b.engine = "sqlite";
  r.benchmarks.push_back(b);
  std::vector<std::string> w = ReadingWarnings(r);
  ASSERT_EQ(w.size(), 6u);
  EXPECT_NE(w[0].find("interrupted"), std::string::npos);
  EXPECT_NE(w[1].find("sqlite (SQLite 3.40.1) is a debug build"), std::string::npos);
  EXPECT_NE(w[2].find("built as \"Debug\""), std::string::npos);
  EXPECT_NE(w[3].find("uncommitted"), std::string::npos);
  EXPECT_NE(w[4].find("frequency scaling"), std::string::npos);
  EXPECT_NE(w[5].find("load average 1.50 on 2 cores"), std::string::npos);
  // A release build's -DNDEBUG is not "debug".
  r.context.libraries = {{"sqlite", "SQLite 3.54.1", "release (-O2 -DNDEBUG, the amalgamation)"}};
  for (const std::string& warning : ReadingWarnings(r))
    EXPECT_EQ(warning.find("debug build"), std::string::npos) << warning;
}

TEST(ReadingWarnings, NameALibraryMoreThanTwoYearsOlderThanTheRun) {
  RunResults r;
  r.context.build_type = "Release";
  r.context.date_utc = "2026-12-07T10:00:00Z";
  r.context.libraries = {{"lmdb", "LMDB 0.9.24", "debian-package", "Debian 12 package liblmdb-dev", "", "2019-07-24"},
                         {"sqlite", "SQLite 3.54.1", "release", "crates.io libsqlite3-sys 0.40.0", "-O2", "2026-10-16"},
                         {"leveldb", "LevelDB 1.23", "debian-package", "", "", "not a date"}};
  for (const char* engine : {"lmdb", "sqlite", "leveldb"}) {
    BenchmarkResult b;
    b.engine = engine;
    r.benchmarks.push_back(b);
  }
  std::vector<std::string> w = ReadingWarnings(r);
  ASSERT_EQ(w.size(), 1u) << "only LMDB is older than two years; an unparsable date warns of nothing";
  EXPECT_NE(w[0].find("lmdb (LMDB 0.9.24, Debian 12 package liblmdb-dev) was released 2019-07-24, 7.4 years before"),
            std::string::npos)
      << w[0];
  r.context.date_utc = "2021-07-23T00:00:00Z";  // one day short of two years: no warning
  r.context.libraries.resize(1);
  EXPECT_TRUE(ReadingWarnings(r).empty());
}

TEST(Methodology, ComesFromTheRecordedConfiguration) {
  RunResults r = testdata::SampleRunResults();
  r.context.sampling.bootstrap_resamples = 250000;
  r.context.command_line = "dbx-bench run --special-flag";
  r.context.harness_overhead_ns_per_op.reset();
  r.benchmarks[1].engine_settings = {{"journal_mode", "delete"}};
  std::ostringstream out;
  WriteMethodology(r, out);
  std::string text = out.str();
  EXPECT_NE(text.find("from 250,000 resamples"), std::string::npos);
  EXPECT_NE(text.find("```\ndbx-bench run --special-flag\n```"), std::string::npos);
  EXPECT_NE(text.find("- Not measured."), std::string::npos);
  EXPECT_NE(text.find("then 10 samples over about 5.0 s"), std::string::npos);
  EXPECT_NE(text.find("dbx-micro/insert: flat; dbx-micro/get: linear."), std::string::npos);
  r.context.sampling.forced_sampling_mode = SamplingMode::kLinear;
  out.str("");
  WriteMethodology(r, out);
  EXPECT_NE(out.str().find("- Sampling mode forced to linear for every benchmark by the configuration."),
            std::string::npos);
  EXPECT_EQ(text.find("### Settling"), std::string::npos);  // not recorded: results of an older version
  r.context.configuration.emplace_back("settle", "on");
  r.benchmarks[5].engine_settings.emplace_back("settle", "PRAGMA wal_checkpoint(TRUNCATE)");
  out.str("");
  WriteMethodology(r, out);
  EXPECT_NE(out.str().find("- sqlite: PRAGMA wal_checkpoint(TRUNCATE); before get 1.250 ms."), std::string::npos)
      << out.str();
  r.context.configuration.back().second = "off";
  out.str("");
  WriteMethodology(r, out);
  EXPECT_NE(out.str().find("- Off (`--no-settle`)"), std::string::npos);
  // sqlite's settings now differ between workloads: both sets are listed with their workload.
  EXPECT_NE(text.find("insert: `journal_mode=delete`; get: `journal_mode=wal, synchronous=1, cache_size=-65536`"),
            std::string::npos);
}

}  // namespace
}  // namespace dbxb
