// common/sync/server_sync_counter.h: the tool's sync-counting library, preloaded into other programs,
// counts their fsync-like calls into one file, also across the processes they start.
#include "common/sync/server_sync_counter.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/spawn.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

TEST(ServerSyncCounterTest, CountsTheSyncsOfAPreloadedProgramAndItsChildren) {
  const fs::path dir = fs::temp_directory_path() / ("dbxb-sync-counter-" + std::to_string(getpid()));
  fs::create_directories(dir);
  auto counter = ServerSyncCounter::Create(dir.string(), std::nullopt);
  ASSERT_TRUE(counter.ok()) << counter.status().ToString();
  EXPECT_FALSE((*counter)->Read().has_value()) << "nothing loaded the library yet";

  SpawnOptions o;
  // dd conv=fsync calls fsync once, conv=fdatasync fdatasync once; the shell starts both.
  const std::string out = (dir / "f").string();
  o.argv = {"/bin/sh", "-c",
            "dd if=/dev/zero of=" + out + " bs=4k count=1 conv=fsync 2>/dev/null && dd if=/dev/zero of=" + out +
                " bs=4k count=1 conv=fdatasync 2>/dev/null"};
  o.env = (*counter)->Environment();
  o.env.push_back("PATH=/usr/bin:/bin");
  Result<pid_t> pid = Spawn(o);
  ASSERT_TRUE(pid.ok());
  auto ended = WaitChild(*pid, std::chrono::seconds(30));
  ASSERT_TRUE(ended.ok() && ended->has_value());
  ASSERT_EQ((*ended)->code, 0);
  ASSERT_TRUE((*counter)->Read().has_value()) << "the library was preloaded";
  EXPECT_EQ(*(*counter)->Read(), 2u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dbxb
