// Tier 2, the columnar cache: every live key and value of one snapshot packed contiguously (a key
// column, a value column, and offset arrays), built by a full scan and then serving scans, counts and
// iterators of that snapshot at memory speed. Immutable once built; shared by readers.
// A later write makes it stale (its sequence no longer matches) and the next full scan rebuilds it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dbx {

class ColumnarCache {
 public:
  class Builder {
   public:
    /// Stops accepting rows (full() becomes true, and what it held is freed) past max_bytes.
    explicit Builder(size_t max_bytes);
    /// REQUIRES: keys ascending.
    void Add(std::string_view key, std::string_view value);
    bool full() const { return full_; }
    /// Rows added before the builder became full (all of them while it is not).
    size_t rows() const { return rows_; }
    std::shared_ptr<const ColumnarCache> Finish(uint64_t seq);

   private:
    size_t max_bytes_;
    bool full_ = false;
    size_t rows_ = 0;
    std::unique_ptr<ColumnarCache> c_;
  };

  uint64_t seq() const { return seq_; }
  size_t size() const { return key_off_.size() - 1; }
  size_t bytes() const { return keys_.size() + values_.size() + 8 * key_off_.size(); }
  std::string_view key(size_t i) const { return {keys_.data() + key_off_[i], key_off_[i + 1] - key_off_[i]}; }
  std::string_view value(size_t i) const { return {values_.data() + value_off_[i], value_off_[i + 1] - value_off_[i]}; }
  /// First row with key >= target.
  size_t LowerBound(std::string_view target) const;

 private:
  ColumnarCache() = default;
  uint64_t seq_ = 0;
  std::string keys_, values_;
  std::vector<uint32_t> key_off_{0}, value_off_{0};
};

}  // namespace dbx
