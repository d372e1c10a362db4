// A small, fast PRNG (xorshift64*) for skiplist heights and tests. Not thread-safe.
#pragma once

#include <cstdint>

namespace dbx {

class Random {
 public:
  explicit Random(uint64_t seed) : s_(seed ? seed : 0x2545f4914f6cdd1dull) {}
  uint64_t Next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545f4914f6cdd1dull;
  }
  /// Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) { return Next() % n; }
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }

 private:
  uint64_t s_;
};

}  // namespace dbx
