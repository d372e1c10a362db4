#include "common/output_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/tool_process.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;
using test::FreshTestDir;

class OutputDirTest : public ::testing::Test {
 protected:
  void SetUp() override { root_ = FreshTestDir("dbxb-output-dir-test"); }
  void TearDown() override { fs::remove_all(root_); }
  fs::path root_;
};

TEST_F(OutputDirTest, CreatesMissingDirectoriesAndRemovesThemUnlessKept) {
  const fs::path out = root_ / "a" / "b" / "c";
  {
    OutputDir dir;
    ASSERT_TRUE(dir.Prepare(out.string()).ok());
    EXPECT_TRUE(dir.created());
    EXPECT_TRUE(fs::is_directory(out));
  }
  EXPECT_FALSE(fs::exists(root_ / "a")) << "every directory it created is removed again";
  EXPECT_TRUE(fs::is_directory(root_)) << "the existing parent stays";
  {
    OutputDir dir;
    ASSERT_TRUE(dir.Prepare(out.string() + "/").ok());
    dir.Keep();
  }
  EXPECT_TRUE(fs::is_directory(out)) << "kept";
}

TEST_F(OutputDirTest, AnExistingDirectoryIsNeverRemoved) {
  const fs::path out = root_ / "earlier";
  fs::create_directories(out);
  std::ofstream(out / "results.json") << "{}";
  {
    OutputDir dir;
    ASSERT_TRUE(dir.Prepare(out.string()).ok());
    EXPECT_FALSE(dir.created());
  }
  EXPECT_TRUE(fs::is_regular_file(out / "results.json"));
  fs::remove(out / "results.json");
  {
    OutputDir dir;
    ASSERT_TRUE(dir.Prepare(out.string()).ok());
  }
  EXPECT_TRUE(fs::is_directory(out)) << "even when empty";
}

TEST_F(OutputDirTest, ACreatedDirectoryThatIsNoLongerEmptyStays) {
  const fs::path out = root_ / "new";
  {
    OutputDir dir;
    ASSERT_TRUE(dir.Prepare(out.string()).ok());
    std::ofstream(out / "results.json") << "{}";
  }
  EXPECT_TRUE(fs::is_regular_file(out / "results.json"));
}

TEST_F(OutputDirTest, AFileIsRefusedAndUnchanged) {
  const fs::path file = root_ / "file";
  std::ofstream(file) << "precious";
  OutputDir dir;
  Status st = dir.Prepare(file.string());
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_EQ(st.message().rfind("--out: ", 0), 0u) << st.message();
  Status under = OutputDir().Prepare((file / "sub").string());
  EXPECT_TRUE(under.IsInvalidArgument()) << under.ToString();
  EXPECT_NE(under.message().find(file.string()), std::string::npos) << under.message();
  EXPECT_TRUE(fs::is_regular_file(file));
}

TEST_F(OutputDirTest, TheProbeLeavesNothingBehind) {
  const fs::path out = root_ / "earlier";
  fs::create_directories(out);
  std::ofstream(out / "results.json") << "{}";
  OutputDir dir;
  ASSERT_TRUE(dir.Prepare(out.string(), 1 << 20).ok());
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"results.json"});
}

// The full, read-only and immutable cases need mounts or root: tests/nothing_lost_test.cc. A file
// system that refuses a probe of any size is /proc.
TEST_F(OutputDirTest, ADirectoryThatCannotTakeAFileIsRefusedNamingTheError) {
  OutputDir dir;
  Status st = dir.Prepare("/proc/self");
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.message().find("--out: cannot write to '/proc/self'"), std::string::npos) << st.message();
  EXPECT_FALSE(dir.created());
}

}  // namespace
}  // namespace dbxb
