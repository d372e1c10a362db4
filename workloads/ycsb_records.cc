#include "workloads/ycsb_records.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

namespace dbxb {
namespace {

constexpr size_t kPoolBytes = 64 << 10;

using FieldDist = YcsbWorkload::FieldLengthDistribution;

void PutLength(uint32_t n, std::string* out) {
  const char b[4] = {static_cast<char>(n), static_cast<char>(n >> 8), static_cast<char>(n >> 16),
                     static_cast<char>(n >> 24)};
  out->append(b, 4);
}

uint32_t GetLength(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<uint32_t>(u[0]) | static_cast<uint32_t>(u[1]) << 8 | static_cast<uint32_t>(u[2]) << 16 |
         static_cast<uint32_t>(u[3]) << 24;
}

}  // namespace

void YcsbKey(uint64_t keynum, const YcsbWorkload& w, std::string* out) {
  char digits[24];
  char* end;
  if (w.insert_order == YcsbWorkload::InsertOrder::kHashed) {
    // YCSB: Math.abs((long) fnvhash64(keynum)); Math.abs leaves Long.MIN_VALUE negative.
    int64_t h = static_cast<int64_t>(Fnv1a64(keynum));
    if (h < 0 && h != std::numeric_limits<int64_t>::min()) h = -h;
    end = std::to_chars(digits, digits + sizeof digits, h).ptr;
  } else {
    end = std::to_chars(digits, digits + sizeof digits, keynum).ptr;
  }
  const size_t len = static_cast<size_t>(end - digits);
  const size_t fill = w.zero_padding > len ? w.zero_padding - len : 0;
  out->assign("user");
  out->append(fill, '0');
  out->append(digits, len);
}

std::string YcsbKey(uint64_t keynum, const YcsbWorkload& w) {
  std::string key;
  YcsbKey(keynum, w, &key);
  return key;
}

int32_t JavaStringHash(std::string_view text) {
  uint32_t h = 0;
  for (char c : text) h = 31 * h + static_cast<unsigned char>(c);
  return static_cast<int32_t>(h);
}

void AppendDeterministicField(std::string_view key, std::string_view field_name, size_t length, std::string* out) {
  const size_t base = out->size();
  // The hash of the growing text is kept up to date character by character, which gives the same value
  // as hashing the whole text each round (the hash is a polynomial in the characters).
  uint32_t h = 0;
  auto append = [&](std::string_view s) {
    out->append(s);
    for (char c : s) h = 31 * h + static_cast<unsigned char>(c);
  };
  append(key);
  append(":");
  append(field_name);
  while (out->size() - base < length) {
    append(":");
    char digits[16];
    char* end = std::to_chars(digits, digits + sizeof digits, static_cast<int32_t>(h)).ptr;
    append(std::string_view(digits, static_cast<size_t>(end - digits)));
  }
  out->resize(base + length);
}

YcsbRecordCodec::YcsbRecordCodec(const YcsbWorkload& w, uint64_t seed)
    : w_(w),
      rng_(seed),
      length_ranks_(std::max<uint64_t>(1, w.field_length - std::min(w.field_length, w.min_field_length) + 1)) {
  for (uint64_t i = 0; i < w.field_count; ++i) field_names_.push_back(w.field_name_prefix + std::to_string(i));
  pool_.resize(kPoolBytes + w.field_length);
  for (char& c : pool_) c = static_cast<char>(' ' + rng_.Below(95));  // printable ASCII, as YCSB's values
  scratch_.reserve(w.field_length + 32);
}

uint64_t YcsbRecordCodec::NextFieldLength() {
  switch (w_.field_length_distribution) {
    case FieldDist::kConstant:
      return w_.field_length;
    case FieldDist::kUniform:
      return w_.min_field_length + rng_.Below(w_.field_length - w_.min_field_length + 1);
    case FieldDist::kZipfian:
      return w_.min_field_length + length_ranks_.Rank(rng_.NextDouble());
  }
  return w_.field_length;
}

void YcsbRecordCodec::AppendField(std::string_view key, uint64_t field, std::string* out) {
  const uint64_t len = NextFieldLength();
  PutLength(static_cast<uint32_t>(len), out);
  if (w_.data_integrity) {
    AppendDeterministicField(key, FieldName(field), len, out);
  } else {
    out->append(pool_, rng_.Below(pool_.size() - len + 1), len);
  }
}

void YcsbRecordCodec::BuildValue(std::string_view key, std::string* out) {
  out->clear();
  for (uint64_t f = 0; f < w_.field_count; ++f) AppendField(key, f, out);
}

void YcsbRecordCodec::UpdateValue(std::string_view key, std::string_view value, uint64_t field, std::string* out) {
  if (field >= w_.field_count) {
    BuildValue(key, out);
    return;
  }
  out->clear();
  size_t pos = 0;
  for (uint64_t f = 0; f < w_.field_count; ++f) {
    const size_t encoded = kLengthBytes + GetLength(value.data() + pos);
    if (f == field)
      AppendField(key, f, out);
    else
      out->append(value.data() + pos, encoded);
    pos += encoded;
  }
}

Status YcsbRecordCodec::Verify(std::string_view key, std::string_view value) {
  size_t pos = 0;
  for (uint64_t f = 0; f < w_.field_count; ++f) {
    if (value.size() - pos < kLengthBytes)
      return Status::Corruption(
          fmt::format("key {}: value of {} bytes ends before field {} of {}", key, value.size(), f, w_.field_count));
    const uint64_t len = GetLength(value.data() + pos);
    pos += kLengthBytes;
    const bool constant = w_.field_length_distribution == FieldDist::kConstant;
    if (constant ? len != w_.field_length : (len < w_.min_field_length || len > w_.field_length))
      return Status::Corruption(fmt::format("key {}: field {} has length {} (expected {})", key, FieldName(f), len,
                                            constant ? fmt::format("{}", w_.field_length)
                                                     : fmt::format("{} to {}", w_.min_field_length, w_.field_length)));
    if (value.size() - pos < len)
      return Status::Corruption(
          fmt::format("key {}: field {} is cut off ({} of {} bytes)", key, FieldName(f), value.size() - pos, len));
    if (w_.data_integrity) {
      scratch_.clear();
      AppendDeterministicField(key, FieldName(f), len, &scratch_);
      if (value.compare(pos, len, scratch_) != 0)
        return Status::Corruption(
            fmt::format("key {}: field {} does not hold its deterministic value", key, FieldName(f)));
    }
    pos += len;
  }
  if (pos != value.size())
    return Status::Corruption(
        fmt::format("key {}: {} bytes after the last of {} fields", key, value.size() - pos, w_.field_count));
  return Status::Ok();
}

YcsbReferenceData::YcsbReferenceData(const YcsbWorkload& w, uint64_t first, uint64_t count) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.reserve(count);
  std::string canonical;
  for (uint64_t f = 0; f < w.field_count; ++f) {
    PutLength(static_cast<uint32_t>(w.field_length), &canonical);
    canonical.append(w.field_length, 'x');
  }
  for (uint64_t n = first; n < first + count; ++n) {
    std::string key = YcsbKey(n, w);
    std::string value;
    if (w.data_integrity) {
      for (uint64_t f = 0; f < w.field_count; ++f) {
        PutLength(static_cast<uint32_t>(w.field_length), &value);
        AppendDeterministicField(key, w.field_name_prefix + std::to_string(f), w.field_length, &value);
      }
    }
    rows.emplace_back(std::move(key), std::move(value));
  }
  std::sort(rows.begin(), rows.end());
  for (auto& [k, v] : rows) {
    keys_.push_back(std::move(k));
    if (w.data_integrity) values_.push_back(std::move(v));
  }
  if (!w.data_integrity) values_.push_back(std::move(canonical));
}

uint64_t YcsbReferenceData::LowerBound(std::string_view key) const {
  return static_cast<uint64_t>(std::lower_bound(keys_.begin(), keys_.end(), key) - keys_.begin());
}

}  // namespace dbxb
