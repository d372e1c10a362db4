// `run --measure instructions` end to end (harness/instructions.h): the tool re-runs itself under
// valgrind's callgrind, counts each benchmark's instructions per operation over a fixed number of
// iterations, and `compare` / `ab` gate them against --max-instruction-regression. The null engine's
// test-only spin (adapters/null/null_faults.h) is the code change. Skipped without valgrind; a sanitizer
// build, which valgrind cannot run, checks only that the tool refuses the mode with its reason. The
// valgrind child is tied to the tool: whatever signal ends the tool, no process and no file is left.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/sanitized_build.h"
#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

const std::string kRun = "--engines null --workloads get,insert --records 1000 --measure instructions";

class InstructionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("dbxb-instructions");
#ifdef DBXB_SANITIZED_BUILD
    if (!refusal_test_) GTEST_SKIP() << "valgrind cannot run a sanitizer build";
#else
    if (refusal_test_) GTEST_SKIP() << "only a sanitizer build refuses the mode";
    if (std::system("valgrind --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "valgrind is not installed";
#endif
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  ToolResult Run(const std::string& words) { return RunTool(DBXB_TOOL, SplitWords(words), dir_, 300, dir_); }
  nlohmann::json Results(const std::string& out) {
    return nlohmann::json::parse(ReadFile(dir_ / out / "results.json"));
  }

  fs::path dir_;
  bool refusal_test_ = false;
};

class SanitizedInstructionsTest : public InstructionsTest {
 protected:
  SanitizedInstructionsTest() { refusal_test_ = true; }
};

TEST_F(SanitizedInstructionsTest, TheModeIsRefusedWithItsReasonAndNothingWritten) {
  ToolResult r = Run("run " + kRun + " --out a");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("built with a sanitizer"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "a"));
}

TEST_F(InstructionsTest, CountsAreRecordedWithTheValgrindVersionAndRepeatExactly) {
  ToolResult a = Run("run " + kRun + " --out a");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ToolResult b = Run("run " + kRun + " --out b");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const nlohmann::json ja = Results("a"), jb = Results("b");
  ASSERT_EQ(ja["benchmarks"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const nlohmann::json& ia = ja["benchmarks"][i]["instructions"];
    EXPECT_EQ(ia["refused"], "") << ia;
    EXPECT_GT(ia["per_op"].get<double>(), 10) << ia;
    EXPECT_EQ(ia["iterations"], 3);
    EXPECT_EQ(ia["tool"].get<std::string>().rfind("valgrind-", 0), 0u) << ia;
    // The null engine does the same work every time: the same count, to the instruction.
    EXPECT_EQ(ia["instructions"], jb["benchmarks"][i]["instructions"]["instructions"]);
  }
  EXPECT_NE(ja["context"]["command_line"].get<std::string>().find("--measure instructions"), std::string::npos);
  // One run per side is enough: instruction counts are exact, and the times of counted runs are not compared.
  ToolResult same = Run("compare a b --json same.json");
  EXPECT_EQ(same.exit_code, 0) << same.err << same.out;
  const nlohmann::json s = nlohmann::json::parse(ReadFile(dir_ / "same.json"));
  EXPECT_EQ(s["gate"]["families"]["instructions"]["rows"], 2);
  EXPECT_FALSE(s["gate"]["families"].contains("timing")) << s["gate"];
}

TEST_F(InstructionsTest, AbCatchesAChangeOfAFewPercentFromOneRoundPerSide) {
  // The "current build" spins 4 multiply-adds more per operation.
  const fs::path slower = dir_ / "slower.sh";
  { std::ofstream(slower) << "#!/bin/sh\nexec " << DBXB_TOOL << " \"$@\" --engine-option null.spin=4\n"; }
  fs::permissions(slower, fs::perms::owner_all);
  ToolResult r = Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + slower.string() +
                     " --out ab --json ab.json -- " + kRun);
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("(instructions/op)"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(ReadFile(dir_ / "ab.json"));
  EXPECT_EQ(j["baseline"]["runs"], 1) << "one round";
  EXPECT_EQ(j["gate"]["regressed"], 2);
  ToolResult same = Run("ab --baseline-bin " + std::string(DBXB_TOOL) + " --current-bin " + std::string(DBXB_TOOL) +
                        " --out aa -- " + kRun);
  EXPECT_EQ(same.exit_code, 0) << same.err << same.out;
}

TEST_F(InstructionsTest, ACountThatCannotApplyIsRefusedWithItsReason) {
  // Every commit syncs: the cost of those iterations is the kernel's I/O, which callgrind does not count.
  ToolResult r =
      Run("run --engines null --workloads insert --records 1000 --measure instructions "
          "--engine-option null.syncs_per_commit=1 --out synced");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json i = Results("synced")["benchmarks"][0]["instructions"];
  EXPECT_NE(i["refused"].get<std::string>().find("synced"), std::string::npos) << i;
}

// The tool signalled while its valgrind child builds a data set (under valgrind, 5M rows take minutes): it
// ends as the signal says (130 for the ones that interrupt a run; SIGKILL kills it), and soon after no
// process of the run runs and its temporary directory (TMPDIR, the callgrind dumps' and the run's
// databases' directories, valgrind's own files) is empty; nothing was written.
class InstructionsSignalTest : public InstructionsTest, public ::testing::WithParamInterface<int> {};

TEST_P(InstructionsSignalTest, NothingOfTheRunIsLeft) {
  const fs::path tmp = dir_ / "tmp";
  fs::create_directories(tmp);
  const char* old_tmp = std::getenv("TMPDIR");
  const std::string saved = old_tmp != nullptr ? old_tmp : "";
  setenv("TMPDIR", tmp.c_str(), 1);  // the child inherits it
  const pid_t pid = StartTool(DBXB_TOOL,
                              SplitWords("run --engines null --workloads get --records 5M --measure instructions "
                                         "--out " +
                                         (dir_ / "out").string()),
                              dir_ / "stdout", dir_ / "stderr");
  old_tmp != nullptr ? setenv("TMPDIR", saved.c_str(), 1) : unsetenv("TMPDIR");
  auto entries = [&] { return std::distance(fs::directory_iterator(tmp), fs::directory_iterator()); };
  // The callgrind directory and the run's work directory: the run under valgrind has begun.
  ASSERT_TRUE(WaitUntil([&] { return entries() >= 2; }, 60)) << ReadFile(dir_ / "stderr");
  ASSERT_EQ(kill(pid, GetParam()), 0);
  const ToolResult r = WaitTool(pid, 60);
  if (GetParam() == SIGKILL)
    EXPECT_EQ(r.term_signal, SIGKILL) << r.Describe();
  else
    EXPECT_EQ(r.exit_code, 130) << r.Describe() << ReadFile(dir_ / "stderr");
  EXPECT_TRUE(WaitUntil([&] { return ProcessesMentioning(tmp.string()) == 0; }, 10)) << "valgrind still runs";
  EXPECT_TRUE(WaitUntil([&] { return entries() == 0; }, 10)) << Fingerprint(tmp);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "results.json"));
}

INSTANTIATE_TEST_SUITE_P(Signals, InstructionsSignalTest, ::testing::Values(SIGKILL, SIGTERM, SIGINT, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

}  // namespace
}  // namespace dbxb::test
