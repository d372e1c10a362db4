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

/// Row i of the data set. Keys sort in the order of i (the number is zero-padded), so key order
/// and index order agree.
std::string DatasetKey(uint64_t i, uint64_t key_size);
std::string DatasetValue(uint64_t i, uint64_t value_size);
/// v == DatasetValue(i, value_size), without building it, given `digits`: the 8 digits of i (as in
/// DatasetKey(i), after "key_"). Reads only v and digits.
bool DatasetValueEquals(std::string_view digits, uint64_t value_size, std::string_view v);

/// All rows materialised once, so that workloads write and compare precomputed bytes and never
/// format strings inside a timed loop. A read's value check (ValueEquals) needs no stored row.
class Dataset final : public ReferenceData {
 public:
  /// InvalidArgument when the shape cannot hold unique keys (key_size < 12, records > 10^8, ...).
  static Result<std::shared_ptr<const Dataset>> Make(const DatasetShape& shape);

  const DatasetShape& shape() const { return shape_; }
  uint64_t size() const override { return shape_.records; }
  uint64_t LowerBound(std::string_view key) const override;
  std::string_view key(uint64_t i) const override { return {&keys_[i * shape_.key_size], shape_.key_size}; }
  std::string_view value(uint64_t i) const override { return {&values_[i * shape_.value_size], shape_.value_size}; }
  /// By DatasetValueEquals with the digits of key(i), which the reader has just passed to the store:
  /// the check does not read value(i).
  bool ValueEquals(uint64_t i, std::string_view v) const override {
    return i < shape_.records && DatasetValueEquals({&keys_[i * shape_.key_size + 4], 8}, shape_.value_size, v);
  }
  /// By pointer arithmetic: a view returned by key(i) maps back to i.
  bool Locate(std::string_view key, uint64_t* index) const override {
    const auto offset = static_cast<uint64_t>(key.data() - keys_.data());
    if (key.size() != shape_.key_size || key.data() < keys_.data() || offset >= keys_.size() ||
        offset % shape_.key_size != 0)
      return false;
    *index = offset / shape_.key_size;
    return true;
  }

 private:
  explicit Dataset(const DatasetShape& shape) : shape_(shape) {}
  DatasetShape shape_;
  std::string keys_;    // records * key_size bytes, row after row
  std::string values_;  // records * value_size bytes
};

}  // namespace dbxb
