#include "workloads/sqlite_vps/vps_data.h"

#include <cstring>

#include "common/digits.h"
#include "workloads/prng.h"

namespace dbxb {
namespace {

constexpr size_t kIdDigits = 12;
constexpr size_t kVersionDigits = 4;
constexpr size_t kPrefixBytes = 1 + kIdDigits + 1 + kVersionDigits + 1;  // "#" id "v" version ":"
// The filler pool: 1 MiB of seeded random printable ASCII. A row's filler is a slice of it at a
// row-dependent offset, so rows do not repeat each other and a block compressor (RocksDB's and DBX's
// per-block compression) gains only what entropy coding of 95 symbols gives (to about 82 %).
constexpr size_t kPoolBytes = 1u << 20;
constexpr int kPrintable = 95;  // ' ' .. '~'

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

size_t FillerStart(uint64_t seed, int64_t id) {
  return static_cast<size_t>(Mix(seed ^ Mix(static_cast<uint64_t>(id) + 0x632be59bd9b4e019ull)) % kPoolBytes);
}

}  // namespace

IndexPermutation::IndexPermutation(uint64_t n, uint64_t seed) : n_(n) {
  int bits = 2;
  while (bits < 64 && (uint64_t{1} << bits) < n) ++bits;
  if (bits % 2 != 0) ++bits;
  half_bits_ = bits / 2;
  half_mask_ = (uint64_t{1} << half_bits_) - 1;
  SplitMix64 sm(seed ^ 0x5eed0f1dull);
  for (uint64_t& k : keys_) k = sm.Next();
}

uint64_t IndexPermutation::Encrypt(uint64_t x) const {
  uint64_t left = x >> half_bits_, right = x & half_mask_;
  for (uint64_t key : keys_) {
    uint64_t next = left ^ (Mix(right ^ key) & half_mask_);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

// Cycle walking: the Feistel network permutes [0, 2^bits); applying it until the value lands in [0, n)
// restricts it to a permutation of [0, n).
uint64_t IndexPermutation::operator()(uint64_t x) const {
  do {
    x = Encrypt(x);
  } while (x >= n_);
  return x;
}

VpsRows::VpsRows(uint64_t records, uint32_t payload_bytes, uint64_t seed)
    : records_(records), payload_bytes_(payload_bytes), seed_(seed), permutation_(records, seed) {
  Xoshiro256 rng(seed ^ 0xf111e4ull);
  pool_.resize(kPoolBytes + payload_bytes);
  for (char& c : pool_) c = static_cast<char>(' ' + rng.Below(kPrintable));
}

int64_t VpsRows::A(int64_t id) const {
  if (id >= 1 && static_cast<uint64_t>(id) <= records_) return static_cast<int64_t>(permutation_(id - 1));
  return id - 1;
}

int64_t VpsRows::B(int64_t id, uint32_t version) const {
  uint64_t h = Mix(seed_ ^ Mix(static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ull + version));
  return static_cast<int64_t>(h % records_);
}

void VpsRows::Fill(int64_t id, uint32_t version, Row* row) const {
  row->id = id;
  row->a = A(id);
  row->b = B(id, version);
  std::string& p = row->payload;
  p.resize(payload_bytes_);
  p[0] = '#';
  PutDigits(static_cast<uint64_t>(id), kIdDigits, &p[1]);
  p[1 + kIdDigits] = 'v';
  PutDigits(version, kVersionDigits, &p[2 + kIdDigits]);
  p[kPrefixBytes - 1] = ':';
  std::memcpy(&p[kPrefixBytes], pool_.data() + FillerStart(seed_, id), payload_bytes_ - kPrefixBytes);
}

Status VpsRows::Verify(int64_t id, const Row& row, uint32_t* version) const {
  auto bad = [&](const std::string& what) { return Status::Corruption("row " + std::to_string(id) + ": " + what); };
  if (row.id != id) return bad("read back as row " + std::to_string(row.id));
  const std::string& p = row.payload;
  if (p.size() != payload_bytes_)
    return bad("payload of " + std::to_string(p.size()) + " bytes, expected " + std::to_string(payload_bytes_));
  uint64_t embedded_id = 0, v = 0;
  if (p[0] != '#' || !ParseDigits(&p[1], kIdDigits, &embedded_id) || p[1 + kIdDigits] != 'v' ||
      !ParseDigits(&p[2 + kIdDigits], kVersionDigits, &v) || p[kPrefixBytes - 1] != ':')
    return bad("malformed payload prefix '" + p.substr(0, kPrefixBytes) + "'");
  if (embedded_id != static_cast<uint64_t>(id)) return bad("payload belongs to row " + std::to_string(embedded_id));
  if (std::memcmp(&p[kPrefixBytes], pool_.data() + FillerStart(seed_, id), payload_bytes_ - kPrefixBytes) != 0)
    return bad("payload filler damaged");
  if (row.a != A(id)) return bad("a = " + std::to_string(row.a) + ", expected " + std::to_string(A(id)));
  if (row.b != B(id, static_cast<uint32_t>(v)))
    return bad("b = " + std::to_string(row.b) + ", expected " + std::to_string(B(id, static_cast<uint32_t>(v))) +
               " for version " + std::to_string(v));
  if (version != nullptr) *version = static_cast<uint32_t>(v);
  return Status::Ok();
}

}  // namespace dbxb
