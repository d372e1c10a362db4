#include "cli/report_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/test_dir.h"
#include "common/atomic_file.h"
#include "common/file_policy.h"
#include "records/json_results.h"
#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class ReportCommandTest : public testdata::TestDirFixture {
 protected:
  ReportCommandTest() : TestDirFixture("report-cmd") {}

  void SetUp() override {
    TestDirFixture::SetUp();
    RunResults arm = testdata::SampleRunResults();
    arm.context.host_name = "arm-host";
    ASSERT_TRUE(WriteResultsFile(Path("x86.json"), testdata::SampleRunResults()).ok());
    fs::create_directories(Path("arm-run"));
    ASSERT_TRUE(WriteResultsFile(Path("arm-run/results.json"), arm).ok());
  }
};

TEST_F(ReportCommandTest, WritesMarkdownAndChartsIntoANewDirectory) {
  ReportArgs a{{Path("x86.json"), Path("arm-run")}, Path("site/report"), ""};
  std::ostringstream out;
  CommandResult r = RunReport(a, out);
  ASSERT_EQ(r.exit_code, 0) << r.error;
  EXPECT_EQ(out.str(), "Wrote " + Path("site/report/README.md") + " with 8 charts from 2 results files.\n");
  std::string md;
  ASSERT_TRUE(ReadFileToString(Path("site/report/README.md"), &md).ok());
  EXPECT_NE(md.find("## bench-host"), std::string::npos);
  EXPECT_NE(md.find("## arm-host"), std::string::npos);
  EXPECT_NE(md.find("`" + Path("arm-run/results.json") + "`"), std::string::npos) << "sources are named";
  for (const char* svg :
       {"bench-host-dbx-micro-insert.svg", "bench-host-dbx-micro-get.svg", "arm-host-dbx-micro-insert.svg",
        "arm-host-dbx-micro-get.svg", "bench-host-dbx-micro-insert-amplification.svg",
        "arm-host-dbx-micro-get-amplification.svg"}) {
    EXPECT_TRUE(fs::is_regular_file(Path(std::string("site/report/") + svg))) << svg;
    EXPECT_NE(md.find(std::string("](") + svg + ")"), std::string::npos) << svg;
  }
  // Again into the existing directory: its own files are replaced, nothing else is left behind (the
  // tenth file marks the nine as written by report -o).
  ASSERT_EQ(RunReport(a, out).exit_code, 0);
  EXPECT_EQ(std::distance(fs::directory_iterator(Path("site/report")), fs::directory_iterator()), 10);
  EXPECT_TRUE(fs::is_regular_file(Path(std::string("site/report/") + kOutputMarksFile)));
  // A README.md it did not write is not replaced, unless --force.
  std::ofstream(Path("site/report/README.md")) << "# my notes\n";
  CommandResult mine = RunReport(a, out);
  EXPECT_EQ(mine.exit_code, 2);
  EXPECT_EQ(mine.error, "-o: '" + Path("site/report/README.md") +
                            "' exists and was not written by dbx-bench report -o (use --force to replace it)");
  a.force = true;
  EXPECT_EQ(RunReport(a, out).exit_code, 0);
}

TEST_F(ReportCommandTest, BadInputsExitTwo) {
  std::ofstream(Path("file")) << "x";
  std::ofstream(Path("corrupt.json")) << "{\"schema_version\": 1, \"context\": {";
  std::ostringstream out;
  auto run = [&](ReportArgs a) { return RunReport(a, out); };
  CommandResult r = run({{Path("x86.json")}, Path("file"), ""});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.error, "-o: '" + Path("file") + "' is a regular file, not a directory");
  EXPECT_EQ(run({{Path("x86.json")}, Path("file/sub"), ""}).exit_code, 2);
  r = run({{Path("corrupt.json")}, Path("out"), ""});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.error.find("not valid JSON"), std::string::npos) << r.error;
  EXPECT_FALSE(fs::exists(Path("out"))) << "nothing is written when an input is bad";
  EXPECT_EQ(run({{Path("missing.json")}, Path("out"), ""}).exit_code, 2);
  EXPECT_EQ(run({{}, Path("out"), ""}).exit_code, 2);
  EXPECT_EQ(run({{Path("x86.json")}, "", ""}).exit_code, 2);
}

}  // namespace
}  // namespace dbxb
