#include "workloads/dataset.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

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

}  // namespace

std::string DatasetKey(uint64_t i, uint64_t key_size) { return PadTo(fmt::format("key_{:08d}", i), key_size); }

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
    d->keys_ += DatasetKey(i, shape.key_size);
    d->values_ += DatasetValue(i, shape.value_size);
  }
  return std::shared_ptr<const Dataset>(std::move(d));
}

uint64_t Dataset::LowerBound(std::string_view k) const {
  // Fast path for a key of the data set itself: its row number is written in it. This keeps the null
  // adapter's lookups (and so the measured harness overhead) free of a search.
  if (k.size() == shape_.key_size && k.substr(0, 4) == "key_") {
    uint64_t i = 0;
    bool digits = true;
    for (char c : k.substr(4, 8)) {
      digits &= c >= '0' && c <= '9';
      i = i * 10 + static_cast<uint64_t>(c - '0');
    }
    if (digits && i < shape_.records && key(i) == k) return i;
  }
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
