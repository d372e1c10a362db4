// The project's one seeded pseudo-random generator: xoshiro256** seeded through SplitMix64, with an
// unbiased bounded integer and a uniform double. Workload data, key orders and the bootstrap all draw
// from it, so a recorded seed reproduces them.
//
// The same seed gives the same stream on every platform and compiler: pure 64-bit integer arithmetic,
// no std:: distributions (whose algorithms are implementation-defined). Not cryptographic.
#pragma once

#include <cstdint>

namespace dbxb {

/// SplitMix64 (Steele, Lea & Flood): a 64-bit counter through a strong mixing function. Expands one seed
/// into the state of Xoshiro256, and serves as a cheap seeded stream of its own. Not thread-safe.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

/// xoshiro256** (Blackman & Vigna): 256 bits of state, period 2^256 - 1, passes BigCrush. The state is
/// four SplitMix64 outputs of the seed, so seeds that differ in one bit (e.g. base seed + thread index)
/// give unrelated streams. Not thread-safe: one generator per thread.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    SplitMix64 sm(seed);
    for (uint64_t& word : s_) word = sm.Next();  // SplitMix64 never yields four zero words in a row
  }

  /// The next 64 uniformly distributed bits.
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, n) without modulo bias: Lemire's multiply-and-reject. The high word of Next() * n
  /// is the result once the low words below 2^64 mod n, which would over-represent some results, are
  /// rejected (probability < n / 2^64). Consumes one Next() per attempt. REQUIRES: n > 0.
  uint64_t Below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  /// Uniform in [0, 1): the top 53 bits of Next() times 2^-53.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace dbxb
