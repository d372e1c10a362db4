// The adapter contract under concurrency and volume: several sessions at once, a big batch while readers
// run, a large load in batches, settling after a load, several processes opening one new database. The engines are
// the cases of conformance_fixture.h; the suite is instantiated in conformance_test.cc.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "adapters/conformance_fixture.h"

namespace dbxb {
namespace conformance {
namespace {

// Two writer threads (single writes and batches) and two reader threads, each with its own session.
// Readers must only ever see committed values; the final state must hold every write. With a tiny
// cache_bytes and 3 KB values, the engines' caches and write buffers overflow while the readers run.
TEST_P(ConformanceTest, ConcurrentSessions) {
  ASSERT_NO_FATAL_FAILURE(CloseAndReopen(kTinyCacheBytes));
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kWriters = 2, kReaders = 2, kKeysPerWriter = 200, kBatch = 10;
  auto key = [](int w, int i) { return Numbered(Numbered("w", w) + "-", 1000 + i); };
  auto val = [](const std::string& k, int version) { return ValueFor(k, version) + std::string(3000, 'p'); };
  std::atomic<int> writers_done{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      std::unique_ptr<Session> s = NewSession();
      ASSERT_NE(s, nullptr);
      for (int i = 0; i < kKeysPerWriter; i += kBatch) {
        bool batched = (i / kBatch) % 2 == 1;
        if (batched) {
          ASSERT_TRUE(s->Begin().ok());
        }
        for (int j = i; j < i + kBatch; ++j) {
          Status st = s->Put(key(w, j), val(key(w, j), 1));
          ASSERT_TRUE(st.ok()) << st.ToString();
        }
        if (batched) {
          ASSERT_TRUE(s->Commit().ok());
        }
      }
      for (int i = 0; i < kKeysPerWriter; i += 4) {  // overwrite every 4th key, delete every 20th
        ASSERT_TRUE(s->Put(key(w, i), val(key(w, i), 2)).ok());
        if (i % 20 == 0) {
          ASSERT_TRUE(s->Delete(key(w, i)).ok());
        }
      }
      writers_done.fetch_add(1);
    });
  }
  for (int r = 0; r < kReaders; ++r) {
    threads.emplace_back([&, r] {
      std::unique_ptr<Session> s = NewSession();
      ASSERT_NE(s, nullptr);
      std::mt19937 rng(r);
      int rounds = 0;
      while (writers_done.load() < kWriters || rounds < 20) {
        ++rounds;
        int w = rng() % kWriters, i = rng() % kKeysPerWriter;
        std::string k = key(w, i), value;
        Status st = s->Get(k, &value);
        if (!st.IsNotFound()) {
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_TRUE(value == val(k, 1) || value == val(k, 2)) << k << " = " << value;
        }
        std::string prev;
        st = s->Scan(k, 20, [&](std::string_view sk, std::string_view sv) {
          EXPECT_LT(prev, std::string(sk));
          std::string skey(sk);
          EXPECT_TRUE(sv == val(skey, 1) || sv == val(skey, 2)) << skey;
          prev = std::move(skey);
          return true;
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
        uint64_t n = 0;
        ASSERT_TRUE(s->Count(&n).ok());
        ASSERT_LE(n, uint64_t{kWriters * kKeysPerWriter});
      }
    });
  }
  for (auto& t : threads) t.join();

  Session* s = session_.get();
  uint64_t expected_count = 0;
  for (int w = 0; w < kWriters; ++w) {
    for (int i = 0; i < kKeysPerWriter; ++i) {
      std::string want = i % 20 == 0 ? "<NotFound>" : val(key(w, i), i % 4 == 0 ? 2 : 1);
      EXPECT_EQ(Get(s, key(w, i)), want) << key(w, i);
      expected_count += i % 20 != 0;
    }
  }
  EXPECT_EQ(Count(s), expected_count);
  EXPECT_EQ(Scan(s, "").size(), expected_count);
  if (map_before != "<absent>") {
    EXPECT_EQ(NativeSetting("map_size_bytes"), map_before) << "LMDB's map is sized once, at open";
  }
}

// One batch of 6 MB, aborted and then committed, while reader sessions run. Readers see the committed
// rows throughout and the batch's rows only after its Commit; afterwards new batches and single writes
// still work (nothing was left held). The cache is the tool's default --cache-size, 64 MB: some engines
// hold a batch's updates in their cache until it commits, and WiredTiger 11 rolls a transaction back once
// they outgrow a tenth of it (eviction_updates_trigger; 3.2 spilled them to its lookaside file). A batch
// larger than the cache budget is not what this test is about.
TEST_P(ConformanceTest, BigBatchWhileReadersRun) {
  ASSERT_NO_FATAL_FAILURE(CloseAndReopen(64ull << 20));
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kBase = 100, kBig = 2000, kReaders = 3;
  auto big_key = [](int i) { return Numbered("big", 10000 + i); };
  auto big_value = [](const std::string& k) { return ValueFor(k, 1) + std::string(3000, 'g'); };
  Session* s = session_.get();
  for (int i = 0; i < kBase; ++i) Put(s, Numbered("base", 1000 + i), ValueFor(Numbered("base", 1000 + i), 1));

  std::atomic<int> stage{0};  // 0: the batch will be aborted, 1: committing, 2: done
  std::atomic<uint64_t> reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r] {
      std::unique_ptr<Session> rs = NewSession();
      ASSERT_NE(rs, nullptr);
      std::mt19937 rng(r);
      while (stage.load() < 2 || reads.load() < 50) {
        std::string k = Numbered("base", 1000 + static_cast<int>(rng() % kBase)), value;
        Status st = rs->Get(k, &value);
        ASSERT_TRUE(st.ok()) << k << ": " << st.ToString();
        ASSERT_EQ(value, ValueFor(k, 1));
        std::string b = big_key(static_cast<int>(rng() % kBig));
        st = rs->Get(b, &value);
        // Still stage 0 after the read: the read ended before the aborted batch did.
        if (stage.load() == 0) {
          ASSERT_TRUE(st.IsNotFound()) << b << " visible while its batch was open";
        }
        if (!st.IsNotFound()) {
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_EQ(value, big_value(b));
        }
        uint64_t rows = 0;
        st = rs->Scan("base", 20, [&](std::string_view key, std::string_view) {
          ++rows;
          return key.substr(0, 4) == "base";
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
        ASSERT_EQ(rows, 20u);
        reads.fetch_add(1);
      }
    });
  }
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(s->Begin().ok());
    for (int i = 0; i < kBig; ++i) {
      Status st = s->Put(big_key(i), big_value(big_key(i)));
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
    if (round == 0) {
      ASSERT_TRUE(s->Abort().ok());
      stage.store(1);
    } else {
      Status st = s->Commit();
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
  }
  stage.store(2);
  for (auto& t : readers) t.join();

  EXPECT_EQ(Count(s), uint64_t{kBase + kBig});
  for (int i = 0; i < kBig; i += 199) EXPECT_EQ(Get(s, big_key(i)), big_value(big_key(i)));
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "after-batch", "1");
  ASSERT_TRUE(s->Commit().ok());
  Put(s, "after-single", std::string(100000, 's'));
  EXPECT_EQ(Get(session_.get(), "after-batch"), "1");
  if (map_before != "<absent>") {
    EXPECT_EQ(NativeSetting("map_size_bytes"), map_before) << "LMDB's map is sized once, at open";
  }
}

// 20k rows in batches of 100 with a tiny cache_bytes, then a reopen that must see them all and take
// more writes. A batch stays well under a tenth of WiredTiger's smallest cache (1 MB): WiredTiger 11
// rolls back a transaction whose updates outgrow that (eviction_updates_trigger), as a 1000-row batch did.
TEST_P(ConformanceTest, LargeLoadInBatches) {
  ASSERT_NO_FATAL_FAILURE(CloseAndReopen(kTinyCacheBytes));
  Session* s = session_.get();
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kRows = 20'000, kBatch = 100;
  auto key = [](int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "row%08d", i);
    return std::string(buf);
  };
  auto value = [](int i) { return std::string(100, static_cast<char>('a' + i % 26)) + std::to_string(i); };
  for (int i = 0; i < kRows; i += kBatch) {
    ASSERT_TRUE(s->Begin().ok());
    for (int j = i; j < i + kBatch; ++j) Put(s, key(j), value(j));
    Status st = s->Commit();
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = 0; i < kRows; i += 997) EXPECT_EQ(Get(s, key(i)), value(i));
  if (map_before != "<absent>") {
    EXPECT_EQ(NativeSetting("map_size_bytes"), map_before) << "LMDB's map is sized once, at open";
  }

  ASSERT_NO_FATAL_FAILURE(CloseAndReopen(kTinyCacheBytes));
  s = session_.get();
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = kRows; i < kRows + 300; ++i) Put(s, key(i), value(i));  // single writes after the reopen
  Rows rows = Scan(s, "");
  ASSERT_EQ(rows.size(), size_t{kRows + 300});
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(rows.back(), Row(key(kRows + 299), value(kRows + 299)));
}

// Settle waits for background work; the data written before it is all there afterwards, and the
// adapter says what it waited for.
TEST_P(ConformanceTest, SettleAfterALoadKeepsEveryRow) {
  Session* s = session_.get();
  constexpr int kRows = 20'000, kBatch = 100;
  for (int i = 0; i < kRows; i += kBatch) {
    ASSERT_TRUE(s->Begin().ok());
    for (int j = i; j < i + kBatch; ++j) Put(s, Numbered("settle", j), std::string(200, 'v'));
    ASSERT_TRUE(s->Commit().ok());
  }
  Status settled = adapter_->Settle();
  ASSERT_TRUE(settled.ok()) << settled.ToString();
  EXPECT_NE(NativeSetting("settle"), "<absent>");
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = 0; i < kRows; i += 499) EXPECT_EQ(Get(s, Numbered("settle", i)), std::string(200, 'v'));
  Put(s, "after", "settle");  // still writable
  EXPECT_EQ(Get(s, "after"), "settle");
  EXPECT_TRUE(adapter_->Settle().ok());
}

// An engine that several processes may share (AdapterFactory::multi_process, as `run --clients` uses it)
// opens one new database from several processes at the same moment: every open succeeds and every
// process's write is there. (SQLite's journal_mode=WAL once failed here with "database is locked".)
TEST_P(ConformanceTest, ProcessesOpeningOneNewDatabaseTogetherAllSucceed) {
  if (!factory_->multi_process || factory_->start_shared_server)
    GTEST_SKIP() << "not opened by several processes (or they share a server)";
  constexpr int kProcesses = 4, kRounds = 8;
  for (int round = 0; round < kRounds; ++round) {
    AdapterOptions options;
    options.dir = (dir_ / Numbered("shared-", round)).string();
    options.durability = durability();
    options.cache_bytes = kTestCacheBytes;
    options.native_options = engine().native_options;
    int start[2];
    ASSERT_EQ(pipe(start), 0);
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {  // the child: waits for the start, opens, writes its key, closes; exit 0 only if all worked
        close(start[1]);
        char c;
        (void)!read(start[0], &c, 1);
        auto adapter = factory_->open(options);
        if (!adapter.ok()) _exit(10);
        auto session = (*adapter)->NewSession();
        if (!session.ok() || !(*session)->Put(Numbered("process-", p), "v").ok()) _exit(11);
        session->reset();
        _exit((*adapter)->Close().ok() ? 0 : 12);
      }
      children.push_back(pid);
    }
    close(start[0]);
    close(start[1]);  // every child's read returns at once
    for (pid_t pid : children) {
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
          << "round " << round << ": a process's open, write or close failed (status " << status << ")";
    }
    auto adapter = factory_->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    auto session = (*adapter)->NewSession();
    ASSERT_TRUE(session.ok());
    for (int p = 0; p < kProcesses; ++p) EXPECT_EQ(Get(session->get(), Numbered("process-", p)), "v") << round;
    session->reset();
    EXPECT_TRUE((*adapter)->Close().ok());
  }
}

}  // namespace
}  // namespace conformance
}  // namespace dbxb
