// End-to-end tests of `dbx-bench ab` through the built binary: the rounds and their order, the
// outputs, and a binary that fails a round.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

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

// True while `pid` runs: it exists and is not a zombie waiting for its (new) parent to reap it. Waits up
// to two seconds for it to end.
bool Alive(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line)) return false;
    const size_t paren = line.rfind(')');
    if (paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'Z') return false;
    usleep(20000);
  }
  return true;
}

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
  EXPECT_NE(r.out.find("OK: "), std::string::npos) << r.out;
  EXPECT_EQ(ReadFile(dir_ / "ab.md"), ReadFile(dir_ / "ab/comparison.md"));
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "ab.json"));
  EXPECT_EQ(j["method"], "paired rounds");
  EXPECT_EQ(j["baseline"]["runs"], 3);
  ASSERT_GE(j["benchmarks"].size(), 4u);  // get and scan: typical, mean and CPU times, and counters
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
  EXPECT_FALSE(fs::exists(dir_ / "ab/round-02")) << "the failed round is removed";
  EXPECT_FALSE(fs::exists(dir_ / "ab/comparison.json"));
}

// Issue 44, item 15: a side that fails after the other side of its round finished leaves no half
// round, so that `compare --paired DIR/round-*/baseline -- DIR/round-*/current` pairs every round.
TEST_F(AbCliTest, AFailedRoundLeavesNoHalfRound) {
  // The current side fails from its third run on: round 3, where the baseline runs first.
  const std::string count = (dir_ / "count").string();
  const std::string cur =
      Wrapper("cur.sh", "echo x >> " + count + "; if [ $(wc -l < " + count +
                            ") -ge 3 ]; then echo 'dbx-bench: disk on fire' >&2; exit 1; fi; exec " +
                            std::string(DBXB_TOOL) + " \"$@\"");
  ToolResult r =
      Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + cur + " --rounds 4 --out ab -- " + kRun);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("round 3/4: current binary"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "ab/round-03")) << "the half round is removed";
  for (const char* round : {"round-01", "round-02"}) {
    EXPECT_TRUE(fs::exists(dir_ / "ab" / round / "baseline/results.json")) << round;
    EXPECT_TRUE(fs::exists(dir_ / "ab" / round / "current/results.json")) << round;
  }
  ToolResult paired =
      Run("compare --paired ab/round-01/baseline ab/round-02/baseline -- ab/round-01/current "
          "ab/round-02/current");
  EXPECT_NE(paired.exit_code, 2) << paired.err;
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
  EXPECT_NE(r.err.find("round 1: the two builds share no benchmark"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "ab/round-02")) << "noticed after the first round";
}

TEST_F(AbCliTest, RoundsAutoStopsWhenEveryRowIsDecided) {
  // Counters only decide at once; a binary whose every round writes the same results decides its
  // timing rows exactly too (no spread), so the first look at 6 rounds ends the run.
  const std::string fixed = Wrapper("fixed.sh", "for a; do out=$a; done; mkdir -p \"$out\" && cp " +
                                                    (dir_ / "seed/results.json").string() + " \"$out/results.json\"");
  ToolResult seed = Run("run " + kRun + " --out seed");
  ASSERT_EQ(seed.exit_code, 0) << seed.err;
  ToolResult r = Run("ab --baseline-bin " + fixed + " --current-bin " + fixed +
                     " --rounds auto --max-rounds 30 --out ab --json ab.json -- " + kRun);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.err.find("ab: after 6 rounds: 0 of"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "ab/round-07"));
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "ab.json"));
  EXPECT_EQ(j["options"]["looks"], 5);  // 6, 10, 16, 24, 30
  EXPECT_EQ(j["gate"]["decided"], true);
}

TEST_F(AbCliTest, ARoundThatHangsIsKilledWithItsProcessGroupAndRemoved) {
  // The current build starts a grandchild and hangs: after --round-timeout both are killed and the
  // round's partial output is removed.
  const std::string pidfile = (dir_ / "grandchild.pid").string();
  const std::string hang = Wrapper("hang.sh", "sleep 1000 & echo $! > " + pidfile +
                                                  "; for a; do out=$a; done; "
                                                  "mkdir -p \"$out\"; echo partial > \"$out/partial\"; wait");
  ToolResult r = Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + hang +
                     " --rounds 2 --round-timeout 2s --out ab -- " + kRun);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("did not finish within 2 s and was killed"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "ab/round-01")) << "the partial round is removed";
  const pid_t grandchild = std::stoi(ReadFile(pidfile));
  EXPECT_FALSE(Alive(grandchild)) << "the whole process group was killed";
}

// Ctrl-C (SIGINT) to ab while a round runs, once and twice: the round's whole process group is gone, the
// partial round is removed, ab exits 130; no process is left behind under PID 1.
TEST_F(AbCliTest, InterruptsKillTheRoundsProcessGroup) {
  for (int signals : {1, 2}) {
    const std::string tag = std::to_string(signals);
    const std::string pidfile = (dir_ / ("grandchild" + tag)).string();
    const std::string hang = Wrapper("hang" + tag + ".sh", "sleep 1000 & echo $! > " + pidfile +
                                                               "; for a; do out=$a; done; mkdir -p \"$out\"; wait");
    const pid_t ab = StartTool(DBXB_TOOL,
                               SplitWords("ab --baseline-bin " + hang + " --current-bin " + std::string(DBXB_TOOL) +
                                          " --rounds 2 --out " + (dir_ / ("ab" + tag)).string() + " -- " + kRun),
                               dir_ / ("out" + tag), dir_ / ("err" + tag));
    ASSERT_TRUE(WaitForFileText(pidfile, "\n", 30)) << "the round started";
    for (int i = 0; i < signals; ++i) ::kill(ab, SIGINT);
    const ToolResult r = WaitTool(ab, 60);
    EXPECT_EQ(r.exit_code, 130) << r.Describe() << ReadFile(dir_ / ("err" + tag));
    EXPECT_FALSE(Alive(std::stoi(ReadFile(pidfile)))) << signals << " signal(s)";
    if (signals == 1) EXPECT_FALSE(fs::exists(dir_ / ("ab" + tag))) << "nothing kept";
  }
}

}  // namespace
}  // namespace dbxb::test
