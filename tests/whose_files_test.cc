// Whose files a command may replace, through the built binary (common/file_policy.h decides): its own
// earlier outputs of the same kind, yes; another command's outputs, a file the user wrote, or one of
// its inputs, no (--force allows the second kind only). The bad-input table covers devices, FIFOs,
// links and files the tool never wrote; these cases need earlier runs of the tool.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

class WhoseFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-whose-files-test"); }
  void TearDown() override { fs::remove_all(dir_); }

  ToolResult Run(const std::string& words) { return RunTool(DBXB_TOOL, SplitWords(words), dir_, 120, dir_); }
  // A small ycsb run on the null engine into `out` (relative to the test's directory).
  ToolResult Ycsb(const std::string& out, const std::string& more = "") {
    return Run(std::string("run --workload ") + DBXB_SOURCE_DIR +
               "/workloads/ycsb/workloadc --engines null --records 100 --operations 100 --no-overhead --out " + out +
               " --data-dir data " + more);
  }
  std::string Read(const std::string& name) const { return ReadFile(dir_ / name); }
  // Two runs' results, in a and b.
  void RunAAndB() {
    fs::create_directories(dir_ / "data");
    ASSERT_EQ(Ycsb("a").exit_code, 0);
    ASSERT_EQ(Ycsb("b").exit_code, 0);
  }

  fs::path dir_;
};

TEST_F(WhoseFilesTest, ARunReplacesItsOwnResultsButMergeAndRawLatenciesDoNot) {
  ASSERT_NO_FATAL_FAILURE(RunAAndB());
  ToolResult again = Ycsb("a");
  EXPECT_EQ(again.exit_code, 0) << "a run replaces what an earlier run wrote there: " << again.err;

  const std::string before = Read("a/results.json");
  ToolResult merge = Run("merge a b -o a");
  EXPECT_EQ(merge.exit_code, 2) << merge.err;
  EXPECT_EQ(merge.err, "dbx-bench: -o: 'a/results.json' is an input of this command; write to another file\n");
  fs::create_directories(dir_ / "m");
  fs::copy_file(dir_ / "a/results.json", dir_ / "m/results.json");
  ASSERT_EQ(Ycsb("m").exit_code, 2) << "a copy is not the tool's own file";
  ASSERT_EQ(Ycsb("m", "--force").exit_code, 0);
  merge = Run("merge a b -o m");
  EXPECT_EQ(merge.exit_code, 2) << merge.err;
  EXPECT_EQ(merge.err,
            "dbx-bench: -o: 'm/results.json' exists and was not written by dbx-bench merge -o (use --force to replace "
            "it)\n")
      << "a run's results are not merge's to replace";
  EXPECT_EQ(Read("a/results.json"), before);

  ToolResult raw = Ycsb("b", "--raw-latencies a/results.json");
  EXPECT_EQ(raw.exit_code, 2) << raw.err;
  EXPECT_NE(raw.err.find("--raw-latencies: 'a/results.json' exists and was not written by dbx-bench run "
                         "--raw-latencies"),
            std::string::npos)
      << raw.err;
  EXPECT_EQ(Read("a/results.json"), before);

  EXPECT_EQ(Run("merge a b -o merged.json").exit_code, 0);
  ToolResult remerge = Run("merge a b -o merged.json");
  EXPECT_EQ(remerge.exit_code, 0) << "merge replaces its own earlier output: " << remerge.err;
}

TEST_F(WhoseFilesTest, CompareNeverWritesOverItsInputsNotEvenWithForce) {
  ASSERT_NO_FATAL_FAILURE(RunAAndB());
  const std::string before = Read("a/results.json");
  for (const char* force : {"", " --force"}) {
    ToolResult r = Run(std::string("compare a b --json a/results.json") + force);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "dbx-bench: --json: 'a/results.json' is an input of this command; write to another file\n");
    EXPECT_EQ(r.out, "") << "refused before anything is compared";
    EXPECT_EQ(Read("a/results.json"), before);
  }
  ASSERT_NE(Run("compare a b --json cmp.json --markdown cmp.md").exit_code, 2);
  ToolResult again = Run("compare a b --json cmp.json --markdown cmp.md");
  EXPECT_NE(again.exit_code, 2) << "compare replaces its own earlier outputs: " << again.err;
  ToolResult swapped = Run("compare a b --json cmp.md");
  EXPECT_EQ(swapped.exit_code, 2) << "the Markdown is --markdown's, not --json's: " << swapped.err;
}

TEST_F(WhoseFilesTest, ReportReplacesItsOwnPageButNotAReadmeItDidNotWrite) {
  fs::create_directories(dir_ / "data");
  ASSERT_EQ(Ycsb("a").exit_code, 0);
  ASSERT_EQ(Run("report a -o site").exit_code, 0);
  EXPECT_EQ(Run("report a -o site").exit_code, 0);
  std::ofstream(dir_ / "site/README.md") << "# my notes\n";
  ToolResult r = Run("report a -o site");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(Read("site/README.md"), "# my notes\n");
  EXPECT_EQ(Run("report a -o site --force").exit_code, 0);
  EXPECT_NE(Read("site/README.md"), "# my notes\n");
}

}  // namespace
}  // namespace dbxb::test
