// common/owned_dir.h: directories marked with their maker; only those of a process that is gone are
// removed by a later run.
#include "common/owned_dir.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class OwnedDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("dbxb-owned-dir-" + std::to_string(getpid()));
    fs::create_directories(base_);
  }
  void TearDown() override { fs::remove_all(base_); }
  fs::path base_;
};

TEST_F(OwnedDirTest, OnlyTheDirectoriesOfAGoneProcessAreRemoved) {
  Result<std::string> mine = CreateOwnedDir(base_.string(), "x-");
  ASSERT_TRUE(mine.ok()) << mine.status().ToString();
  EXPECT_TRUE(IsOwnedDir(*mine));
  EXPECT_EQ(fs::path(*mine).filename().string().rfind("x-", 0), 0u);

  pid_t child = fork();
  if (child == 0) _exit(CreateOwnedDir(base_.string(), "x-").ok() ? 0 : 1);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_EQ(status, 0);

  fs::create_directories(base_ / "x-unmarked");
  fs::create_directories(base_ / "x-old-marker");
  std::ofstream(base_ / "x-old-marker" / kOwnedMarker) << "created by dbx-bench; removed when the run ends\n";
  fs::create_directories(base_ / "y-other-prefix");
  int entries = 0;
  for (auto it = fs::directory_iterator(base_); it != fs::directory_iterator(); ++it) ++entries;
  ASSERT_EQ(entries, 5);

  EXPECT_EQ(RemoveAbandonedDirs(base_.string(), "x-"), 1) << "the dead child's directory only";
  EXPECT_TRUE(fs::exists(*mine)) << "this process still runs";
  EXPECT_TRUE(fs::exists(base_ / "x-unmarked"));
  EXPECT_TRUE(fs::exists(base_ / "x-old-marker")) << "a marker that names no process";
  EXPECT_TRUE(fs::exists(base_ / "y-other-prefix"));
}

}  // namespace
}  // namespace dbxb
