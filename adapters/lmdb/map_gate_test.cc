#include "adapters/lmdb/map_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace dbxb::lmdb_internal {
namespace {

using namespace std::chrono_literals;

TEST(MapGate, GrowerExcludesEveryReader) {
  MapGate gate;
  std::atomic<int> readers{0};
  std::atomic<bool> overlap{false}, stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&] {
      while (!stop.load()) {
        SharedHold hold(&gate);
        readers.fetch_add(1);
        readers.fetch_sub(1);
      }
    });
  }
  for (int g = 0; g < 200; ++g) {
    gate.LockExclusive();
    if (readers.load() != 0) overlap = true;
    std::this_thread::yield();
    if (readers.load() != 0) overlap = true;
    gate.UnlockExclusive();
  }
  stop = true;
  for (auto& t : threads) t.join();
  EXPECT_FALSE(overlap.load());
}

TEST(MapGate, GrowerIsNotStarvedByOverlappingReaders) {
  // Two readers whose holds overlap keep the gate held all the time; the turnstile lets the grower in.
  MapGate gate;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      while (!stop.load()) {
        SharedHold hold(&gate);
        std::this_thread::sleep_for(50us);
      }
    });
  }
  std::this_thread::sleep_for(5ms);
  for (int g = 0; g < 20; ++g) {
    gate.LockExclusive();
    gate.UnlockExclusive();
  }
  stop = true;
  for (auto& t : threads) t.join();
}

TEST(MapGate, HolderReadsAgainWhileAGrowerWaits) {
  // The thread's batch holds the gate; a grower waits for it; the same thread reads once more (through
  // another session) and must get in, or the batch never ends.
  MapGate gate;
  gate.LockShared();
  std::atomic<bool> grown{false};
  std::thread grower([&] {
    gate.LockExclusive();
    grown = true;
    gate.UnlockExclusive();
  });
  std::this_thread::sleep_for(10ms);  // the grower is now waiting
  gate.LockShared();
  EXPECT_FALSE(grown.load());
  gate.UnlockShared();
  EXPECT_FALSE(grown.load());
  gate.UnlockShared();
  grower.join();
  EXPECT_TRUE(grown.load());
}

TEST(MapGate, ManyGatesHeldByOneThread) {
  // More gates than the thread-local table tracks: the extra ones still lock and unlock correctly.
  std::vector<MapGate> gates(20);
  for (auto& g : gates) g.LockShared();
  std::thread grower([&] {
    gates.back().LockExclusive();
    gates.back().UnlockExclusive();
  });
  std::this_thread::sleep_for(5ms);
  for (auto& g : gates) g.UnlockShared();
  grower.join();
  for (auto& g : gates) {  // all free again: an exclusive hold succeeds at once
    g.LockExclusive();
    g.UnlockExclusive();
  }
}

}  // namespace
}  // namespace dbxb::lmdb_internal
