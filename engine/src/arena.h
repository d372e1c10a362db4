// Arena: bump allocation for the delta store and WOS. Memory is freed only when the arena is
// destroyed, which is what lets readers walk nodes without locks. Single writer; MemoryUsage() may
// be read from any thread. Blocks are mapped memory from buffer_pool, not malloc: a destroyed arena's
// blocks go back to that small process-wide pool (the rest to the system), so a new delta store reuses
// pages already mapped instead of faulting in fresh ones, and RSS does not keep freed blocks (through
// malloc, freed 256 KiB blocks raised glibc's mmap threshold and then stayed in the heap, which let RSS
// run well past the memory budget).
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "src/buffer_pool.h"

namespace dbx {

class Arena {
 public:
  Arena() = default;
  ~Arena() {
    for (const auto& [p, n] : blocks_) buffer_pool::Give(p, n);
  }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// Returns 8-byte aligned uninitialised memory.
  char* Allocate(size_t bytes) {
    bytes = (bytes + 7) & ~size_t{7};
    if (bytes <= remaining_) {
      char* r = ptr_;
      ptr_ += bytes;
      remaining_ -= bytes;
      return r;
    }
    return AllocateSlow(bytes);
  }
  size_t MemoryUsage() const { return usage_.load(std::memory_order_relaxed); }

 private:
  static constexpr size_t kBlockSize = 256 * 1024;
  char* AllocateSlow(size_t bytes) {
    if (bytes > kBlockSize / 4) return NewBlock(bytes);  // big objects get their own block
    ptr_ = NewBlock(kBlockSize);
    remaining_ = kBlockSize - bytes;
    char* r = ptr_;
    ptr_ += bytes;
    return r;
  }
  char* NewBlock(size_t bytes) {
    char* p = buffer_pool::Take(bytes);
    blocks_.emplace_back(p, bytes);
    usage_.store(usage_.load(std::memory_order_relaxed) + bytes + sizeof(blocks_[0]), std::memory_order_relaxed);
    return p;
  }

  char* ptr_ = nullptr;
  size_t remaining_ = 0;
  std::vector<std::pair<char*, size_t>> blocks_;  // from buffer_pool, with the sizes asked for
  std::atomic<size_t> usage_{0};
};

}  // namespace dbx
