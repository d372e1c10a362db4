// common/orphan_guard.h: what a killed process made is removed, and the process it watched stopped;
// a dismissed guard touches nothing.
#include "common/orphan_guard.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "common/spawn.h"
#include "tests/tool_process.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

using test::WaitUntil;

// True while `pid` exists and is not a zombie.
bool Running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

class OrphanGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dbxb-orphan-guard-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "made");
    std::ofstream(dir_ / "made" / "file") << "data";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OrphanGuardTest, AKilledOwnersPathsAreRemovedAndItsServerStopped) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t owner = fork();
  if (owner == 0) {
    // The owner: a guard for `made`, watching a process that works in `made`, then waits to be killed.
    close(ready[0]);
    auto guard = OrphanGuard::Start({(dir_ / "made").string()}, (dir_ / "made").string());
    if (!guard.ok()) _exit(1);
    SpawnOptions o;
    o.argv = {"/bin/sleep", "60"};
    o.cwd = (dir_ / "made").string();
    Result<pid_t> server = Spawn(o);
    if (!server.ok() || !(*guard)->Watch(*server).ok()) _exit(1);
    (void)!write(ready[1], &*server, sizeof(pid_t));
    pause();
    _exit(0);
  }
  close(ready[1]);
  pid_t server = 0;
  ASSERT_EQ(read(ready[0], &server, sizeof server), static_cast<ssize_t>(sizeof server));
  close(ready[0]);
  ASSERT_TRUE(Running(server));
  ASSERT_EQ(kill(owner, SIGKILL), 0);
  ASSERT_EQ(waitpid(owner, nullptr, 0), owner);
  EXPECT_TRUE(WaitUntil([&] { return !Running(server); }, 10)) << "the watched process is stopped";
  EXPECT_TRUE(WaitUntil([&] { return !fs::exists(dir_ / "made"); }, 10)) << "the guarded path is removed";
}

// A guard started before what it guards (the order that leaves no unguarded moment): the paths it is
// told later, one with a space too, are removed as the ones given at the start.
TEST_F(OrphanGuardTest, PathsAddedAfterTheStartAreRemovedToo) {
  fs::create_directories(dir_ / "later one");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t owner = fork();
  if (owner == 0) {
    close(ready[0]);
    auto guard = OrphanGuard::Start({(dir_ / "made").string()});
    if (!guard.ok() || !(*guard)->Add((dir_ / "later one").string()).ok()) _exit(1);
    if (!(*guard)->Add("two\nlines").IsInvalidArgument()) _exit(1);
    (void)!write(ready[1], "x", 1);
    pause();
    _exit(0);
  }
  close(ready[1]);
  char c = 0;
  ASSERT_EQ(read(ready[0], &c, 1), 1);
  close(ready[0]);
  ASSERT_EQ(kill(owner, SIGKILL), 0);
  ASSERT_EQ(waitpid(owner, nullptr, 0), owner);
  EXPECT_TRUE(WaitUntil([&] { return !fs::exists(dir_ / "made"); }, 10));
  EXPECT_TRUE(WaitUntil([&] { return !fs::exists(dir_ / "later one"); }, 10)) << "the added path is removed";
}

TEST_F(OrphanGuardTest, ADismissedGuardTouchesNothingAndIsReaped) {
  auto guard = OrphanGuard::Start({(dir_ / "made").string()});
  ASSERT_TRUE(guard.ok()) << guard.status().ToString();
  const pid_t watcher = (*guard)->watcher();
  EXPECT_TRUE(Running(watcher));
  (*guard)->Dismiss();
  EXPECT_FALSE(Running(watcher));
  EXPECT_TRUE(fs::exists(dir_ / "made" / "file"));
}

TEST_F(OrphanGuardTest, AProcessThatNoLongerWorksThereIsLeftAlone) {
  // The guard watches a pid whose process works elsewhere (as a recycled pid would): only the paths go.
  SpawnOptions o;
  o.argv = {"/bin/sleep", "60"};
  o.cwd = "/";
  Result<pid_t> other = Spawn(o);
  ASSERT_TRUE(other.ok());
  pid_t owner = fork();
  if (owner == 0) {
    auto guard = OrphanGuard::Start({(dir_ / "made").string()}, (dir_ / "made").string());
    if (!guard.ok() || !(*guard)->Watch(*other).ok()) _exit(1);
    _exit(0);  // ends without dismissing: the watcher sees end of file
  }
  ASSERT_EQ(waitpid(owner, nullptr, 0), owner);
  EXPECT_TRUE(WaitUntil([&] { return !fs::exists(dir_ / "made"); }, 10));
  EXPECT_TRUE(Running(*other)) << "not the process it was asked to watch";
  EXPECT_EQ(StopChild(*other, SIGTERM, std::chrono::seconds(5)).code, 128 + SIGTERM);
}

}  // namespace
}  // namespace dbxb
