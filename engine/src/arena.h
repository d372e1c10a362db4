// Arena: bump allocation for the delta store and WOS. Memory is freed only when the arena is
// destroyed, which is what lets readers walk nodes without locks. Single writer; MemoryUsage() may
// be read from any thread. Blocks are mapped from the kernel directly (mmap), so a destroyed arena
// returns its memory to the system: through malloc, freed 256 KiB blocks raise glibc's mmap
// threshold and then stay in the heap, which let RSS run well past the memory budget. A small
// process-wide pool (at most kPooledBlocks standard blocks, 4 MiB) keeps recently freed blocks for
// the next arena, so that a new delta store does not page-fault in fresh memory every time.
#pragma once

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

#include "src/mutex.h"

namespace dbx {

class Arena {
 public:
  Arena() = default;
  ~Arena() {
    for (const auto& [p, n] : blocks_) Release(p, n);
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
    char* p = bytes == kBlockSize ? Pool().Take() : nullptr;
    if (p == nullptr) {
      void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();  // as operator new would
      p = static_cast<char*>(m);
    }
    blocks_.emplace_back(p, bytes);
    usage_.store(usage_.load(std::memory_order_relaxed) + bytes + sizeof(blocks_[0]), std::memory_order_relaxed);
    return p;
  }
  static void Release(char* p, size_t bytes) {
    if (bytes != kBlockSize || !Pool().Give(p)) ::munmap(p, bytes);
  }

  static constexpr size_t kPooledBlocks = 16;
  class BlockPool {
   public:
    char* Take() {
      MutexLock l(&mu_);
      if (n_ == 0) return nullptr;
      return blocks_[--n_];
    }
    bool Give(char* p) {
      MutexLock l(&mu_);
      if (n_ == kPooledBlocks) return false;
      blocks_[n_++] = p;
      return true;
    }

   private:
    Mutex mu_;
    char* blocks_[kPooledBlocks] GUARDED_BY(mu_) = {};
    size_t n_ GUARDED_BY(mu_) = 0;
  };
  static BlockPool& Pool() {
    static BlockPool* pool = new BlockPool();  // never destroyed: arenas may die during exit
    return *pool;
  }

  char* ptr_ = nullptr;
  size_t remaining_ = 0;
  std::vector<std::pair<char*, size_t>> blocks_;  // mapped, with their sizes
  std::atomic<size_t> usage_{0};
};

}  // namespace dbx
