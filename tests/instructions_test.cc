// `run --measure instructions` end to end (harness/instructions.h): the tool re-runs itself under
// valgrind's callgrind, counts each benchmark's instructions per operation over a fixed number of
// iterations, and `compare` / `ab` gate them against --max-instruction-regression. The null engine's
// test-only spin (adapters/null/null_faults.h) is the code change. Skipped without valgrind; a sanitizer
// build, which valgrind cannot run, checks only that the tool refuses the mode with its reason.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dbxb::test
