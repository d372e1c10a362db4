// Bytewise key comparison inlined for short keys (the common case), where a libc memcmp call costs
// more than the comparison itself. Same order as std::string_view::compare.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace dbx {

inline uint64_t LoadBigEndian64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

/// The 8 bytes of key from position `from`, big-endian, zero-padded past its end. Monotone: a < b
/// implies KeyWindow(a, f) <= KeyWindow(b, f) for keys sharing their first f bytes, so that unequal
/// windows order two keys and equal windows decide nothing.
inline uint64_t KeyWindow(std::string_view key, size_t from) {
  if (key.size() >= from + 8) return LoadBigEndian64(key.data() + from);
  char buf[8] = {};
  if (key.size() > from) std::memcpy(buf, key.data() + from, key.size() - from);
  return LoadBigEndian64(buf);
}

/// <0, 0 or >0 as a is bytewise less than, equal to or greater than b.
inline int CompareKeys(std::string_view a, std::string_view b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x = LoadBigEndian64(a.data() + i), y = LoadBigEndian64(b.data() + i);
    if (x != y) return x < y ? -1 : 1;
  }
  for (; i < n; ++i) {
    auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

inline bool KeyLess(std::string_view a, std::string_view b) { return CompareKeys(a, b) < 0; }

inline bool KeyEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  size_t n = a.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

/// KeyEqual for keys that sort next to each other, as a scan's consecutive keys do: they share a
/// prefix and differ near their ends, so the last 8 bytes are compared first.
inline bool NeighbourKeyEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  const size_t n = a.size();
  if (n < 8) return KeyEqual(a, b);
  uint64_t x, y;
  std::memcpy(&x, a.data() + n - 8, 8);
  std::memcpy(&y, b.data() + n - 8, 8);
  return x == y && KeyEqual(a.substr(0, n - 8), b.substr(0, n - 8));
}

}  // namespace dbx
