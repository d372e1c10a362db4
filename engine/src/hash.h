// A fast 64-bit hash of short byte strings (keys), used by the delta/WOS hash index, the bloom
// filters and the block cache. Not cryptographic; stable across runs (bloom filters are persisted).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace dbx {

inline uint64_t HashMix(uint64_t a, uint64_t b) {
  __uint128_t r = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

inline uint64_t Hash64(std::string_view s) {
  constexpr uint64_t k0 = 0x9e3779b97f4a7c15ull, k1 = 0xd6e8feb86659fd93ull, k2 = 0xa0761d6478bd642full;
  const char* p = s.data();
  size_t n = s.size();
  uint64_t h = k0 ^ (n * k1);
  while (n >= 16) {
    uint64_t a, b;
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + 8, 8);
    h = HashMix(a ^ h ^ k1, b ^ k2);
    p += 16;
    n -= 16;
  }
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    std::memcpy(&a, p, 8);
    std::memcpy(&b, p + n - 8, 8);  // overlapping tail read
  } else if (n >= 4) {
    uint32_t x, y;
    std::memcpy(&x, p, 4);
    std::memcpy(&y, p + n - 4, 4);
    a = x;
    b = y;
  } else if (n > 0) {
    a = (static_cast<uint64_t>(static_cast<unsigned char>(p[0])) << 16) |
        (static_cast<uint64_t>(static_cast<unsigned char>(p[n >> 1])) << 8) | static_cast<unsigned char>(p[n - 1]);
  }
  return HashMix(h ^ a ^ k2, HashMix(b ^ k1, h ^ k0));
}

}  // namespace dbx
