#include "cli/report_command.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/atomic_file.h"
#include "records/json_results.h"
#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class ReportCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dbxb-report-cmd-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    RunResults arm = testdata::SampleRunResults();
    arm.context.host_name = "arm-host";
    ASSERT_TRUE(WriteResultsFile(Path("x86.json"), testdata::SampleRunResults()).ok());
    fs::create_directories(Path("arm-run"));
    ASSERT_TRUE(WriteResultsFile(Path("arm-run/results.json"), arm).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
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
  // Again into the existing directory: files are replaced, nothing else is left behind.
  ASSERT_EQ(RunReport(a, out).exit_code, 0);
  EXPECT_EQ(std::distance(fs::directory_iterator(Path("site/report")), fs::directory_iterator()), 9);
}

TEST_F(ReportCommandTest, BadInputsExitTwo) {
  std::ofstream(Path("file")) << "x";
  std::ofstream(Path("corrupt.json")) << "{\"schema_version\": 1, \"context\": {";
  std::ostringstream out;
  auto run = [&](ReportArgs a) { return RunReport(a, out); };
  CommandResult r = run({{Path("x86.json")}, Path("file"), ""});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.error, "-o: '" + Path("file") + "' exists and is not a directory");
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
