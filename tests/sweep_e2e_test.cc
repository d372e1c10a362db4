// End-to-end: a sweep and a capacity search through the built tool — the files a user gets, the records'
// sweep parameters, progress on stderr (and none with --quiet), and compare and report reading them.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class SweepEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-sweep-e2e"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the tool with `args` (words separated by spaces); keeps its stdout and stderr.
  int Run(const std::string& args) {
    last_ = RunTool(DBXB_TOOL, SplitWords(args), dir_, 300);
    return last_.exit_code;
  }
  const std::string& Out() const { return last_.out; }
  const std::string& Err() const { return last_.err; }

  fs::path dir_;
  ToolResult last_;
};

TEST_F(SweepEndToEnd, ThreadsSweepOfGetIsOneFileWithAPointPerValue) {
  const fs::path out = dir_ / "sweep";
  ASSERT_EQ(Run("run --engines null,lmdb --workloads get --threads 1,2 --records 500 --warmup 5ms --measurement 20ms "
                "--samples 10 --resamples 1000 --no-overhead --data-dir " +
                (dir_ / "data").string() + " --out " + out.string()),
            0)
      << Err();
  const nlohmann::json doc = nlohmann::json::parse(ReadFile(out / "results.json"));
  ASSERT_TRUE(doc.contains("sweep"));
  EXPECT_EQ(doc["sweep"]["dimensions"][0]["name"], "threads");
  EXPECT_EQ(doc["sweep"]["dimensions"][0]["values"], nlohmann::json::array({"1", "2"}));
  ASSERT_EQ(doc["sweep"]["points"].size(), 2u);
  for (const auto& p : doc["sweep"]["points"]) EXPECT_EQ(p["status"], "ok") << p.dump();
  ASSERT_EQ(doc["benchmarks"].size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    const auto& b = doc["benchmarks"][i];
    EXPECT_FALSE(b["error_occurred"].get<bool>()) << b["error_message"];
    EXPECT_EQ(b["parameters"]["sweep.threads"], i < 2 ? "1" : "2");
    if (i >= 2) EXPECT_EQ(b["parameters"]["threads"], "2") << "the point ran on two threads";
  }
  EXPECT_EQ(doc["context"]["configuration"]["sweep"], "threads=1,2");
  // One progress line per point on stderr (started, then finished with its figures).
  EXPECT_TRUE(Contains(Err(), "sweep point 1 of 2 (threads=1): running")) << Err();
  EXPECT_TRUE(Contains(Err(), "sweep point 2 of 2 (threads=2): ok in")) << Err();
  EXPECT_TRUE(Contains(ReadFile(out / "results.md"), "## Sweep: threads = 1, 2"));

  // compare matches the points by their values; report draws the scaling chart.
  EXPECT_EQ(Run("compare " + out.string() + " " + out.string()), 0) << Err();
  EXPECT_TRUE(Contains(Out(), "sweep.threads=2")) << Out();
  ASSERT_EQ(Run("report " + out.string() + " -o " + (dir_ / "report").string()), 0) << Err();
  bool scaling_chart = false;
  for (const auto& f : fs::directory_iterator(dir_ / "report"))
    scaling_chart |= Contains(f.path().filename().string(), "sweep-dbx-micro-get-throughput");
  EXPECT_TRUE(scaling_chart);
}

TEST_F(SweepEndToEnd, QuietSweepPrintsNoProgress) {
  ASSERT_EQ(Run("run --engines null --workloads get --threads 1,2 --records 100 --warmup 1ms --measurement 5ms "
                "--samples 10 --resamples 1000 --no-overhead --quiet --data-dir " +
                (dir_ / "data").string() + " --out " + (dir_ / "q").string()),
            0)
      << Err();
  EXPECT_EQ(Err(), "");
}

TEST_F(SweepEndToEnd, CapacitySearchRecordsItsStepsAndBounds) {
  const fs::path out = dir_ / "capacity";
  ASSERT_EQ(Run("run --suite sqlite-vps --engines sqlite --records 2000 --workloads select-pk --quick --sla p50<=1s "
                "--sla-step 300ms --data-dir " +
                (dir_ / "data").string() + " --out " + out.string()),
            0)
      << Err();
  const nlohmann::json doc = nlohmann::json::parse(ReadFile(out / "results.json"));
  ASSERT_EQ(doc["capacity"].size(), 1u);
  const auto& c = doc["capacity"][0];
  EXPECT_EQ(c["phase"], "select-pk");
  EXPECT_EQ(c["sla"], "p50<=1s");
  EXPECT_FALSE(c["error_occurred"].get<bool>()) << c["error_message"];
  const auto& steps = c["steps"];
  ASSERT_GE(steps.size(), 3u);
  EXPECT_EQ(steps[0]["role"], "probe");
  EXPECT_EQ(steps[0]["target_rate"], 0);
  // A loose SLA: only keeping up bounds it, so it passed some rate and failed a higher one (steps of 300 ms:
  // at 100 ms a stall of the loaded machine at a step's end could cost it 5 % of its operations).
  const int lower = c["lower_step"], upper = c["upper_step"];
  ASSERT_GE(lower, 1);
  ASSERT_GE(upper, 1);
  EXPECT_EQ(c["capacity_ops_per_sec"], steps[lower]["target_rate"]);
  EXPECT_LT(steps[lower]["target_rate"].get<double>(), steps[upper]["target_rate"].get<double>());
  EXPECT_TRUE(steps[lower]["met_sla"].get<bool>() && steps[lower]["kept_up"].get<bool>());
  EXPECT_TRUE(doc["phases"].empty()) << "the searched phase is not also measured once";
  // A line per step on stderr, the summary on stdout, the tables in results.md.
  EXPECT_TRUE(Contains(Err(), "capacity sqlite-vps/cached/select-pk/sqlite probe (closed loop)")) << Err();
  EXPECT_TRUE(Contains(Err(), "step 1 (ramp): target")) << Err();
  EXPECT_TRUE(Contains(Out(), "sqlite-vps/cached/select-pk/sqlite: capacity at p50<=1s")) << Out();
  EXPECT_TRUE(Contains(ReadFile(out / "results.md"), "## Capacity at p50<=1s"));
  EXPECT_TRUE(Contains(ReadFile(out / "results.md"), "## SQLite or PostgreSQL?"));
}

}  // namespace
}  // namespace dbxb::test
