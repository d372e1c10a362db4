// Bloom filter over user keys (tier 4: kept in memory per segment). Built from 64-bit key hashes
// (Hash64) with double hashing. Encoding: the bit array followed by one byte, the probe count.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dbx {

class BloomBuilder {
 public:
  explicit BloomBuilder(int bits_per_key) : bits_per_key_(bits_per_key) {}
  void AddHash(uint64_t hash) { hashes_.push_back(hash); }
  /// Encodes the filter; an empty string when bits_per_key <= 0.
  std::string Finish() const;

 private:
  int bits_per_key_;
  std::vector<uint64_t> hashes_;
};

/// A view of an encoded filter. An empty or malformed filter matches everything.
class BloomFilter {
 public:
  BloomFilter() = default;
  explicit BloomFilter(std::string data);
  bool MayContain(uint64_t hash) const;

 private:
  std::string data_;
  uint32_t bits_ = 0;
  int probes_ = 0;
};

}  // namespace dbx
