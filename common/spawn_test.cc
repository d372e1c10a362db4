// common/spawn.h and common/process_usage.h: programs started without a shell, waited for with their
// final costs kept apart, and the /proc readings of a process and its children.
#include "common/spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dbxb {
namespace {

namespace fs = std::filesystem;

fs::path Scratch() {
  fs::path dir = fs::temp_directory_path() / ("dbxb-spawn-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class SpawnTest : public ::testing::Test {
 protected:
  void TearDown() override { fs::remove_all(Scratch()); }
};

TEST_F(SpawnTest, ExitCodeEnvironmentDirectoryAndOutput) {
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", "echo \"$GREETING\" from \"$(pwd)\"; exit 3"};
  o.env = {"GREETING=hello"};
  o.cwd = Scratch().string();
  o.output_file = (Scratch() / "out").string();
  Result<pid_t> pid = Spawn(o);
  ASSERT_TRUE(pid.ok()) << pid.status().ToString();
  auto ended = WaitChild(*pid, std::chrono::seconds(30));
  ASSERT_TRUE(ended.ok() && ended->has_value());
  EXPECT_EQ((*ended)->code, 3);
  EXPECT_EQ(Read(Scratch() / "out"), "hello from " + fs::canonical(Scratch()).string() + "\n");
}

TEST_F(SpawnTest, OnlyDescriptorThreeIsInherited) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  SpawnOptions o;
  // Descriptors 0-3 and the one ls itself opens for /proc/self/fd; nothing of this process's.
  o.argv = {"/bin/sh", "-c", "echo via3 >&3; ls /proc/self/fd | wc -l"};
  o.output_file = (Scratch() / "out").string();
  o.fd3 = fds[1];
  Result<pid_t> pid = Spawn(o);
  close(fds[1]);
  ASSERT_TRUE(pid.ok());
  char buf[16] = {};
  EXPECT_EQ(read(fds[0], buf, sizeof buf - 1), 5);
  EXPECT_STREQ(buf, "via3\n");
  close(fds[0]);
  auto ended = WaitChild(*pid, std::chrono::seconds(30));
  ASSERT_TRUE(ended.ok() && ended->has_value());
  EXPECT_EQ(Read(Scratch() / "out"), "5\n");
}

TEST_F(SpawnTest, AProgramThatCannotBeExecutedExits127) {
  SpawnOptions o;
  o.argv = {"/nonexistent/program"};
  Result<pid_t> pid = Spawn(o);
  ASSERT_TRUE(pid.ok());
  auto ended = WaitChild(*pid, std::chrono::seconds(30));
  ASSERT_TRUE(ended.ok() && ended->has_value());
  EXPECT_EQ((*ended)->code, 127);
}

TEST_F(SpawnTest, WaitTimesOutAndStopChildEndsIt) {
  SpawnOptions o;
  o.argv = {"/bin/sleep", "30"};
  Result<pid_t> pid = Spawn(o);
  ASSERT_TRUE(pid.ok());
  EXPECT_EQ(getpgid(*pid), *pid) << "a process group of its own";
  auto ended = WaitChild(*pid, std::chrono::milliseconds(50));
  ASSERT_TRUE(ended.ok());
  EXPECT_FALSE(ended->has_value()) << "still running at the deadline";
  std::vector<pid_t> children = ChildrenOf(getpid());
  EXPECT_NE(std::find(children.begin(), children.end(), *pid), children.end());
  EXPECT_EQ(StopChild(*pid, SIGTERM, std::chrono::seconds(5)).code, 128 + SIGTERM);
}

TEST_F(SpawnTest, AReapedChildsIoIsKeptApartWithItsChildren) {
  const ProcessUsage before = ReapedChildrenUsage();
  SpawnOptions o;
  // The shell reaps dd: its writes reach the shell's counters, which WaitChild reads before reaping.
  o.argv = {"/bin/sh", "-c", "dd if=/dev/zero of=" + (Scratch() / "f").string() + " bs=64k count=16 2>/dev/null; true"};
  o.env = {"PATH=/usr/bin:/bin"};
  Result<pid_t> pid = Spawn(o);
  ASSERT_TRUE(pid.ok());
  auto ended = WaitChild(*pid, std::chrono::seconds(30));
  ASSERT_TRUE(ended.ok() && ended->has_value());
  EXPECT_GE((*ended)->usage.wchar, 1u << 20);
  EXPECT_GE(ReapedChildrenUsage().wchar - before.wchar, 1u << 20);
}

TEST(ProcessUsageTest, ReadsThisProcess) {
  auto self = ReadProcessUsage(getpid(), true);
  ASSERT_TRUE(self.has_value());
  EXPECT_GT(self->rchar, 0u);
  EXPECT_GT(ReadPssBytes(getpid()), 0u);
  EXPECT_TRUE(ProcessStartTime(getpid()).has_value());
  EXPECT_FALSE(ReadProcessUsage(0x7ffffff0, true).has_value()) << "no such process";
}

}  // namespace
}  // namespace dbxb
