// DB::WaitForIdle: it returns only once no flush or compaction is queued or running.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "dbx/db.h"
#include "src/db_impl.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key_%09d", i);
  return buf;
}

Options SmallTiers() {
  Options o;
  o.durability = Durability::kNone;
  o.delta_flush_entries = 200;
  o.wos_flush_bytes = 32 << 10;
  o.block_size = 512;
  o.compaction_trigger = 3;
  o.write_buffer_limit_bytes = 0;  // writers never stall behind the paused background thread
  return o;
}

// Work queued behind a paused background thread: WaitForIdle must wait for all of it, and afterwards
// the background thread finds nothing more to do (no flush or compaction happens without new writes).
TEST(WaitForIdle, WaitsForQueuedFlushesAndCompactions) {
  test::TempDir dir;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(SmallTiers(), dir.Sub("db"), &db).ok());
  auto* impl = static_cast<DBImpl*>(db.get());
  const std::string value(100, 'v');
  // Segments of similar size, more than compaction_trigger of them: a compaction is due.
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(db->Put(WriteOptions(), Key(i), value).ok());
    if (i % 2000 == 1999) ASSERT_TRUE(db->Flush().ok());
  }
  impl->TEST_PauseBackground(true);
  // Paused, no job starts, and a compaction running when the pause was asked for no longer merges
  // deltas for writers. One merge already in flight may still retire one delta (seen under TSan,
  // where writes are slow, and in CI under I/O load): write on until two are left, so that at least
  // one is still waiting below.
  int written = 10000;
  while (written < 20000 || (db->GetStats().frozen_deltas < 2 && written < 400000)) {
    ASSERT_TRUE(db->Put(WriteOptions(), Key(written), value).ok());
    ++written;
  }
  ASSERT_GT(db->GetStats().frozen_deltas, 0u);

  std::thread resume([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    impl->TEST_PauseBackground(false);
  });
  ASSERT_TRUE(db->WaitForIdle().ok());
  resume.join();

  DbStats idle = db->GetStats();
  EXPECT_EQ(idle.frozen_deltas, 0u);
  EXPECT_EQ(idle.frozen_wos, 0u);
  EXPECT_LT(idle.wos_bytes, db->GetOptions().wos_flush_bytes);
  EXPECT_GT(idle.flushes, 0u);
  EXPECT_GT(idle.compactions, 0u);  // five similar segments were flushed, the trigger is 3
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  DbStats later = db->GetStats();
  EXPECT_EQ(later.flushes, idle.flushes);
  EXPECT_EQ(later.compactions, idle.compactions);
  EXPECT_EQ(later.segments, idle.segments);
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, static_cast<uint64_t>(written));
  ASSERT_TRUE(db->Close().ok());
}

TEST(WaitForIdle, ReturnsAtOnceOnAnIdleDatabaseAndFailsAfterClose) {
  test::TempDir dir;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(SmallTiers(), dir.Sub("db"), &db).ok());
  EXPECT_TRUE(db->WaitForIdle().ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  EXPECT_TRUE(db->WaitForIdle().ok());
  ASSERT_TRUE(db->Close().ok());
  EXPECT_TRUE(db->WaitForIdle().IsInvalidArgument());
}

}  // namespace
}  // namespace dbx
