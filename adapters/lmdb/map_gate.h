// The LMDB adapter's map gate (adapters/lmdb/lmdb_adapter.cc only): lets the map grow while sessions
// of other threads hold transactions. No LMDB header here: it is plain synchronisation.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>

namespace dbxb::lmdb_internal {

// mdb_env_set_mapsize may only run while no transaction of this process is active. Every transaction
// therefore holds this gate shared; growing the map holds it exclusively. The turnstile stops new shared
// holders while a grower waits, so a steady stream of readers cannot starve it. A thread that already
// holds the gate (its batch is open while it reads through another session) must not queue behind a
// grower that waits for that very batch: it skips the turnstile.
//
// Every read takes the gate, so its shared side costs one read-modify-write to take and one to release
// (plus a look-up in a thread-local table that needs no initialisation); the rare exclusive side waits
// by yielding.
class MapGate {
 public:
  void LockShared() {
    int* depth = Depth();
    // A thread that holds the gate already, or whose depth this table cannot track, skips the turnstile.
    if ((depth == nullptr || *depth == 0) && growers_.load(std::memory_order_acquire) != 0) {
      std::lock_guard<std::mutex> turn(turnstile_);  // behind the waiting grower
    }
    while (state_.fetch_add(1, std::memory_order_acquire) & kExclusive) {
      state_.fetch_sub(1, std::memory_order_relaxed);
      while (state_.load(std::memory_order_relaxed) & kExclusive) std::this_thread::yield();
    }
    if (depth != nullptr) ++*depth;
  }
  void UnlockShared() {
    if (int* depth = Depth(); depth != nullptr) --*depth;
    state_.fetch_sub(1, std::memory_order_release);
  }
  void LockExclusive() {
    growers_.fetch_add(1, std::memory_order_acq_rel);
    turnstile_.lock();
    uint64_t idle = 0;
    while (!state_.compare_exchange_weak(idle, kExclusive, std::memory_order_acquire, std::memory_order_relaxed)) {
      idle = 0;
      std::this_thread::yield();
    }
  }
  void UnlockExclusive() {
    state_.fetch_sub(kExclusive, std::memory_order_release);
    growers_.fetch_sub(1, std::memory_order_acq_rel);
    turnstile_.unlock();
  }

 private:
  static constexpr uint64_t kExclusive = uint64_t{1} << 62;
  static constexpr int kTrackedGates = 8;

  // How often the calling thread holds this gate shared; nullptr when the thread already tracks
  // kTrackedGates other gates it holds (it then always skips the turnstile: no deadlock, only the
  // starvation guard is lost for that thread).
  int* Depth() {
    // Zero-initialised and trivially destructible: no guard or constructor call on access.
    struct Held {
      const MapGate* gate[kTrackedGates];
      int depth[kTrackedGates];
    };
    thread_local Held held;
    int free = -1;
    for (int i = 0; i < kTrackedGates; ++i) {
      if (held.gate[i] == this) return &held.depth[i];
      if (free < 0 && held.depth[i] == 0) free = i;
    }
    if (free < 0) return nullptr;
    held.gate[free] = this;
    return &held.depth[free];
  }

  std::atomic<uint64_t> state_{0};    // shared holders, plus kExclusive while a grower holds the gate
  std::atomic<uint32_t> growers_{0};  // growers waiting or holding
  std::mutex turnstile_;
};

class SharedHold {
 public:
  explicit SharedHold(MapGate* gate) : gate_(gate) { gate_->LockShared(); }
  ~SharedHold() { gate_->UnlockShared(); }
  SharedHold(const SharedHold&) = delete;
  SharedHold& operator=(const SharedHold&) = delete;

 private:
  MapGate* gate_;
};

}  // namespace dbxb::lmdb_internal
