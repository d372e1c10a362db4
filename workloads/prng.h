// Small, fast, seeded pseudo-random number generators for workload generation.
//
// The same seed gives the same stream on every platform and compiler (pure 64-bit integer arithmetic,
// no std:: distributions, whose algorithms are implementation-defined). Not cryptographic.
#pragma once

#include <cstdint>

namespace dbxb {

/// SplitMix64 (Steele, Lea & Flood): a 64-bit counter through a strong mixing function. Used to expand
/// one seed into the state of Xoshiro256, and as a cheap stateless hash of a counter.
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

/// xoshiro256** (Blackman & Vigna): 256 bits of state, period 2^256 - 1, passes BigCrush. Seeds that
/// differ in one bit (e.g. base seed + thread index) give unrelated streams, since the state comes
/// from SplitMix64.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    SplitMix64 sm(seed);
    for (uint64_t& word : s_) word = sm.Next();  // SplitMix64 never yields four zero words in a row
  }

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

  /// Uniform in [0, 1) with 53 random bits.
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  /// Uniform in [0, n) without modulo bias (Lemire's multiply-and-reject; the rejection branch is
  /// taken with probability < n / 2^64). REQUIRES: n > 0.
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

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

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
