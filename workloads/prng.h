// The workloads' seeded generators are common/prng.h's (SplitMix64, Xoshiro256); this header adds
// the YCSB key hash.
#pragma once

#include <cstdint>

#include "common/prng.h"

namespace dbxb {

/// 64-bit FNV-1a over the eight little-endian bytes of `v`, as YCSB scrambles and hashes key numbers.
inline uint64_t Fnv1a64(uint64_t v) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; ++i) {
    h ^= v & 0xff;
    h *= 0x100000001b3ull;
    v >>= 8;
  }
  return h;
}

}  // namespace dbxb
