// ReferenceData: a read-only view of the rows a workload expects a store to hold, in key order.
// Workloads provide it (workloads/dataset.h); the null adapter answers from it, so that it returns
// what a perfect store would while storing nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dbxb {

class ReferenceData {
 public:
  virtual ~ReferenceData() = default;
  /// Number of rows.
  virtual uint64_t size() const = 0;
  /// Index of the first row whose key is >= key (size() if none).
  virtual uint64_t LowerBound(std::string_view key) const = 0;
  /// REQUIRES: i < size(). Views stay valid for the object's lifetime.
  virtual std::string_view key(uint64_t i) const = 0;
  virtual std::string_view value(uint64_t i) const = 0;
  /// The bytes of key(i), for a reader to pass to a store: a data set whose keys follow from the row
  /// number overrides it to build them into *buf (its contents replaced; no allocation once it has
  /// room) instead of fetching key(i) from its storage, in random order a cache miss per read that
  /// db_bench and YCSB, which build each key from its number, do not pay. The view is valid until *buf
  /// changes or this object dies. REQUIRES: i < size().
  virtual std::string_view KeyInto(uint64_t i, std::string* buf) const {
    (void)buf;
    return key(i);
  }
  /// True when `v` is exactly value(i), every byte of it. The check a reader makes of each value it
  /// gets back. REQUIRES: i < size(). A data set whose rows follow from their number overrides it to
  /// rebuild the expected bytes instead of fetching value(i) from its storage, in random order a cache
  /// miss per read that no engine's own benchmark pays.
  virtual bool ValueEquals(uint64_t i, std::string_view v) const { return v == value(i); }
  /// True, with *index set, when `key` equals key(*index) and an implementation can tell so without a
  /// search or a read of its stored rows (a data set whose keys carry their row number). False
  /// otherwise: call LowerBound.
  virtual bool Locate(std::string_view key, uint64_t* index) const {
    (void)key;
    (void)index;
    return false;
  }
};

}  // namespace dbxb
