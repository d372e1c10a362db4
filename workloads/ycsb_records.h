// YCSB records on a key/value Session: how a YCSB key number becomes a key, and how a record's fields
// are stored in one value.
//
// Keys are YCSB's: "user" followed by the key number in decimal, left-padded with zeros to
// `zeropadding` digits. With insertorder=hashed (the default) the number is first scrambled with YCSB's
// FNV-1a 64 hash taken as a signed Java long and made non-negative with Math.abs, exactly as YCSB's
// CoreWorkload does (so the keys equal YCSB's; YCSB-cpp prints the unsigned hash instead). With
// insertorder=ordered the number is used as is.
//
// Values: the `fieldcount` fields field0, field1, ... in order, each stored as its byte length (4 bytes,
// little-endian) followed by its bytes. Field names are implied by position (fieldnameprefix + index)
// and not stored. A record of 10 fields of 100 bytes is 1,040 bytes.
//
// Field contents: printable ASCII from a pseudo-random pool, or with dataintegrity=true YCSB's
// deterministic value for (key, field name): "<key>:<field>" extended by ":<Java String.hashCode of
// what is there so far>" until it is long enough, then cut to the field length — so every reader can
// check every byte.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/reference_data.h"
#include "common/status.h"
#include "workloads/prng.h"
#include "workloads/ycsb_workload.h"
#include "workloads/zipfian.h"

namespace dbxb {

/// YCSB's key for `keynum` into *out (replacing its contents; no allocation once *out has room).
void YcsbKey(uint64_t keynum, const YcsbWorkload& w, std::string* out);
std::string YcsbKey(uint64_t keynum, const YcsbWorkload& w);

/// Java's String.hashCode of ASCII text (31-based polynomial, 32-bit wrap-around).
int32_t JavaStringHash(std::string_view text);

/// YCSB's deterministic field value for (key, field name), `length` bytes, appended to *out.
void AppendDeterministicField(std::string_view key, std::string_view field_name, size_t length, std::string* out);

/// Writes and checks the values of one workload. One per thread (it owns random state and buffers).
class YcsbRecordCodec {
 public:
  static constexpr size_t kLengthBytes = 4;

  /// `seed` drives the field lengths and contents.
  YcsbRecordCodec(const YcsbWorkload& w, uint64_t seed);

  /// A whole new record for `key` into *out (replacing it).
  void BuildValue(std::string_view key, std::string* out);

  /// Replaces field `field` of the encoded record `value` with new content (all fields when
  /// `field` == fieldcount), writing the result to *out. REQUIRES: Verify(key, value) succeeded.
  void UpdateValue(std::string_view key, std::string_view value, uint64_t field, std::string* out);

  /// Checks that `value` holds exactly fieldcount fields of allowed lengths (== fieldlength for the
  /// constant distribution, within [minfieldlength, fieldlength] otherwise) and, with dataintegrity,
  /// YCSB's deterministic contents. Corruption naming the key and the problem.
  Status Verify(std::string_view key, std::string_view value);

  /// A field index in [0, fieldcount), uniformly (the field a single-field update writes).
  uint64_t RandomField() { return rng_.Below(w_.field_count); }

  /// The largest encoded record.
  size_t MaxValueSize() const { return w_.field_count * (kLengthBytes + w_.field_length); }

 private:
  uint64_t NextFieldLength();
  void AppendField(std::string_view key, uint64_t field, std::string* out);
  const std::string& FieldName(uint64_t field) const { return field_names_[field]; }

  const YcsbWorkload& w_;
  Xoshiro256 rng_;
  std::vector<std::string> field_names_;
  std::string pool_;  // random printable bytes that field contents are sliced from
  ZipfianRanks length_ranks_;
  std::string scratch_;
};

/// The rows a perfect store would hold for a workload whose key numbers are [first, first + count):
/// for the null adapter, which answers from it. Keys are materialised and sorted; values are one
/// canonical record (every field at the full field length), or per key with dataintegrity.
class YcsbReferenceData final : public ReferenceData {
 public:
  YcsbReferenceData(const YcsbWorkload& w, uint64_t first, uint64_t count);
  uint64_t size() const override { return keys_.size(); }
  uint64_t LowerBound(std::string_view key) const override;
  std::string_view key(uint64_t i) const override { return keys_[i]; }
  std::string_view value(uint64_t i) const override { return values_.size() == 1 ? values_[0] : values_[i]; }

 private:
  std::vector<std::string> keys_;
  std::vector<std::string> values_;  // one canonical value, or one per key (dataintegrity)
};

}  // namespace dbxb
