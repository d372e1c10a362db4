// Arena: bump allocation for the delta store and WOS. Memory is freed only when the arena is
// destroyed, which is what lets readers walk nodes without locks. Single writer; MemoryUsage() may
// be read from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace dbx {

class Arena {
 public:
  Arena() = default;
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
    blocks_.emplace_back(new char[bytes]);
    usage_.store(usage_.load(std::memory_order_relaxed) + bytes + sizeof(void*), std::memory_order_relaxed);
    return blocks_.back().get();
  }

  char* ptr_ = nullptr;
  size_t remaining_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::atomic<size_t> usage_{0};
};

}  // namespace dbx
