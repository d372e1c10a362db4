// FNV-1a, 64 bits (Fowler, Noll, Vo): the one implementation of the hash, for the YCSB key hash
// (workloads/prng.h), the data-set checksums of dbx-micro, per-row bootstrap seeds (compare/) and
// stable chart colours (writers/).
#pragma once

#include <cstdint>
#include <string_view>

namespace dbxb {

inline constexpr uint64_t kFnv64Offset = 0xcbf29ce484222325ull;  ///< the offset basis
inline constexpr uint64_t kFnv64Prime = 0x100000001b3ull;

/// One step: `h` after the byte `byte`.
constexpr uint64_t Fnv1a64Byte(uint64_t h, uint8_t byte) { return (h ^ byte) * kFnv64Prime; }

/// FNV-1a of `bytes`, starting from `h` (the offset basis, or a hash so far to continue it).
constexpr uint64_t Fnv1a64(std::string_view bytes, uint64_t h = kFnv64Offset) {
  for (char c : bytes) h = Fnv1a64Byte(h, static_cast<uint8_t>(c));
  return h;
}

}  // namespace dbxb
