#include "dbx/write_batch.h"

#include "src/coding.h"
#include "src/write_batch_internal.h"

namespace dbx {

void WriteBatch::Clear() {
  rep_.clear();
  rep_.resize(WriteBatchInternal::kHeader, '\0');
}

uint32_t WriteBatch::Count() const { return DecodeFixed32(rep_.data() + 8); }

void WriteBatch::Put(std::string_view key, std::string_view value) {
  EncodeFixed32(rep_.data() + 8, Count() + 1);
  // One resize and direct encoding: Put is on the hot path of bulk loads.
  size_t old = rep_.size();
  rep_.resize(old + 1 + VarintLength(key.size()) + key.size() + VarintLength(value.size()) + value.size());
  char* p = rep_.data() + old;
  *p++ = static_cast<char>(ValueType::kPut);
  p = EncodeVarint64(p, key.size());
  // memcpy from an empty view's data() (may be null) is undefined behaviour even for 0 bytes.
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  p += key.size();
  p = EncodeVarint64(p, value.size());
  if (!value.empty()) std::memcpy(p, value.data(), value.size());
}

void WriteBatch::Delete(std::string_view key) {
  EncodeFixed32(rep_.data() + 8, Count() + 1);
  rep_.push_back(static_cast<char>(ValueType::kDelete));
  PutLengthPrefixed(&rep_, key);
}

Status WriteBatch::Iterate(Handler* handler) const {
  WriteBatchInternal::Reader r(rep_);
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
  b->rep_.assign(contents);
  return Status::Ok();
}

void WriteBatchInternal::Append(WriteBatch* dst, const WriteBatch& src) {
  EncodeFixed32(dst->rep_.data() + 8, dst->Count() + src.Count());
  dst->rep_.append(src.rep_, kHeader, std::string::npos);
}

}  // namespace dbx
