#include "common/thread_team.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace dbxb {
namespace {

TEST(ThreadTeamTest, EveryThreadRunsItsIndexOncePerRun) {
  ThreadTeam team(4);
  ASSERT_EQ(team.size(), 4u);
  std::vector<int> calls(4, 0);
  for (int run = 0; run < 100; ++run) {
    team.Run([&](uint32_t i) { ++calls[i]; });  // each index written by its own thread only
  }
  EXPECT_EQ(calls, std::vector<int>(4, 100));
}

TEST(ThreadTeamTest, ThreadZeroIsTheCallerAndTheOthersAreDistinct) {
  ThreadTeam team(3);
  std::vector<std::thread::id> ids(3);
  team.Run([&](uint32_t i) { ids[i] = std::this_thread::get_id(); });
  EXPECT_EQ(ids[0], std::this_thread::get_id());
  EXPECT_EQ(std::set<std::thread::id>(ids.begin(), ids.end()).size(), 3u);
}

TEST(ThreadTeamTest, RunReturnsOnlyWhenEveryCallReturned) {
  ThreadTeam team(3);
  std::atomic<int> finished{0};
  for (int run = 0; run < 50; ++run) {
    team.Run([&](uint32_t i) {
      if (i == 2) std::this_thread::sleep_for(std::chrono::microseconds(200));
      finished.fetch_add(1);
    });
    EXPECT_EQ(finished.load(), 3 * (run + 1));
  }
}

TEST(ThreadTeamTest, OneThreadRunsOnTheCaller) {
  ThreadTeam team(1);
  std::thread::id id;
  team.Run([&](uint32_t) { id = std::this_thread::get_id(); });
  EXPECT_EQ(id, std::this_thread::get_id());
}

}  // namespace
}  // namespace dbxb
