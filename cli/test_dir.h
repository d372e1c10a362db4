// A gtest fixture for the command tests that write files: each test gets a new, empty directory of its
// own, removed after the test.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>

namespace dbxb::testdata {

class TestDirFixture : public ::testing::Test {
 protected:
  /// The directory is <temp dir>/dbxb-<prefix>-<pid>-<test name>.
  explicit TestDirFixture(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("dbxb-" + prefix_ + "-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  /// `name` inside the test's directory.
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace dbxb::testdata
