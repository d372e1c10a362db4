// Bloom filter over user keys (tier 4: kept in memory per segment), built from 64-bit key hashes
// (Hash64). Cache-line blocked: the high half of a hash picks one 64-byte block and every probe of
// that key sets or tests a bit inside it, so a lookup costs one cache miss instead of one per probe
// (about 1.1% false positives at 10 bits per key instead of 0.8%).
// Encoding: the bit array (a multiple of 64 bytes) followed by one byte, 0x80 | the probe count.
// A last byte without 0x80 is the earlier, unblocked encoding (the probe count alone, probes spread
// over the whole array by double hashing), which is still read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dbx {

class BloomBuilder {
 public:
  /// With expected_keys > 0 the bit array is sized for that many keys up front and hashes set bits
  /// as they arrive (about bits_per_key / 8 bytes per key held); otherwise the hashes are kept
  /// (8 bytes per key) and the array is sized for their number at Finish. More keys than expected
  /// only raise the false-positive rate.
  explicit BloomBuilder(int bits_per_key, uint64_t expected_keys = 0);
  void AddHash(uint64_t hash);
  /// Encodes the filter; an empty string when bits_per_key <= 0.
  std::string Finish() const;
  /// Bytes held while building.
  size_t MemoryUsage() const { return bits_.capacity() + hashes_.capacity() * sizeof(uint64_t); }

 private:
  static int Probes(int bits_per_key);
  static std::string EmptyArray(uint64_t keys, int bits_per_key);
  static void Set(std::string* bits, uint64_t hash, int probes);

  int bits_per_key_;
  std::string bits_;              // the array, when sized up front
  std::vector<uint64_t> hashes_;  // otherwise
};

/// A view of an encoded filter. An empty or malformed filter matches everything.
class BloomFilter {
 public:
  BloomFilter() = default;
  explicit BloomFilter(std::string data);
  bool MayContain(uint64_t hash) const;
  /// Starts loading the bits MayContain(hash) reads, so that their cache miss overlaps other work.
  void Prefetch(uint64_t hash) const {
    if (blocks_ > 0) __builtin_prefetch(array() + BlockOf(hash) * kLineBytes);
  }
  size_t MemoryUsage() const { return data_.capacity(); }

 private:
  static constexpr size_t kLineBytes = 64;  // a block of the blocked encoding
  const char* array() const { return data_.data() + array_at_; }
  // The block of the blocked encoding that hash probes.
  size_t BlockOf(uint64_t hash) const {
    return static_cast<size_t>((static_cast<uint64_t>(static_cast<uint32_t>(hash >> 32)) * blocks_) >> 32);
  }

  std::string data_;     // the encoding; a blocked array is copied to a 64-byte boundary inside it
  size_t array_at_ = 0;  // where the bit array starts in data_
  uint32_t bits_ = 0;    // unblocked encoding: bits in the array
  uint32_t blocks_ = 0;  // blocked encoding: 64-byte blocks in the array
  int probes_ = 0;
};

}  // namespace dbx
