// The workloads' seeded generators are common/prng.h's (SplitMix64, Xoshiro256); this header adds
// the YCSB key hash (FNV-1a of common/fnv.h over a key number's bytes).
#pragma once

#include <cstdint>

#include "common/fnv.h"
#include "common/prng.h"

namespace dbxb {

/// 64-bit FNV-1a over the eight little-endian bytes of `v`, as YCSB scrambles and hashes key numbers.
inline uint64_t Fnv1a64(uint64_t v) {
  uint64_t h = kFnv64Offset;
  for (int i = 0; i < 8; ++i, v >>= 8) h = Fnv1a64Byte(h, static_cast<uint8_t>(v));
  return h;
}

/// YCSB's Utils.fnvhash64: Fnv1a64, then Math.abs of the result read as a signed long. (Java's
/// Math.abs leaves Long.MIN_VALUE negative, which YCSB's `% itemcount` then turns into a negative
/// item; here that one hash value, 2^63, stays 2^63.) Computed without the byte loop's tail for the
/// values below 2^40 that the scrambled zipfian chooser hashes (ranks below 10^10): their three top
/// bytes are zero, so the last three FNV steps are one multiplication by the prime cubed.
inline uint64_t YcsbFnvHash64(uint64_t v) {
  uint64_t h;
  if (v < (uint64_t{1} << 40)) {
    h = kFnv64Offset;
    for (int i = 0; i < 5; ++i, v >>= 8) h = Fnv1a64Byte(h, static_cast<uint8_t>(v));
    h *= kFnv64Prime * kFnv64Prime * kFnv64Prime;
  } else {
    h = Fnv1a64(v);
  }
  const uint64_t sign = 0 - (h >> 63);  // all ones when negative as a signed long
  return (h ^ sign) - sign;             // |h|, without a branch the hash decides (half of them)
}

/// x % d by multiplication: the quotient estimated as the high word of x * floor((2^64 - 1) / d), which
/// is floor(x / d) or one less, then one correction. Exact for every x; cheaper than a division where
/// many remainders by the same d are taken together (a 64-bit division does not pipeline as
/// multiplications do). REQUIRES: 1 <= d <= 2^63.
class Remainder {
 public:
  explicit Remainder(uint64_t d) : d_(d), inverse_(~uint64_t{0} / d) {}
  uint64_t Of(uint64_t x) const {
    const auto q = static_cast<uint64_t>((static_cast<unsigned __int128>(x) * inverse_) >> 64);
    const uint64_t r = x - q * d_;  // in [0, 2d)
    return r >= d_ ? r - d_ : r;
  }
  uint64_t divisor() const { return d_; }

 private:
  uint64_t d_;
  uint64_t inverse_;
};

}  // namespace dbxb
