// Engine-side access to a WriteBatch's encoding (also the WAL record payload) and a fast,
// allocation-free walk over its entries.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dbx/write_batch.h"
#include "src/coding.h"

namespace dbx {

enum class ValueType : uint8_t { kDelete = 0, kPut = 1 };

class WriteBatchInternal {
 public:
  static constexpr size_t kHeader = 12;  // 8-byte sequence + 4-byte count

  static uint64_t Sequence(const WriteBatch& b) { return DecodeFixed64(b.data_); }
  static void SetSequence(WriteBatch* b, uint64_t seq) { EncodeFixed64(b->data_, seq); }
  static std::string_view Contents(const WriteBatch& b) { return {b.data_, b.size_}; }
  /// Replaces the batch with a WAL payload. Corruption when it is too short to be one.
  static Status SetContents(WriteBatch* b, std::string_view contents);
  /// Appends src's entries to dst.
  static void Append(WriteBatch* dst, const WriteBatch& src);

  /// Walks the entries of an encoded batch without copying. Stops at the first malformed entry
  /// (status() is then Corruption).
  class Reader {
   public:
    /// Starts at byte `offset` of the encoding (the first entry by default).
    explicit Reader(std::string_view rep, size_t offset = kHeader)
        : base_(rep.data()),
          p_(rep.data() + (rep.size() >= offset ? offset : rep.size())),
          limit_(rep.data() + rep.size()) {}
    /// Byte offset of the next entry.
    size_t offset() const { return static_cast<size_t>(p_ - base_); }
    /// Reads the next entry; false at the end or on malformed input.
    bool Next(ValueType* type, std::string_view* key, std::string_view* value) {
      if (p_ >= limit_) return false;
      auto t = static_cast<uint8_t>(*p_++);
      uint32_t n;
      if (t > 1 || (p_ = DecodeVarint32(p_, limit_, &n)) == nullptr || n > static_cast<size_t>(limit_ - p_))
        return Fail();
      *key = std::string_view(p_, n);
      p_ += n;
      *type = static_cast<ValueType>(t);
      if (t == 1) {
        if ((p_ = DecodeVarint32(p_, limit_, &n)) == nullptr || n > static_cast<size_t>(limit_ - p_)) return Fail();
        *value = std::string_view(p_, n);
        p_ += n;
      } else {
        *value = {};
      }
      return true;
    }
    bool corrupt() const { return corrupt_; }

   private:
    bool Fail() {
      corrupt_ = true;
      p_ = limit_;
      return false;
    }
    const char* base_;
    const char* p_;
    const char* limit_;
    bool corrupt_ = false;
  };
};

}  // namespace dbx
