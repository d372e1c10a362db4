#include "src/bloom.h"

namespace dbx {
namespace {
// Maps a 32-bit hash onto [0, n) with a multiply instead of a division.
inline uint32_t Reduce(uint32_t h, uint32_t n) {
  return static_cast<uint32_t>((static_cast<uint64_t>(h) * n) >> 32);
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
  uint64_t bits = keys * static_cast<uint64_t>(bits_per_key);
  if (bits < 64) bits = 64;
  if (bits > 0xfffffff0u) bits = 0xfffffff0u;  // positions are 32-bit
  return std::string((bits + 7) / 8, '\0');
}

void BloomBuilder::Set(std::string* array, uint64_t h, int probes) {
  const auto bits = static_cast<uint32_t>(array->size() * 8);
  uint32_t h1 = static_cast<uint32_t>(h), h2 = static_cast<uint32_t>(h >> 32) | 1;
  for (int i = 0; i < probes; ++i) {
    uint32_t pos = Reduce(h1 + static_cast<uint32_t>(i) * h2, bits);
    (*array)[pos / 8] = static_cast<char>((*array)[pos / 8] | (1 << (pos % 8)));
  }
}

void BloomBuilder::AddHash(uint64_t hash) {
  if (bits_per_key_ <= 0) return;
  if (!bits_.empty()) Set(&bits_, hash, Probes(bits_per_key_));
  else hashes_.push_back(hash);
}

std::string BloomBuilder::Finish() const {
  if (bits_per_key_ <= 0) return {};
  const int probes = Probes(bits_per_key_);
  std::string out;
  out.reserve((bits_.empty() ? hashes_.size() * static_cast<uint64_t>(bits_per_key_) / 8 + 8 : bits_.size()) + 1);
  out = bits_;
  if (out.empty()) {
    out = EmptyArray(hashes_.size(), bits_per_key_);
    for (uint64_t h : hashes_) Set(&out, h, probes);
  }
  out.push_back(static_cast<char>(probes));
  return out;
}

BloomFilter::BloomFilter(std::string data) : data_(std::move(data)) {
  if (data_.size() < 2) return;
  int probes = static_cast<unsigned char>(data_.back());
  if (probes < 1 || probes > 30) return;  // unknown encoding: match everything
  probes_ = probes;
  bits_ = static_cast<uint32_t>((data_.size() - 1) * 8);
}

bool BloomFilter::MayContain(uint64_t h) const {
  if (probes_ == 0) return true;
  uint32_t h1 = static_cast<uint32_t>(h), h2 = static_cast<uint32_t>(h >> 32) | 1;
  for (int i = 0; i < probes_; ++i) {
    uint32_t pos = Reduce(h1 + static_cast<uint32_t>(i) * h2, bits_);
    if ((data_[pos / 8] & (1 << (pos % 8))) == 0) return false;
  }
  return true;
}

}  // namespace dbx
