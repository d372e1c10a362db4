// CRC32C (Castagnoli), used for every WAL record, segment block and manifest. Uses the SSE4.2
// instruction when the CPU has it, a table otherwise; both give identical results.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dbx::crc32c {

/// CRC32C of data[0, n) continuing from crc (0 to start).
uint32_t Extend(uint32_t crc, const char* data, size_t n);
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

/// Stored CRCs are masked so that a CRC of data holding CRCs stays well distributed.
inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

}  // namespace dbx::crc32c
