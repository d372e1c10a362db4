// HdrHistogram interoperability, against an implementation we did not write (HdrHistogram's Java
// library, through tests/interop/HdrInterop.java):
//   - the interval logs of `run --hdr-log` and the histograms in results.json, read by Java, give the
//     counts and percentiles dbx-bench reports;
//   - logs Java's HistogramLogWriter wrote, read by `merge`, give the counts and percentiles Java gives;
//   - `merge` of two runs gives the percentiles of one exact sort of all their raw latencies, within
//     HdrHistogram's 0.1 %.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "records/latency_histogram.h"
#include "tests/tool_process.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using test::RunTool;
using test::ToolResult;

// One line of HdrInterop's (and merge's) summaries: tag count min max p50 p90 p99 p99.9.
struct Summary {
  uint64_t count = 0, min = 0, max = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0;
};

std::map<std::string, Summary> ParseSummaries(const std::string& text) {
  std::map<std::string, Summary> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag;
    Summary s;
    if (words >> tag >> s.count >> s.min >> s.max >> s.p50 >> s.p90 >> s.p99 >> s.p999) out[tag] = s;
  }
  return out;
}

bool HaveJava() { return std::string(DBXB_JAVA).size() > 0; }

ToolResult Java(const std::vector<std::string>& args, const fs::path& scratch) {
  std::vector<std::string> argv = {"-cp", DBXB_JAVA_CLASSPATH, "HdrInterop"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunTool(DBXB_JAVA, argv, scratch, 120);
}

ToolResult JavaClass(const std::vector<std::string>& args, const fs::path& scratch) {
  std::vector<std::string> argv = {"-cp", DBXB_JAVA_CLASSPATH};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunTool(DBXB_JAVA, argv, scratch, 120);
}

Json ReadJson(const fs::path& p) { return Json::parse(test::ReadFile(p)); }

// HdrHistogram reports a percentile as the highest value of its bucket and the max as the highest value of
// the max's bucket; dbx-bench caps both at the exact max. So Java's figure is the top of our figure's bucket.
uint64_t Top(double ns) { return LatencyHistogram().HighestEquivalentValue(static_cast<uint64_t>(ns)); }
uint64_t Bottom(double ns) { return LatencyHistogram().LowestEquivalentValue(static_cast<uint64_t>(ns)); }

void ExpectJavaAgrees(const Summary& java, const Json& ours, const std::string& what) {
  EXPECT_EQ(java.count, ours["count"].get<uint64_t>()) << what;
  EXPECT_EQ(java.min, Bottom(ours["min_ns"].get<double>())) << what;
  EXPECT_EQ(java.max, Top(ours["max_ns"].get<double>())) << what;
  EXPECT_EQ(java.p50, Top(ours["p50_ns"].get<double>())) << what;
  EXPECT_EQ(java.p90, Top(ours["p90_ns"].get<double>())) << what;
  EXPECT_EQ(java.p99, Top(ours["p99_ns"].get<double>())) << what;
  EXPECT_EQ(java.p999, Top(ours["p999_ns"].get<double>())) << what;
}

// The runs the tests read, each made once per process when first needed (CTest runs every test case in
// a process of its own): "a" and "b" are the two closed-loop clients to merge, "open" an open-loop run.
class HdrInterop : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("dbxb-hdr-interop-" + std::to_string(getpid())));
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    fs::create_directories(*dir_);
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
  }
  void SetUp() override {
    if (!HaveJava()) GTEST_SKIP() << "no JDK or libhdrhistogram-java at configure time (scripts/install-deps.sh)";
  }
  // Runs `run --suite sqlite-vps` as client `name` unless already done; the files go to dir_/*-name.
  static void Run(const std::string& name) {
    if (fs::exists(*dir_ / ("out-" + name) / "results.json")) return;
    std::vector<std::string> args = {"run",
                                     "--suite",
                                     "sqlite-vps",
                                     "--engines",
                                     "lmdb",
                                     "--records",
                                     "2000",
                                     "--operations",
                                     "2000",
                                     "--workloads",
                                     "select-pk,mixed-oltp",
                                     "--format",
                                     "json",
                                     "--seed",
                                     name == "b" ? "2" : "1",
                                     "--hdr-log",
                                     (*dir_ / ("logs-" + name)).string(),
                                     "--raw-latencies",
                                     (*dir_ / ("raw-" + name + ".csv")).string(),
                                     "--out",
                                     (*dir_ / ("out-" + name)).string()};
    if (name == "open") args.insert(args.end(), {"--target-rate", "20000"});
    ToolResult r = RunTool(DBXB_TOOL, args, *dir_, 300);
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.Describe() << "\n" << r.err;
  }
  static fs::path* dir_;
};
fs::path* HdrInterop::dir_ = nullptr;

TEST_F(HdrInterop, JavaReadsOurIntervalLogsWithOurCountsAndPercentiles) {
  ASSERT_NO_FATAL_FAILURE(Run("a"));
  ASSERT_NO_FATAL_FAILURE(Run("open"));
  int logs = 0;
  for (const std::string& name : {"a", "open"}) {
    const Json results = ReadJson(*dir_ / ("out-" + name) / "results.json");
    for (const Json& phase : results["phases"]) {
      const fs::path log =
          *dir_ / ("logs-" + name) / ("sqlite-vps." + phase["phase"].get<std::string>() + ".lmdb.cached.hlog");
      ToolResult j = Java({"summarize-log", log.string()}, *dir_);
      ASSERT_EQ(j.exit_code, 0) << j.Describe() << j.err;
      std::map<std::string, Summary> tags = ParseSummaries(j.out);
      const std::string where = log.filename().string();
      ASSERT_TRUE(tags.count("-")) << where << ": " << j.out;
      ExpectJavaAgrees(tags["-"], phase["service_time"], where + " all types");
      for (const Json& op : phase["per_op"]) {
        const std::string type = op["name"].get<std::string>();
        if (op["count"].get<uint64_t>() == 0) continue;
        ASSERT_TRUE(tags.count(type)) << where << " has no Tag=" << type << ": " << j.out;
        ExpectJavaAgrees(tags[type], op["service_time"], where + " " + type);
        if (!op["latency_from_intended_start"].is_null())
          ExpectJavaAgrees(tags["intended." + type], op["latency_from_intended_start"], where + " intended " + type);
      }
      if (!phase["latency_from_intended_start"].is_null())
        ExpectJavaAgrees(tags["intended"], phase["latency_from_intended_start"], where + " intended");
      ++logs;
    }
  }
  EXPECT_EQ(logs, 4);
}

TEST_F(HdrInterop, HistogramLogProcessorReadsOurLog) {
  ASSERT_NO_FATAL_FAILURE(Run("a"));
  const fs::path log = *dir_ / "logs-a" / "sqlite-vps.mixed-oltp.lmdb.cached.hlog";
  const fs::path out = *dir_ / "processed";
  ToolResult j = JavaClass(
      {"org.HdrHistogram.HistogramLogProcessor", "-i", log.string(), "-o", out.string(), "-outputValueUnitRatio", "1"},
      *dir_);
  ASSERT_EQ(j.exit_code, 0) << j.Describe() << j.err;
  const std::string hgrm = test::ReadFile(out.string() + ".hgrm");
  EXPECT_NE(hgrm.find("Total count    =         2000]"), std::string::npos) << hgrm.substr(hgrm.size() - 300);
}

TEST_F(HdrInterop, JavaDecodesTheHistogramsInResultsJson) {
  ASSERT_NO_FATAL_FAILURE(Run("open"));
  const Json results = ReadJson(*dir_ / "out-open" / "results.json");
  std::vector<std::string> args = {"summarize-base64"};
  std::vector<const Json*> summaries;
  for (const Json& phase : results["phases"]) {
    summaries.push_back(&phase["service_time"]);
    summaries.push_back(&phase["latency_from_intended_start"]);
    for (const Json& op : phase["per_op"])
      if (op["count"].get<uint64_t>() > 0) summaries.push_back(&op["service_time"]);
  }
  for (const Json* s : summaries) args.push_back((*s)["hdr_histogram"].get<std::string>());
  ToolResult j = Java(args, *dir_);
  ASSERT_EQ(j.exit_code, 0) << j.Describe() << j.err;
  std::istringstream lines(j.out);
  std::string line;
  size_t i = 0;
  for (; std::getline(lines, line) && i < summaries.size(); ++i) {
    std::map<std::string, Summary> one = ParseSummaries(line);
    ASSERT_EQ(one.size(), 1u) << line;
    ExpectJavaAgrees(one.begin()->second, *summaries[i], "histogram " + std::to_string(i));
  }
  EXPECT_EQ(i, summaries.size());
}

TEST_F(HdrInterop, MergeReadsLogsJavaWrote) {
  const fs::path a = *dir_ / "java-a.hlog", b = *dir_ / "java-b.hlog", merged = *dir_ / "java-merged.hlog";
  ASSERT_EQ(Java({"write-log", a.string(), "11"}, *dir_).exit_code, 0);
  ASSERT_EQ(Java({"write-log", b.string(), "12"}, *dir_).exit_code, 0);
  ToolResult both = Java({"summarize-log", a.string(), b.string()}, *dir_);
  ASSERT_EQ(both.exit_code, 0) << both.err;
  ToolResult m = RunTool(DBXB_TOOL, {"merge", a.string(), b.string(), "-o", merged.string()}, *dir_);
  ASSERT_EQ(m.exit_code, 0) << m.Describe() << m.err;
  const auto java = ParseSummaries(both.out), ours = ParseSummaries(m.out);
  ASSERT_EQ(java.size(), 2u) << both.out;
  ASSERT_EQ(ours.size(), 2u) << m.out;
  for (const auto& [tag, s] : java) {
    const Summary& o = ours.at(tag);
    EXPECT_EQ(o.count, s.count) << tag;
    EXPECT_EQ(o.min, s.min) << tag;
    EXPECT_EQ(o.max, s.max) << tag;
    EXPECT_EQ(o.p50, s.p50) << tag;
    EXPECT_EQ(o.p90, s.p90) << tag;
    EXPECT_EQ(o.p99, s.p99) << tag;
    EXPECT_EQ(o.p999, s.p999) << tag;
  }
  // And the merged log we wrote reads back in Java as the two inputs did.
  ToolResult again = Java({"summarize-log", merged.string()}, *dir_);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, both.out);
}

// The exact p-th percentile: the ceil(p/100 * n)-th smallest value.
uint64_t Exact(const std::vector<uint64_t>& sorted, double p) {
  const double rank = std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(sorted.size()) - 1e-9));
  return sorted[static_cast<size_t>(rank) - 1];
}

TEST_F(HdrInterop, MergeOfTwoRunsMatchesAnExactSortOfTheirRawLatencies) {
  ASSERT_NO_FATAL_FAILURE(Run("a"));
  ASSERT_NO_FATAL_FAILURE(Run("b"));
  const fs::path merged = *dir_ / "merged.json";
  ToolResult m = RunTool(
      DBXB_TOOL, {"merge", (*dir_ / "out-a").string(), (*dir_ / "out-b").string(), "-o", merged.string()}, *dir_);
  ASSERT_EQ(m.exit_code, 0) << m.Describe() << m.err;
  std::map<std::string, std::vector<uint64_t>> raw;  // phase -> latencies
  for (const std::string& name : {"a", "b"}) {
    std::ifstream in(*dir_ / ("raw-" + name + ".csv"));
    std::string line;
    std::getline(in, line);  // engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream cells(line);
      for (std::string cell; std::getline(cells, cell, ',');) f.push_back(cell);
      ASSERT_EQ(f.size(), 8u) << line;
      raw[f[2]].push_back(std::stoull(f[6]));
    }
  }
  const Json results = ReadJson(merged);
  ASSERT_EQ(results["context"]["merged_files"].size(), 2u);
  double worst = 0;
  for (const Json& phase : results["phases"]) {
    std::vector<uint64_t>& values = raw[phase["phase"].get<std::string>()];
    std::sort(values.begin(), values.end());
    const Json& s = phase["service_time"];
    ASSERT_EQ(s["count"].get<uint64_t>(), values.size()) << phase["phase"];
    EXPECT_EQ(s["min_ns"].get<double>(), values.front());
    EXPECT_EQ(s["max_ns"].get<double>(), values.back());
    for (const auto& [key, p] : std::vector<std::pair<std::string, double>>{
             {"p50_ns", 50}, {"p90_ns", 90}, {"p99_ns", 99}, {"p999_ns", 99.9}}) {
      const double exact = static_cast<double>(Exact(values, p)), got = s[key].get<double>();
      EXPECT_GE(got, exact) << phase["phase"] << " " << key;
      EXPECT_LE(got - exact, exact / 1000) << phase["phase"] << " " << key << ": within HdrHistogram's 0.1 %";
      worst = std::max(worst, (got - exact) / exact);
    }
  }
  std::cout << "largest relative difference from the exact sort: " << worst * 100 << " %\n";
}

}  // namespace
}  // namespace dbxb
