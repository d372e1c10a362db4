// End-to-end tests of `dbx-bench run --save-baseline`, `compare` and `report` through the built binary:
// exit codes, the one line on stderr, and the files written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

class CompareCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-compare-cli"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the tool with `words` (see SplitWords) in dir_, capturing stdout and stderr.
  ToolResult Run(const std::string& words) { return RunTool(DBXB_TOOL, SplitWords(words), dir_, 60, dir_); }

  fs::path dir_;
  const std::string base_ = std::string(DBXB_TESTDATA) + "/compare/baseline.json";
  const std::string cur_ = std::string(DBXB_TESTDATA) + "/compare/current.json";
};

TEST_F(CompareCliTest, SaveBaselineThenCompareByName) {
  const std::string quick =
      "--engines null --workloads get --samples 10 --warmup 0.1s --measurement 0.2s --no-overhead";
  ToolResult run = Run("run " + quick + " --out results/main --save-baseline main");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Saved baseline 'main' as results/baselines/main.json"), std::string::npos) << run.out;
  EXPECT_EQ(ReadFile(dir_ / "results/baselines/main.json"), ReadFile(dir_ / "results/main/results.json"));

  // The run compared with itself through its name: nothing changed.
  ToolResult same = Run("compare --baseline main results/main --resamples 1000");
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("no change"), std::string::npos) << same.out;
  EXPECT_EQ(same.err, "");

  // A bad name is refused before anything runs.
  ToolResult bad = Run("run " + quick + " --out results/x --save-baseline ../evil");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(CountLines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("--save-baseline: '../evil' is not a usable baseline name"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "results/x"));
  ToolResult missing = Run("compare --baseline nope results/main");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no baseline named 'nope'"), std::string::npos) << missing.err;
}

TEST_F(CompareCliTest, GateExitCodesAndOutputs) {
  ToolResult fail =
      Run("compare " + base_ + " " + cur_ + " --resamples 1000 --noise-floor 5% --markdown pr.md --json pr.json");
  EXPECT_EQ(fail.exit_code, 1);
  EXPECT_EQ(fail.err, "dbx-bench: 1 benchmark regressed by more than 5.00%\n");
  EXPECT_NE(fail.out.find("FAIL: 3 compared"), std::string::npos) << fail.out;
  EXPECT_NE(ReadFile(dir_ / "pr.md").find("❌ regressed"), std::string::npos);
  EXPECT_NE(ReadFile(dir_ / "pr.json").find("\"failed\": true"), std::string::npos);

  ToolResult pass = Run("compare " + base_ + " " + cur_ + " --resamples 1000 --max-regression 20%");
  EXPECT_EQ(pass.exit_code, 0) << pass.err;
  // The default 10 % noise floor of one run per side: the +10 % row is unconfirmed, not a failure.
  ToolResult floor = Run("compare " + base_ + " " + cur_ + " --resamples 1000");
  EXPECT_EQ(floor.exit_code, 0) << floor.err;
  EXPECT_NE(floor.out.find("unconfirmed"), std::string::npos) << floor.out;
  // Several runs per side, split by --.
  ToolResult runs = Run("compare --resamples 1000 " + base_ + " " + base_ + " -- " + cur_ + " " + cur_);
  EXPECT_EQ(runs.exit_code, 1) << runs.err;
  EXPECT_NE(runs.out.find("(2 runs)"), std::string::npos) << runs.out;
  EXPECT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_EQ(pass.err, "");

  std::ofstream(dir_ / "corrupt.json") << "{\"schema_version\": 1, \"con";
  ToolResult corrupt = Run("compare " + base_ + " corrupt.json");
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_EQ(CountLines(corrupt.err), 1) << corrupt.err;
  EXPECT_NE(corrupt.err.find("corrupt.json: not valid JSON"), std::string::npos) << corrupt.err;
  EXPECT_EQ(corrupt.out, "") << "nothing is compared";
  ToolResult usage = Run("compare " + base_);
  EXPECT_EQ(usage.exit_code, 2);
  ToolResult option = Run("compare " + base_ + " " + cur_ + " --max-regression lots");
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("--max-regression: 'lots' is not a number"), std::string::npos) << option.err;
}

TEST_F(CompareCliTest, Report) {
  ToolResult ok = Run("report " + base_ + " " + cur_ + " -o site/bench");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "site/bench/README.md"));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "site/bench/ci-runner-dbx-micro-get.svg"));
  std::ofstream(dir_ / "plain-file") << "x";
  ToolResult bad = Run("report " + base_ + " -o plain-file");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "dbx-bench: -o: 'plain-file' exists and is not a directory\n");
}

}  // namespace
}  // namespace dbxb::test
