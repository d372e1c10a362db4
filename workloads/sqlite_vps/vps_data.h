// The data of the sqlite-vps suite: deterministic, seeded rows that a reader can verify cheaply.
//
// Row `id` (ids 1..records are loaded; later inserts take ids above) at version v (0 when inserted,
// then the number of the phase that last updated it):
//
//   a        = P(id - 1) for id <= records, where P is a seeded permutation of [0, records); id - 1 above.
//              So a is unique, the values [0, records) are all present, and the rows with
//              lo <= a < lo + n are exactly n rows whenever lo + n <= records. A range on a touches rows
//              scattered over the whole table (a non-covering index read in its honest, uncorrelated form).
//   b        = H(seed, id, v) mod records: random, with duplicates; moves when the row is updated.
//   payload  = "#" + 12-digit id + "v" + 4-digit version + ":" then filler up to payload_bytes in all:
//              a slice, at an offset hashed from id, of 1 MiB of seeded random printable ASCII (valid
//              TEXT). Random, not a pattern, so that engines that compress blocks (RocksDB, DBX) store
//              about as many bytes as the others and the disk-bound data set really outgrows memory.
//
// Verify checks everything a read returns against these rules: the id, the payload's length, prefix and
// filler (one memcmp), a, and b for the version the payload names.
#pragma once

#include <cstdint>
#include <string>

#include "adapters/row_session.h"
#include "common/status.h"

namespace dbxb {

/// A seeded bijection of [0, n): a four-round Feistel network over the smallest even number of bits
/// holding n - 1, walking the cycle until the value falls inside [0, n) (at most a few steps on average,
/// since the domain is under 4n).
class IndexPermutation {
 public:
  /// REQUIRES: n > 0.
  IndexPermutation(uint64_t n, uint64_t seed);
  uint64_t operator()(uint64_t x) const;
  uint64_t size() const { return n_; }

 private:
  uint64_t Encrypt(uint64_t x) const;
  uint64_t n_;
  int half_bits_;
  uint64_t half_mask_;
  uint64_t keys_[4];
};

class VpsRows {
 public:
  /// The shortest payload that holds the prefix and at least one pattern byte.
  static constexpr uint32_t kMinPayloadBytes = 20;
  static constexpr uint32_t kMaxVersion = 9999;

  /// REQUIRES: records > 0, payload_bytes >= kMinPayloadBytes.
  VpsRows(uint64_t records, uint32_t payload_bytes, uint64_t seed);

  uint64_t records() const { return records_; }
  uint32_t payload_bytes() const { return payload_bytes_; }

  int64_t A(int64_t id) const;
  int64_t B(int64_t id, uint32_t version) const;
  /// Sets *row to row `id` at `version`, reusing row->payload's buffer.
  void Fill(int64_t id, uint32_t version, Row* row) const;
  /// Corruption naming the row and the problem unless `row` is a valid row `id` (any version); sets
  /// *version (optional) to the version it holds.
  Status Verify(int64_t id, const Row& row, uint32_t* version = nullptr) const;

 private:
  uint64_t records_;
  uint32_t payload_bytes_;
  uint64_t seed_;
  IndexPermutation permutation_;
  std::string pool_;  // the filler pool (vps_data.cc), a payload longer than its 1 MiB so any slice fits
};

}  // namespace dbxb
