// DB::WaitForIdle: it returns only once no flush or compaction is queued or running.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
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

// A flush serviced inside a running compaction puts a small segment in front of the compaction's
// inputs, after which the size-tiered picker no longer asks for a compaction (a settle's Flush while
// the load's last compaction runs). WaitForIdle must still wait for the running one.
TEST(WaitForIdle, WaitsForARunningCompactionTheFlushInFrontOfItHidesFromThePicker) {
  test::TempDir dir;
  std::unique_ptr<DB> db;
  Options o;
  o.durability = Durability::kNone;
  o.block_size = 512;
  o.wos_flush_bytes = 64 << 20;  // segments are cut by the Flush() calls below
  o.compaction_trigger = 4;
  o.write_buffer_limit_bytes = 0;
  ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
  auto* impl = static_cast<DBImpl*>(db.get());

  // The hook tells the test the compaction runs, slows it until the small flush is in (so the flush is
  // serviced inside it), then holds it until the test releases it.
  std::mutex m;
  std::condition_variable cv;
  bool started = false, flushed = false, held = false, release = false;
  impl->TEST_SetCompactionStepHook([&] {
    std::unique_lock<std::mutex> l(m);
    if (!started) {
      started = true;
      cv.notify_all();
    }
    if (!flushed) {
      cv.wait_for(l, std::chrono::milliseconds(5));
      return;
    }
    held = true;
    cv.notify_all();
    cv.wait_for(l, std::chrono::seconds(10), [&] { return release; });
  });

  // Four similar segments: the fourth flush makes a compaction of them due.
  const std::string value(100, 'v');
  for (int i = 0; i < 80000; ++i) {
    ASSERT_TRUE(db->Put(WriteOptions(), Key(i), value).ok());
    if (i % 20000 == 19999) ASSERT_TRUE(db->Flush().ok());
  }
  {
    std::unique_lock<std::mutex> l(m);
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(10), [&] { return started; })) << "no compaction started";
  }
  ASSERT_TRUE(db->Put(WriteOptions(), "z_small", value).ok());
  ASSERT_TRUE(db->Flush().ok());  // serviced by the running compaction, between two of its steps
  {
    std::unique_lock<std::mutex> l(m);
    flushed = true;
    cv.notify_all();
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(10), [&] { return held; }))
        << "the compaction ended before the small flush was in: the test did not set up its case";
  }
  EXPECT_EQ(db->GetStats().compactions, 0u);
  EXPECT_EQ(db->GetStats().segments, 5u);

  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    EXPECT_TRUE(db->WaitForIdle().ok());
    returned = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(returned.load()) << "WaitForIdle returned while a compaction was running";
  {
    std::lock_guard<std::mutex> l(m);
    release = true;
    cv.notify_all();
  }
  waiter.join();
  EXPECT_EQ(db->GetStats().compactions, 1u);
  EXPECT_EQ(db->GetStats().segments, 2u);  // the small segment and the compaction's output
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), "z_small", &v).ok());
  EXPECT_TRUE(db->Get(ReadOptions(), Key(0), &v).ok());
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
