#include "common/kill_on_exit.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dbxb {
namespace {

pid_t SleepingChild() {
  pid_t pid = fork();
  if (pid == 0) {
    pause();
    _exit(0);
  }
  return pid;
}

TEST(KillOnExitTest, ListedProcessesGetTheirSignalAndRemovedOnesDoNot) {
  pid_t listed = SleepingChild(), removed = SleepingChild();
  ASSERT_GT(listed, 0);
  ASSERT_GT(removed, 0);
  ASSERT_TRUE(AddToKillOnExitList(listed, SIGTERM));
  ASSERT_TRUE(AddToKillOnExitList(removed, SIGTERM));
  RemoveFromKillOnExitList(removed);
  KillProcessesOnExitList();
  int status = 0;
  ASSERT_EQ(waitpid(listed, &status, 0), listed);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_EQ(waitpid(removed, &status, WNOHANG), 0) << "a removed process is left alone";
  kill(removed, SIGKILL);
  waitpid(removed, &status, 0);
  RemoveFromKillOnExitList(listed);
}

TEST(KillOnExitTest, AFullListSaysSo) {
  int added = 0;
  while (AddToKillOnExitList(1'000'000 + added, 0)) ++added;  // signal 0: nothing is sent anywhere
  EXPECT_EQ(added, internal::kKillOnExitSlots);
  for (int i = 0; i < added; ++i) RemoveFromKillOnExitList(1'000'000 + i);
  EXPECT_TRUE(AddToKillOnExitList(42, 0));
  RemoveFromKillOnExitList(42);
}

}  // namespace
}  // namespace dbxb
