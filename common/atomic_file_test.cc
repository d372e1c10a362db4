#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dbxb_atomic_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesNewFileAndLeavesNoTemporary) {
  std::string path = (dir_ / "results.json").string();
  ASSERT_TRUE(WriteFileAtomically(path, "hello\n").ok());
  std::string got;
  ASSERT_TRUE(ReadFileToString(path, &got).ok());
  EXPECT_EQ(got, "hello\n");
  EXPECT_EQ(Entries(), std::vector<std::string>{"results.json"});
}

TEST_F(AtomicFileTest, ReplacesExistingFile) {
  std::string path = (dir_ / "results.md").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old contents that are longer").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new").ok());
  std::string got;
  ASSERT_TRUE(ReadFileToString(path, &got).ok());
  EXPECT_EQ(got, "new");
  EXPECT_EQ(Entries(), std::vector<std::string>{"results.md"});
}

TEST_F(AtomicFileTest, EmptyAndBinaryContents) {
  std::string path = (dir_ / "b").string();
  ASSERT_TRUE(WriteFileAtomically(path, "").ok());
  std::string got = "x";
  ASSERT_TRUE(ReadFileToString(path, &got).ok());
  EXPECT_EQ(got, "");
  std::string binary("a\0b\xff", 4);
  ASSERT_TRUE(WriteFileAtomically(path, binary).ok());
  ASSERT_TRUE(ReadFileToString(path, &got).ok());
  EXPECT_EQ(got, binary);
}

TEST_F(AtomicFileTest, RespectsUmaskForNewFiles) {
  std::string path = (dir_ / "mode").string();
  mode_t old = ::umask(022);
  Status s = WriteFileAtomically(path, "x");
  ::umask(old);
  ASSERT_TRUE(s.ok());
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST_F(AtomicFileTest, MissingDirectoryIsIOErrorAndCreatesNothing) {
  std::string path = (dir_ / "no_such_dir" / "results.json").string();
  Status s = WriteFileAtomically(path, "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("no_such_dir"), std::string::npos) << s.ToString();
  EXPECT_TRUE(Entries().empty());
}

TEST_F(AtomicFileTest, FailedRenameKeepsTargetAndRemovesTemporary) {
  // A non-empty directory at the target path cannot be replaced by a file.
  fs::create_directories(dir_ / "target" / "child");
  std::string path = (dir_ / "target").string();
  Status s = WriteFileAtomically(path, "x");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.message().find("rename"), std::string::npos) << s.ToString();
  EXPECT_TRUE(fs::is_directory(dir_ / "target" / "child"));
  EXPECT_EQ(Entries(), std::vector<std::string>{"target"});
}

TEST_F(AtomicFileTest, RejectsPathWithoutFileName) {
  EXPECT_TRUE(WriteFileAtomically("", "x").IsInvalidArgument());
  EXPECT_TRUE(WriteFileAtomically((dir_ / "").string() + "/", "x").IsInvalidArgument());
}

TEST_F(AtomicFileTest, RelativePathUsesCurrentDirectory) {
  fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  Status s = WriteFileAtomically("relative.txt", "r");
  fs::current_path(cwd);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Entries(), std::vector<std::string>{"relative.txt"});
}

TEST_F(AtomicFileTest, ReadMissingFileIsIOError) {
  std::string got;
  Status s = ReadFileToString((dir_ / "absent").string(), &got);
  EXPECT_TRUE(s.IsIOError());
  EXPECT_NE(s.message().find("absent"), std::string::npos);
}

}  // namespace
}  // namespace dbxb
