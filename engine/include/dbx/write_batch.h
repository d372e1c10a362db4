// WriteBatch: an ordered list of Puts and Deletes applied atomically by DB::Write. Later entries win
// over earlier ones for the same key. Not thread-safe; a batch may be reused after Clear().
// Limits: keys and values below 4 GiB each, a whole batch at most 1 GiB (DB::Write: InvalidArgument).
// Copyable and movable.
#pragma once

#include <cstdint>
#include <string_view>

#include "dbx/status.h"

namespace dbx {

class WriteBatch {
 public:
  WriteBatch();
  ~WriteBatch();
  WriteBatch(const WriteBatch& other);
  WriteBatch& operator=(const WriteBatch& other);
  WriteBatch(WriteBatch&& other) noexcept;
  WriteBatch& operator=(WriteBatch&& other) noexcept;

  void Put(std::string_view key, std::string_view value);
  void Delete(std::string_view key);
  /// Removes every entry; the batch keeps its buffer for the next ones.
  void Clear();
  /// Number of Puts and Deletes.
  uint32_t Count() const;
  /// Approximate bytes of the encoded batch.
  size_t ByteSize() const { return size_; }
  /// Pre-sizes the encoding for `bytes` more bytes of entries.
  void Reserve(size_t bytes);

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
  // A single small Put or Delete (DB::Put's batch) fits here, with no allocation.
  static constexpr size_t kInlineBytes = 128;
  // Up to this many bytes a batch grows on the heap; beyond, in buffer_pool's classes (64 KiB to 4 MiB),
  // and past those on the heap again.
  static constexpr size_t kHeapBytes = 4096;
  // Makes room for size_ + more bytes, keeping the contents.
  void EnsureRoom(size_t more);
  void Assign(const char* data, size_t n);
  void Release();

  // 8-byte sequence, 4-byte count, then per entry: type byte, varint key size, key,
  // and for a Put a varint value size and the value. This is also the WAL record payload.
  // The bytes are in inline_, on the heap, or, from kHeapBytes to 4 MiB, in pages the engine reuses
  // (a bulk load's batches would otherwise fault in fresh memory on every batch).
  char* data_;
  size_t size_;
  size_t capacity_;
  char inline_[kInlineBytes];
};

}  // namespace dbx
