// ReferenceData: a read-only view of the rows a workload expects a store to hold, in key order.
// Workloads provide it (workloads/dataset.h); the null adapter answers from it, so that it returns
// what a perfect store would while storing nothing.
#pragma once

#include <cstdint>
#include <string_view>

namespace dbxb {

class ReferenceData {
 public:
  virtual ~ReferenceData() = default;
  /// Number of rows.
  virtual uint64_t size() const = 0;
  /// Index of the first row whose key is >= key (size() if none).
  virtual uint64_t LowerBound(std::string_view key) const = 0;
  /// REQUIRES: i < size(). Views stay valid for the object's lifetime.
  virtual std::string_view key(uint64_t i) const = 0;
  virtual std::string_view value(uint64_t i) const = 0;
  /// True, with *index set, when `key` is a view of key(*index) itself (it points into this data's own
  /// storage), which an implementation can tell without a search. False otherwise: call LowerBound.
  virtual bool Locate(std::string_view key, uint64_t* index) const {
    (void)key;
    (void)index;
    return false;
  }
  /// A hint that key(i) and value(i) are about to be read: start loading their cache lines. A read
  /// loop calls it kPrefetchDistance operations ahead, so that the reference rows it verifies against
  /// are in cache when the engine's answer arrives instead of adding a cache miss of the harness's own
  /// to every operation. Changes no result. REQUIRES: i < size().
  virtual void Prefetch(uint64_t i) const { (void)i; }
};

/// How many operations ahead a read loop prefetches its reference rows (ReferenceData::Prefetch).
inline constexpr uint64_t kPrefetchDistance = 2;

/// Issues a prefetch of every cache line of [data, data + size), at most `max_lines` of them.
inline void PrefetchBytes(const char* data, uint64_t size, uint64_t max_lines = 4) {
  constexpr uintptr_t kLine = 64;
  uintptr_t p = reinterpret_cast<uintptr_t>(data) & ~(kLine - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(data) + size;
  for (uint64_t n = 0; p < end && n < max_lines; p += kLine, ++n) __builtin_prefetch(reinterpret_cast<const void*>(p));
}

}  // namespace dbxb
