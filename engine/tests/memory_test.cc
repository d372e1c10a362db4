// The memory model: sizes derived from Options::memory_budget_bytes, the compaction pick, and that
// sustained writes keep the in-memory tiers bounded by the budget (not by the data size), with
// backpressure that stalls writers instead of piling up frozen tables, and never deadlocks.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "dbx/db.h"
#include "src/compaction_pick.h"
#include "src/db_impl.h"
#include "src/memory_budget.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

constexpr size_t kMiB = size_t{1} << 20;
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
constexpr int kScale = 8;  // sanitizers are ~30x slower; the data still outgrows the budget
#else
constexpr int kScale = 1;
#endif

std::string Key(int writer, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "w%02d_key_%09d", writer, i);
  return buf;
}

// 500 bytes that differ per key and do not compress to nothing.
std::string Value(int writer, int i) {
  std::string v(500, 'a');
  uint64_t x = (static_cast<uint64_t>(writer) << 32 | static_cast<uint64_t>(i)) * 0x9e3779b97f4a7c15ull + 1;
  for (char& c : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>('!' + x % 90);
  }
  return v;
}

uint64_t WriteTierBytes(const DbStats& s) {
  return s.delta_bytes + s.frozen_delta_bytes + s.wos_bytes + s.frozen_wos_bytes;
}

TEST(MemoryBudget, NoBudgetKeepsTheDefaults) {
  Options o = ResolveOptions(Options());
  EXPECT_EQ(o.memory_budget_bytes, 0u);
  EXPECT_EQ(o.delta_flush_bytes, 0u);
  EXPECT_EQ(o.wos_flush_bytes, 128 * kMiB);
  EXPECT_EQ(o.columnar_cache_bytes, 256 * kMiB);
  EXPECT_EQ(o.block_cache_bytes, 64 * kMiB);
  EXPECT_EQ(o.write_buffer_limit_bytes, 512 * kMiB);
  EXPECT_EQ(o.bytes_per_sync, 0u);
}

TEST(MemoryBudget, BudgetIsSplitBetweenTheTiers) {
  Options in;
  in.memory_budget_bytes = 32 * kMiB;
  Options o = ResolveOptions(in);
  EXPECT_EQ(o.block_cache_bytes, 8 * kMiB);
  EXPECT_EQ(o.columnar_cache_bytes, 4 * kMiB);
  EXPECT_EQ(o.wos_flush_bytes, 4 * kMiB);
  EXPECT_EQ(o.delta_flush_bytes, 2 * kMiB);
  EXPECT_EQ(o.write_buffer_limit_bytes, 14 * kMiB);
  EXPECT_EQ(o.bytes_per_sync, 1 * kMiB);
  EXPECT_LE(o.block_cache_bytes + o.columnar_cache_bytes + o.delta_flush_bytes + o.write_buffer_limit_bytes,
            in.memory_budget_bytes);
}

TEST(MemoryBudget, ExplicitSizesWin) {
  Options in;
  in.memory_budget_bytes = 32 * kMiB;
  in.block_cache_bytes = 0;  // disabled stays disabled
  in.wos_flush_bytes = 1 * kMiB;
  Options o = ResolveOptions(in);
  EXPECT_EQ(o.block_cache_bytes, 0u);
  EXPECT_EQ(o.wos_flush_bytes, 1 * kMiB);
  EXPECT_EQ(o.columnar_cache_bytes, 4 * kMiB);
}

TEST(MemoryBudget, OpenReportsTheResolvedOptions) {
  test::TempDir dir;
  Options in;
  in.memory_budget_bytes = 8 * kMiB;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(in, dir.Sub("db"), &db).ok());
  const Options& o = db->GetOptions();
  EXPECT_EQ(o.memory_budget_bytes, 8 * kMiB);
  EXPECT_EQ(o.block_cache_bytes, 2 * kMiB);
  EXPECT_EQ(o.wos_flush_bytes, 1 * kMiB);
  EXPECT_NE(o.write_buffer_limit_bytes, Options::kAuto);
  EXPECT_NE(o.delta_flush_bytes, Options::kAuto);
}

TEST(CompactionPick, MergesTheNewestRunOfSimilarSizes) {
  EXPECT_EQ(PickCompaction({4, 4, 4}, 4), 0u);  // too few segments
  EXPECT_EQ(PickCompaction({4, 4, 4, 4}, 4), 4u);
  EXPECT_EQ(PickCompaction({4, 4, 4, 100}, 4), 0u);             // 100 > 2 x 12: the run is 3 long
  EXPECT_EQ(PickCompaction({4, 4, 4, 4, 100}, 4), 4u);          // the big old one stays
  EXPECT_EQ(PickCompaction({4, 4, 4, 4, 16, 44, 100}, 4), 7u);  // 16 <= 32, 44 <= 64, 100 <= 152
  EXPECT_EQ(PickCompaction({1, 3, 7, 15}, 4), 0u);              // each older one > 2x the newer ones
  EXPECT_EQ(PickCompaction({1, 3, 7, 15, 31, 63}, 2), 6u);      // ... until there are 3 x trigger
  EXPECT_EQ(PickCompaction({4, 4, 4, 4}, 0), 0u);               // background compaction off
}

// A 4 MiB budget, 50 MB written (6 MB under sanitizers): the write tiers' accounting stays within the budget all along,
// the caches within their shares, and everything is there after reopening.
TEST(MemoryBudget, SustainedWritesStayWithinTheBudget) {
  test::TempDir dir;
  Options o;
  o.memory_budget_bytes = 4 * kMiB;
  o.durability = Durability::kNone;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
  const Options& ro = db->GetOptions();
  constexpr int kRows = 100'000 / kScale;  // x 500-byte values: 50 MB
  uint64_t max_tiers = 0;
  for (int i = 0; i < kRows; i += 100) {
    WriteBatch b;
    for (int j = i; j < i + 100; ++j) b.Put(Key(0, j), Value(0, j));
    ASSERT_TRUE(db->Write(WriteOptions(), b).ok());
    DbStats s = db->GetStats();
    max_tiers = std::max(max_tiers, WriteTierBytes(s));
    ASSERT_LE(s.block_cache_bytes, ro.block_cache_bytes + 16 * 8 * ro.block_size);  // >= 1 block per shard
  }
  DbStats s = db->GetStats();
  // 50 MB through a 512 KiB WOS: ~100 flushes, fewer when the background thread lags (a WOS may
  // overshoot by a merged delta store, up to 256 KiB), never fewer than half as many.
  EXPECT_GT(s.flushes, 50u / kScale);
  EXPECT_LE(max_tiers, o.memory_budget_bytes);
  EXPECT_LE(s.write_buffer_peak_bytes, o.memory_budget_bytes);
  EXPECT_GT(s.write_buffer_peak_bytes, 0u);
  // The compaction buffers hold blocks, not segments: far below the 50 MB compacted.
  EXPECT_GT(s.compactions, 0u);
  EXPECT_LE(s.compaction_peak_bytes, o.memory_budget_bytes);
  // Tier 4 grows with the data (one index entry per block, ~10 bits per key): ~2% of it here.
  EXPECT_LE(s.segment_index_bytes, 2 * kMiB);
  ASSERT_TRUE(db->Close().ok());

  db.reset();
  ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, static_cast<uint64_t>(kRows));
  int next = 0;
  bool in_order = true;
  ASSERT_TRUE(db->Scan(ReadOptions(), {}, {}, 0, [&](std::string_view k, std::string_view v) {
                  in_order = in_order && k == Key(0, next) && v == Value(0, next);
                  ++next;
                  return in_order;
                }).ok());
  EXPECT_TRUE(in_order) << "first mismatch at row " << next - 1;
  EXPECT_EQ(next, kRows);
  // A full scan larger than the columnar cache's share builds no cache.
  EXPECT_EQ(db->GetStats().columnar_cache_bytes, 0u);
  ASSERT_TRUE(db->Close().ok());
}

// Writers outrun a paused background thread: they stall once the frozen tables pass the limit
// (instead of piling up), and all of them finish once it resumes.
TEST(MemoryBudget, BackpressureStallsConcurrentWritersWithoutDeadlock) {
  test::TempDir dir;
  Options o;
  o.memory_budget_bytes = 2 * kMiB;
  o.durability = Durability::kNormal;
  o.wal_sync_interval_ms = 5;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
  auto* impl = static_cast<DBImpl*>(db.get());
  const uint64_t limit = db->GetOptions().write_buffer_limit_bytes;
  const uint64_t delta = db->GetOptions().delta_flush_bytes;
  impl->TEST_PauseBackground(true);

  constexpr int kWriters = 4, kRowsEach = 8000 / kScale;  // 16 MB in all (2 MB under sanitizers)
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < kRowsEach; i += 10) {
        WriteBatch b;
        for (int j = i; j < i + 10; ++j) b.Put(Key(w, j), Value(w, j));
        if (!db->Write(WriteOptions(), b).ok()) failures.fetch_add(1);
      }
    });
  }
  // Wait until the writers are held back by the stall (they cannot finish while paused).
  DbStats s = db->GetStats();
  while (s.write_stalls == 0) {
    std::this_thread::yield();
    s = db->GetStats();
  }
  // Stalled: the queued tables passed the limit by at most one frozen delta store (plus one group).
  EXPECT_LE(s.frozen_delta_bytes + s.wos_bytes + s.frozen_wos_bytes, limit + delta + 2 * kMiB);
  EXPECT_LT(s.last_sequence, static_cast<uint64_t>(kWriters * kRowsEach));
  impl->TEST_PauseBackground(false);
  for (auto& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);

  s = db->GetStats();
  EXPECT_GT(s.write_stalls, 0u);
  EXPECT_LE(s.write_buffer_peak_bytes, limit + 2 * delta + 2 * kMiB);
  uint64_t n = 0;
  ASSERT_TRUE(db->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, static_cast<uint64_t>(kWriters * kRowsEach));
  std::string v;
  for (int w = 0; w < kWriters; ++w) {
    ASSERT_TRUE(db->Get(ReadOptions(), Key(w, kRowsEach - 1), &v).ok());
    EXPECT_EQ(v, Value(w, kRowsEach - 1));
  }
  ASSERT_TRUE(db->Close().ok());
}

// After a flush or a compaction the background thread hands the freed heap back to the OS (the
// write buffer just written, the compaction's buffers), unless release_freed_memory is off.
TEST(MemoryBudget, FlushesAndCompactionsReleaseFreedMemory) {
  EXPECT_TRUE(Options().release_freed_memory);  // on unless turned off
  for (bool release : {true, false}) {
    test::TempDir dir;
    Options o;
    o.memory_budget_bytes = 2 * kMiB;
    o.durability = Durability::kNone;
    o.release_freed_memory = release;
    std::unique_ptr<DB> db;
    ASSERT_TRUE(DB::Open(o, dir.Sub("db"), &db).ok());
    for (int i = 0; i < 8000; i += 100) {  // 4 MB: twice the budget, so the WOS is flushed
      WriteBatch b;
      for (int j = i; j < i + 100; ++j) b.Put(Key(0, j), Value(0, j));
      ASSERT_TRUE(db->Write(WriteOptions(), b).ok());
    }
    ASSERT_TRUE(db->WaitForIdle().ok());
    const DbStats s = db->GetStats();
    ASSERT_GT(s.flushes, 0u);
    if (release)
      EXPECT_GT(s.memory_releases, 0u);  // writers that flush while stalled do not release; the thread does
    else
      EXPECT_EQ(s.memory_releases, 0u);
    ASSERT_TRUE(db->Close().ok());
  }
}

}  // namespace
}  // namespace dbx
