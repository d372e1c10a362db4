#include "workloads/dataset.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/digits.h"
#include "common/interrupt.h"

namespace dbxb {
namespace {

constexpr uint64_t kMaxRecords = 100000000;  // %08d stays 8 digits, so key order == index order
constexpr uint64_t kMinKeySize = 12;         // "key_00000000"
constexpr uint64_t kMinValueSize = 19;       // "value_00000000_data"
constexpr uint64_t kMaxItemSize = 64ull << 20;

// Extends `base` to `size` bytes by repeating it ("padding the same pattern").
std::string PadTo(std::string base, uint64_t size) {
  if (base.size() >= size) {
    base.resize(size);
    return base;
  }
  std::string out;
  out.reserve(size);
  while (out.size() < size) out.append(base, 0, std::min<uint64_t>(base.size(), size - out.size()));
  return out;
}

// "%08d" of i into out[0, 8). REQUIRES: i < 10^8. Two halves of four digits: independent divisions the
// CPU runs side by side, a shorter chain than eight in a row.
void WriteRowDigits(uint64_t i, char* out) {
  PutDigits(static_cast<uint32_t>(i / 10000), 4, out);
  PutDigits(static_cast<uint32_t>(i % 10000), 4, out + 4);
}

// DatasetKey(i, key_size) into *out: "key_%08d" repeated to key_size bytes, as PadTo would.
void BuildKey(uint64_t i, uint64_t key_size, std::string* out) {
  char period[kMinKeySize] = {'k', 'e', 'y', '_'};
  WriteRowDigits(i, period + 4);
  out->resize(key_size);
  for (uint64_t at = 0; at < key_size; at += kMinKeySize)
    std::memcpy(out->data() + at, period, std::min(kMinKeySize, key_size - at));
}

// The row whose DatasetKey(row, key_size) is k, or false when k is no such key: "key_", eight digits,
// then the same twelve bytes again until key_size (PadTo's repetition).
bool ParseRowKey(std::string_view k, uint64_t key_size, uint64_t* row) {
  if (k.size() != key_size || key_size < kMinKeySize || k.substr(0, 4) != "key_") return false;
  uint64_t i = 0;
  if (!ParseDigits(k.data() + 4, 8, &i)) return false;
  if (std::memcmp(k.data() + kMinKeySize, k.data(), k.size() - kMinKeySize) != 0) return false;
  *row = i;
  return true;
}

}  // namespace

std::string DatasetKey(uint64_t i, uint64_t key_size) {
  std::string key;
  BuildKey(i, key_size, &key);
  return key;
}

std::string DatasetValue(uint64_t i, uint64_t value_size) {
  return PadTo(fmt::format("value_{:08d}_data", i), value_size);
}

bool DatasetValueEquals(std::string_view digits, uint64_t value_size, std::string_view v) {
  // The value is its first kMinValueSize bytes, "value_%08d_data", repeated (PadTo): v equals it when
  // its first period is that text with these digits and every later byte equals the byte one period
  // before it. The compares read v, which the caller has just written, and the digits.
  if (v.size() != value_size || value_size < kMinValueSize || digits.size() != 8) return false;
  return std::memcmp(v.data(), "value_", 6) == 0 && std::memcmp(v.data() + 6, digits.data(), 8) == 0 &&
         std::memcmp(v.data() + 14, "_data", 5) == 0 &&
         std::memcmp(v.data() + kMinValueSize, v.data(), v.size() - kMinValueSize) == 0;
}

Result<std::shared_ptr<const Dataset>> Dataset::Make(const DatasetShape& shape) {
  if (shape.records == 0 || shape.records > kMaxRecords)
    return Status::InvalidArgument(fmt::format("records must be between 1 and {}, got {}", kMaxRecords, shape.records));
  if (shape.key_size < kMinKeySize || shape.key_size > kMaxItemSize)
    return Status::InvalidArgument(
        fmt::format("key size must be between {} and {} bytes, got {}", kMinKeySize, kMaxItemSize, shape.key_size));
  if (shape.value_size < kMinValueSize || shape.value_size > kMaxItemSize)
    return Status::InvalidArgument(fmt::format("value size must be between {} and {} bytes, got {}", kMinValueSize,
                                               kMaxItemSize, shape.value_size));
  if (shape.records * (shape.key_size + shape.value_size) > (64ull << 30))
    return Status::InvalidArgument("data set larger than 64 GiB");
  std::shared_ptr<Dataset> d(new Dataset(shape));
  d->keys_.reserve(shape.records * shape.key_size);
  d->values_.reserve(shape.records * shape.value_size);
  for (uint64_t i = 0; i < shape.records; ++i) {
    // Up to 64 GiB take a while to build: Ctrl-C ends it within a block of rows.
    if (i % kRowsPerInterruptCheck == 0 && InterruptRequested()) return Status::Interrupted("building the data set");
    d->keys_ += DatasetKey(i, shape.key_size);
    d->values_ += DatasetValue(i, shape.value_size);
  }
  return std::shared_ptr<const Dataset>(std::move(d));
}

std::string_view Dataset::KeyInto(uint64_t i, std::string* buf) const {
  BuildKey(i, shape_.key_size, buf);
  return *buf;
}

bool Dataset::ValueEquals(uint64_t i, std::string_view v) const {
  if (i >= shape_.records) return false;
  char digits[8];
  WriteRowDigits(i, digits);
  return DatasetValueEquals({digits, sizeof digits}, shape_.value_size, v);
}

bool Dataset::Locate(std::string_view k, uint64_t* index) const {
  uint64_t i = 0;
  if (!ParseRowKey(k, shape_.key_size, &i) || i >= shape_.records) return false;
  *index = i;
  return true;
}

uint64_t Dataset::LowerBound(std::string_view k) const {
  // A key of the data set itself names its row: no search (the null adapter's lookups, and so the
  // measured harness overhead, stay free of one).
  if (uint64_t i = 0; Locate(k, &i)) return i;
  // Anything else: binary search over the fixed-width rows.
  uint64_t lo = 0, hi = shape_.records;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (key(mid) < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace dbxb
