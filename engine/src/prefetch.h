// Cache-line prefetches that survive the optimiser. GCC deletes a loop whose body has no side effect
// (C++'s forward-progress rule, -ffinite-loops), and __builtin_prefetch does not count as one: the
// loops of prefetches in Block::PrefetchEntry and SegmentReader::FindBlock compiled to no instruction
// at all in the Release build (objdump, 2026-12-04). PrefetchLine adds an empty volatile asm that
// names the address, which the compiler must keep, so a loop of them stays a loop of prefetches.
#pragma once

#include <cstddef>

namespace dbx {

/// Starts loading the cache line that holds p into every cache level. Never faults.
inline void PrefetchLine(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

/// Starts loading every cache line of [p, p + bytes).
inline void PrefetchBytes(const char* p, size_t bytes) {
  for (size_t at = 0; at < bytes; at += 64) PrefetchLine(p + at);
}

}  // namespace dbx
