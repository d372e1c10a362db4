// WriteBatch: an ordered list of Puts and Deletes applied atomically by DB::Write. Later entries win
// over earlier ones for the same key. Not thread-safe; a batch may be reused after Clear().
// Limits: keys and values below 4 GiB each, a whole batch at most 1 GiB (DB::Write: InvalidArgument).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dbx/status.h"

namespace dbx {

class WriteBatch {
 public:
  WriteBatch() { Clear(); }

  void Put(std::string_view key, std::string_view value);
  void Delete(std::string_view key);
  /// Removes every entry.
  void Clear();
  /// Number of Puts and Deletes.
  uint32_t Count() const;
  /// Approximate bytes of the encoded batch.
  size_t ByteSize() const { return rep_.size(); }
  /// Pre-sizes the encoding for `bytes` more bytes of entries.
  void Reserve(size_t bytes) { rep_.reserve(rep_.size() + bytes); }

  /// Receives every entry in order.
  class Handler {
   public:
    virtual ~Handler() = default;
    virtual void Put(std::string_view key, std::string_view value) = 0;
    virtual void Delete(std::string_view key) = 0;
  };
  /// Calls the handler once per entry. Corruption when the encoding is malformed.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;
  // 8-byte sequence, 4-byte count, then per entry: type byte, varint key size, key,
  // and for a Put a varint value size and the value. This is also the WAL record payload.
  std::string rep_;
};

}  // namespace dbx
