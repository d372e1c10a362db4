// End-to-end tests of `dbx-bench ab` through the built binary: the rounds and their order, the
// outputs, and a binary that fails a round.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

// Run arguments that finish in about a second per process.
const std::string kRun =
    "--engines null --workloads get,scan --records 100 --samples 10 --warmup 10ms "
    "--measurement 50ms --resamples 1000 --no-overhead";

class AbCliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-ab-cli"); }
  void TearDown() override { fs::remove_all(dir_); }

  ToolResult Run(const std::string& words) { return RunTool(DBXB_TOOL, SplitWords(words), dir_, 120, dir_); }

  // An executable script in dir_ that behaves as dbx-bench by running it, with `before` run first.
  std::string Wrapper(const std::string& name, const std::string& body) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(path, fs::perms::owner_all);
    return path.string();
  }

  fs::path dir_;
};

TEST_F(AbCliTest, RoundsInAbbaOrderAndTheirComparison) {
  // The wrapper logs which side ran, so the order of the processes is visible.
  const std::string base = Wrapper(
      "base.sh", "echo baseline >> " + (dir_ / "order").string() + "; exec " + std::string(DBXB_TOOL) + " \"$@\"");
  const std::string cur = Wrapper(
      "cur.sh", "echo current >> " + (dir_ / "order").string() + "; exec " + std::string(DBXB_TOOL) + " \"$@\"");
  ToolResult r = Run("ab --baseline-bin " + base + " --current-bin " + cur +
                     " --rounds 3 --out ab --resamples 1000 --markdown ab.md --json ab.json -- " + kRun);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(ReadFile(dir_ / "order"), "baseline\ncurrent\ncurrent\nbaseline\nbaseline\ncurrent\n");
  // Progress: one line per round on stderr.
  EXPECT_EQ(CountLines(r.err), 3) << r.err;
  EXPECT_NE(r.err.find("ab: round 2/3: current"), std::string::npos) << r.err;
  for (const char* round : {"round-01", "round-02", "round-03"}) {
    EXPECT_TRUE(fs::exists(dir_ / "ab" / round / "baseline/results.json")) << round;
    EXPECT_TRUE(fs::exists(dir_ / "ab" / round / "current/results.json")) << round;
    EXPECT_TRUE(fs::exists(dir_ / "ab" / round / "current.log")) << round;
  }
  EXPECT_NE(r.out.find("(3 rounds)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OK: 2 compared"), std::string::npos) << r.out;
  EXPECT_EQ(ReadFile(dir_ / "ab.md"), ReadFile(dir_ / "ab/comparison.md"));
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "ab.json"));
  EXPECT_EQ(j["method"], "paired rounds");
  EXPECT_EQ(j["baseline"]["runs"], 3);
  ASSERT_EQ(j["benchmarks"].size(), 2u);
  EXPECT_EQ(j["benchmarks"][0]["ratios"].size(), 3u);
  EXPECT_EQ(j["gate"]["failed"], false);

  // compare --paired recomputes the same verdicts from the kept rounds.
  std::string files_base, files_cur;
  for (const char* round : {"round-01", "round-02", "round-03"}) {
    files_base += " ab/" + std::string(round) + "/baseline";
    files_cur += " ab/" + std::string(round) + "/current";
  }
  ToolResult again = Run("compare --paired --resamples 1000 --json again.json" + files_base + " --" + files_cur);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const nlohmann::json k = nlohmann::json::parse(ReadFile(dir_ / "again.json"));
  EXPECT_EQ(k["benchmarks"], j["benchmarks"]);
}

TEST_F(AbCliTest, ABinaryFailingARoundEndsTheRunNamingIt) {
  // The current side fails from its second run on (round 2 runs current first).
  const std::string count = (dir_ / "count").string();
  const std::string cur =
      Wrapper("cur.sh", "echo x >> " + count + "; if [ $(wc -l < " + count +
                            ") -ge 2 ]; then echo 'dbx-bench: disk on fire' >&2; exit 1; fi; exec " +
                            std::string(DBXB_TOOL) + " \"$@\"");
  ToolResult r =
      Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + cur + " --rounds 4 --out ab -- " + kRun);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("round 2/4: current binary"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("exited with status 1: disk on fire"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the rounds so far are in ab"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "ab/round-01/current/results.json"));
  EXPECT_FALSE(fs::exists(dir_ / "ab/comparison.json"));
}

TEST_F(AbCliTest, SidesWithNothingInCommonAreBadInput) {
  // A "current build" whose suite has other workloads (it runs count whatever it is asked; ab puts
  // --out DIR last): nothing to gate on is exit 2, not a pass.
  const std::string cur = Wrapper("cur.sh", "for a; do out=$a; done; exec " + std::string(DBXB_TOOL) +
                                                " run --engines null --workloads count --records 100 --samples 10 "
                                                "--warmup 10ms --measurement 50ms --resamples 1000 --no-overhead "
                                                "--out \"$out\"");
  ToolResult r =
      Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + cur + " --rounds 2 --out ab -- " + kRun);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no benchmark in common"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace dbxb::test
