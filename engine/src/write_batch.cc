#include "dbx/write_batch.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "src/buffer_pool.h"
#include "src/coding.h"
#include "src/write_batch_internal.h"

namespace dbx {

WriteBatch::WriteBatch() : data_(inline_), size_(0), capacity_(kInlineBytes) { Clear(); }

WriteBatch::~WriteBatch() { Release(); }

WriteBatch::WriteBatch(const WriteBatch& other) : WriteBatch() { Assign(other.data_, other.size_); }

WriteBatch& WriteBatch::operator=(const WriteBatch& other) {
  if (this != &other) Assign(other.data_, other.size_);
  return *this;
}

WriteBatch::WriteBatch(WriteBatch&& other) noexcept : WriteBatch() { *this = std::move(other); }

WriteBatch& WriteBatch::operator=(WriteBatch&& other) noexcept {
  if (this == &other) return *this;
  if (other.data_ == other.inline_) {
    std::memcpy(data_, other.data_, other.size_);  // our buffer holds at least kInlineBytes
    size_ = other.size_;
  } else {
    Release();
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = other.inline_;
    other.capacity_ = kInlineBytes;
  }
  other.Clear();
  return *this;
}

void WriteBatch::Release() {
  if (data_ == inline_) return;
  if (buffer_pool::IsClass(capacity_))
    buffer_pool::Give(data_, capacity_);
  else
    delete[] data_;
  data_ = inline_;
  capacity_ = kInlineBytes;
}

void WriteBatch::EnsureRoom(size_t more) {
  const size_t need = size_ + more;
  if (need <= capacity_) return;
  size_t cap = std::max(need, 2 * capacity_);
  char* p;
  // Past a few KiB a batch is a bulk load's: it goes straight to pages the engine reuses.
  if (cap > kHeapBytes && cap <= buffer_pool::kMaxPooledClass) cap = buffer_pool::ClassSize(cap);
  if (buffer_pool::IsClass(cap)) {
    p = buffer_pool::Take(cap);
  } else {
    p = new char[cap];
  }
  std::memcpy(p, data_, size_);
  Release();
  data_ = p;
  capacity_ = cap;
}

void WriteBatch::Assign(const char* data, size_t n) {
  size_ = 0;
  EnsureRoom(n);
  std::memcpy(data_, data, n);
  size_ = n;
}

void WriteBatch::Reserve(size_t bytes) { EnsureRoom(bytes); }

void WriteBatch::Clear() {
  std::memset(data_, 0, WriteBatchInternal::kHeader);
  size_ = WriteBatchInternal::kHeader;
}

uint32_t WriteBatch::Count() const { return DecodeFixed32(data_ + 8); }

void WriteBatch::Put(std::string_view key, std::string_view value) {
  // Room for the largest encoding, then direct encoding: Put is on the hot path of bulk loads.
  EnsureRoom(1 + 5 + key.size() + 5 + value.size());
  EncodeFixed32(data_ + 8, Count() + 1);
  char* p = data_ + size_;
  *p++ = static_cast<char>(ValueType::kPut);
  p = EncodeVarint64(p, key.size());
  // memcpy from an empty view's data() (may be null) is undefined behaviour even for 0 bytes.
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p += key.size();
  p = EncodeVarint64(p, value.size());
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
  size_ = static_cast<size_t>(p + value.size() - data_);
}

void WriteBatch::Delete(std::string_view key) {
  EnsureRoom(1 + 5 + key.size());
  EncodeFixed32(data_ + 8, Count() + 1);
  char* p = data_ + size_;
  *p++ = static_cast<char>(ValueType::kDelete);
  p = EncodeVarint64(p, key.size());
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  size_ = static_cast<size_t>(p + key.size() - data_);
}

Status WriteBatch::Iterate(Handler* handler) const {
  WriteBatchInternal::Reader r(WriteBatchInternal::Contents(*this));
  ValueType type;
  std::string_view key, value;
  uint32_t n = 0;
  while (r.Next(&type, &key, &value)) {
    ++n;
    if (type == ValueType::kPut)
      handler->Put(key, value);
    else
      handler->Delete(key);
  }
  if (r.corrupt()) return Status::Corruption("malformed write batch entry");
  if (n != Count()) return Status::Corruption("write batch count mismatch");
  return Status::Ok();
}

Status WriteBatchInternal::SetContents(WriteBatch* b, std::string_view contents) {
  if (contents.size() < kHeader) return Status::Corruption("write batch too short");
  b->Assign(contents.data(), contents.size());
  return Status::Ok();
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch& src) {
  const size_t n = src.size_ - kHeader;
  dst->EnsureRoom(n);  // before reading src: dst may be src
  EncodeFixed32(dst->data_ + 8, dst->Count() + src.Count());
  std::memcpy(dst->data_ + dst->size_, src.data_ + kHeader, n);
  dst->size_ += n;
}

}  // namespace dbx
