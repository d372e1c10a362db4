#include "src/columnar_cache.h"

#include <algorithm>

namespace dbx {

ColumnarCache::Builder::Builder(size_t max_bytes)
    : max_bytes_(std::min<size_t>(max_bytes, 0xffffffffu)), c_(new ColumnarCache()) {}

void ColumnarCache::Builder::Add(std::string_view key, std::string_view value) {
  if (full_) return;
  if (c_->bytes() + key.size() + value.size() + 8 > max_bytes_) {
    full_ = true;
    c_.reset(new ColumnarCache());  // it will never be used: give the memory back now
    return;
  }
  c_->keys_.append(key);
  c_->values_.append(value);
  c_->key_off_.push_back(static_cast<uint32_t>(c_->keys_.size()));
  c_->value_off_.push_back(static_cast<uint32_t>(c_->values_.size()));
  ++rows_;
}

std::shared_ptr<const ColumnarCache> ColumnarCache::Builder::Finish(uint64_t seq) {
  if (full_) return nullptr;
  c_->seq_ = seq;
  c_->keys_.shrink_to_fit();
  c_->values_.shrink_to_fit();
  return std::shared_ptr<const ColumnarCache>(c_.release());
}

size_t ColumnarCache::LowerBound(std::string_view target) const {
  size_t lo = 0, hi = size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (key(mid) < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace dbx
