// Fixed-width decimal fields in keys and values: the data sets write a row's number as zero-padded
// digits (dbx-micro's "key_%08d", sqlite-vps's "#<id>v<version>:") and parse it back. Inline, with no
// locale and no allocation, because a reader builds each key on the measured path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace dbxb {

/// The last `digits` decimal digits of v, zero-padded, into out[0, digits). No terminator. An unsigned
/// Int: pass a uint32_t when the value fits, and the divisions by 10 are 32-bit multiplies.
template <typename Int>
inline void PutDigits(Int v, size_t digits, char* out) {
  static_assert(std::is_unsigned_v<Int>);
  for (size_t i = digits; i-- > 0;) {
    out[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
}

/// The number written in p[0, digits), or false (and *out untouched) when a byte is not a digit.
inline bool ParseDigits(const char* p, size_t digits, uint64_t* out) {
  uint64_t v = 0;
  for (size_t i = 0; i < digits; ++i) {
    if (p[i] < '0' || p[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(p[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace dbxb
