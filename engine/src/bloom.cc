#include "src/bloom.h"

#include <cstring>

namespace dbx {
namespace {

constexpr size_t kBlockBytes = 64;
constexpr unsigned char kBlockedFlag = 0x80;

// Maps a 32-bit hash onto [0, n) with a multiply instead of a division.
inline uint32_t Reduce(uint32_t h, uint32_t n) { return static_cast<uint32_t>((static_cast<uint64_t>(h) * n) >> 32); }

// The probes of one key inside its block: bit positions from the top 9 bits of a 32-bit hash that
// is re-mixed by a multiply per probe (as RocksDB's cache-local filter does).
inline uint32_t NextProbe(uint32_t* h) {
  uint32_t bit = *h >> 23;
  *h *= 0x9e3779b9u;
  return bit;
}

}  // namespace

BloomBuilder::BloomBuilder(int bits_per_key, uint64_t expected_keys) : bits_per_key_(bits_per_key) {
  if (bits_per_key_ > 0 && expected_keys > 0) bits_ = EmptyArray(expected_keys, bits_per_key_);
}

int BloomBuilder::Probes(int bits_per_key) {
  int probes = static_cast<int>(bits_per_key * 0.69);  // ln 2 * bits per key minimises false positives
  if (probes < 1) probes = 1;
  if (probes > 30) probes = 30;
  return probes;
}

std::string BloomBuilder::EmptyArray(uint64_t keys, int bits_per_key) {
  uint64_t bytes = (keys * static_cast<uint64_t>(bits_per_key) + 7) / 8;
  if (bytes > 0x1fffffffu) bytes = 0x1fffffffu;  // block numbers are 32-bit
  uint64_t blocks = (bytes + kBlockBytes - 1) / kBlockBytes;
  if (blocks == 0) blocks = 1;
  return std::string(blocks * kBlockBytes, '\0');
}

void BloomBuilder::Set(std::string* array, uint64_t h, int probes) {
  const auto blocks = static_cast<uint32_t>(array->size() / kBlockBytes);
  char* block = array->data() + Reduce(static_cast<uint32_t>(h >> 32), blocks) * kBlockBytes;
  uint32_t h2 = static_cast<uint32_t>(h);
  for (int i = 0; i < probes; ++i) {
    uint32_t bit = NextProbe(&h2);
    block[bit / 8] = static_cast<char>(block[bit / 8] | (1 << (bit % 8)));
  }
}

void BloomBuilder::AddHash(uint64_t hash) {
  if (bits_per_key_ <= 0) return;
  if (!bits_.empty())
    Set(&bits_, hash, Probes(bits_per_key_));
  else
    hashes_.push_back(hash);
}

std::string BloomBuilder::Finish() const {
  if (bits_per_key_ <= 0) return {};
  const int probes = Probes(bits_per_key_);
  std::string out;
  out.reserve((bits_.empty() ? EmptyArray(hashes_.size(), bits_per_key_).size() : bits_.size()) + 1);
  out = bits_;
  if (out.empty()) {
    out = EmptyArray(hashes_.size(), bits_per_key_);
    for (uint64_t h : hashes_) Set(&out, h, probes);
  }
  out.push_back(static_cast<char>(kBlockedFlag | probes));
  return out;
}

BloomFilter::BloomFilter(std::string data) {
  if (data.size() < 2) return;
  const auto last = static_cast<unsigned char>(data.back());
  const int probes = last & ~kBlockedFlag;
  if (probes < 1 || probes > 30) return;  // unknown encoding: match everything
  const size_t array_bytes = data.size() - 1;
  if ((last & kBlockedFlag) == 0) {  // the unblocked encoding
    data_ = std::move(data);
    probes_ = probes;
    bits_ = static_cast<uint32_t>(array_bytes * 8);
    return;
  }
  if (array_bytes % kBlockBytes != 0) return;
  // Copied to a cache-line boundary, so that a block is one line.
  data_.assign(array_bytes + kBlockBytes, '\0');
  array_at_ = (kBlockBytes - reinterpret_cast<uintptr_t>(data_.data()) % kBlockBytes) % kBlockBytes;
  std::memcpy(data_.data() + array_at_, data.data(), array_bytes);
  blocks_ = static_cast<uint32_t>(array_bytes / kBlockBytes);
  probes_ = probes;
}

bool BloomFilter::MayContain(uint64_t h) const {
  if (probes_ == 0) return true;
  const char* a = array();
  if (blocks_ > 0) {
    static_assert(kLineBytes == kBlockBytes);
    const char* block = a + BlockOf(h) * kBlockBytes;
    uint32_t h2 = static_cast<uint32_t>(h);
    for (int i = 0; i < probes_; ++i) {
      uint32_t bit = NextProbe(&h2);
      if ((block[bit / 8] & (1 << (bit % 8))) == 0) return false;
    }
    return true;
  }
  uint32_t h1 = static_cast<uint32_t>(h), h2 = static_cast<uint32_t>(h >> 32) | 1;
  for (int i = 0; i < probes_; ++i) {
    uint32_t pos = Reduce(h1 + static_cast<uint32_t>(i) * h2, bits_);
    if ((a[pos / 8] & (1 << (pos % 8))) == 0) return false;
  }
  return true;
}

}  // namespace dbx
