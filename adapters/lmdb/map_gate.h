// The LMDB adapter's map gate (adapters/lmdb/lmdb_adapter.cc only): lets the map grow while sessions
// of other threads hold transactions. No LMDB header here: it is plain synchronisation.
#pragma once

#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace dbxb::lmdb_internal {

// mdb_env_set_mapsize may only run while no transaction of this process is active. Every transaction
// therefore holds this gate shared; growing the map holds it exclusively. The turnstile stops new shared
// holders while a grower waits, so a steady stream of readers cannot starve it. A thread that already
// holds the gate (its batch is open while it reads through another session) must not queue behind a
// grower that waits for that very batch: it skips the turnstile, which the reader-preferring
// std::shared_mutex of glibc admits even while a grower waits.
class MapGate {
 public:
  void LockShared() {
    int& depth = Depth();
    if (depth == 0) {
      std::lock_guard<std::mutex> turn(turnstile_);
      rw_.lock_shared();
    } else {
      rw_.lock_shared();
    }
    ++depth;
  }
  void UnlockShared() {
    --Depth();
    rw_.unlock_shared();
  }
  void LockExclusive() {
    turnstile_.lock();
    rw_.lock();
  }
  void UnlockExclusive() {
    rw_.unlock();
    turnstile_.unlock();
  }

 private:
  // How often the calling thread holds this gate shared.
  int& Depth() {
    thread_local std::vector<std::pair<const MapGate*, int>> depths;
    for (auto& [gate, depth] : depths)
      if (gate == this) return depth;
    for (auto& [gate, depth] : depths)
      if (depth == 0) {
        gate = this;
        return depth;
      }
    return depths.emplace_back(this, 0).second;
  }

  std::mutex turnstile_;
  std::shared_mutex rw_;
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
