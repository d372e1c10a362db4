// The key/value data set of the dbx-micro suite: the DBX team's comparison data, N records with keys
// `key_%08d` and values `value_%08d_data`, optionally padded to a fixed size with the same pattern.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/reference_data.h"
#include "common/status.h"

namespace dbxb {

struct DatasetShape {
  uint64_t records = 10000;
  uint64_t key_size = 12;    ///< strlen("key_00000000")
  uint64_t value_size = 19;  ///< strlen("value_00000000_data")
};

/// Row i of the data set. Keys sort in the order of i (the number is zero-padded), so key order and
/// index order agree. REQUIRES: i < 10^8.
std::string DatasetKey(uint64_t i, uint64_t key_size);
std::string DatasetValue(uint64_t i, uint64_t value_size);
/// v == DatasetValue(i, value_size), without building it, given `digits`: the 8 digits of i (as in
/// DatasetKey(i), after "key_"). Reads only v and digits.
bool DatasetValueEquals(std::string_view digits, uint64_t value_size, std::string_view v);

/// All rows materialised once, so that the writers and the scan's check use precomputed bytes. A
/// reader in random order needs no stored row: it builds each key (KeyInto) and checks each value
/// (ValueEquals) from the row number, as db_bench does, eight digits written in a few nanoseconds.
class Dataset final : public ReferenceData {
 public:
  /// InvalidArgument when the shape cannot hold unique keys (key_size < 12, records > 10^8, ...).
  static Result<std::shared_ptr<const Dataset>> Make(const DatasetShape& shape);

  const DatasetShape& shape() const { return shape_; }
  uint64_t size() const override { return shape_.records; }
  uint64_t LowerBound(std::string_view key) const override;
  std::string_view key(uint64_t i) const override { return {&keys_[i * shape_.key_size], shape_.key_size}; }
  std::string_view value(uint64_t i) const override { return {&values_[i * shape_.value_size], shape_.value_size}; }
  /// Built from i: the same bytes as key(i), without reading the stored keys.
  std::string_view KeyInto(uint64_t i, std::string* buf) const override;
  /// By DatasetValueEquals with the digits of i: the check reads neither value(i) nor key(i).
  bool ValueEquals(uint64_t i, std::string_view v) const override;
  /// By the row number written in the key: true exactly when key == DatasetKey(i) for a row i of this
  /// data set. Reads only `key`.
  bool Locate(std::string_view key, uint64_t* index) const override;

 private:
  explicit Dataset(const DatasetShape& shape) : shape_(shape) {}
  DatasetShape shape_;
  std::string keys_;    // records * key_size bytes, row after row
  std::string values_;  // records * value_size bytes
};

}  // namespace dbxb
