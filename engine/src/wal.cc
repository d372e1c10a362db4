#include "src/wal.h"

#include "src/coding.h"
#include "src/crc32c.h"

namespace dbx {

void AppendWalRecord(std::string* dst, std::string_view payload) {
  size_t at = dst->size();
  dst->resize(at + kWalHeader);
  EncodeFixed32(dst->data() + at + 4, static_cast<uint32_t>(payload.size()));
  dst->append(payload);
  uint32_t crc = crc32c::Value(dst->data() + at + 4, 4 + payload.size());
  EncodeFixed32(dst->data() + at, crc32c::Mask(crc));
}

void AppendWalBatchRecord(std::string* dst, std::string_view rep, uint64_t seq) {
  size_t at = dst->size();
  dst->resize(at + kWalHeader + 8);
  EncodeFixed32(dst->data() + at + 4, static_cast<uint32_t>(rep.size()));
  EncodeFixed64(dst->data() + at + kWalHeader, seq);
  dst->append(rep.substr(8));
  uint32_t crc = crc32c::Value(dst->data() + at + 4, 4 + rep.size());
  EncodeFixed32(dst->data() + at, crc32c::Mask(crc));
}

Status WalWriter::Create(Env* env, const std::string& path, uint64_t number, std::unique_ptr<WalWriter>* out) {
  std::unique_ptr<WritableFile> f;
  DBX_RETURN_IF_ERROR(env->NewWritableFile(path, &f));
  out->reset(new WalWriter(std::move(f), number));
  return Status::Ok();
}

Status WalWriter::AppendFramed(std::string_view framed) {
  DBX_RETURN_IF_ERROR(file_->Append(framed));
  return file_->Flush();
}

Status WalWriter::Sync() { return file_->SyncData(); }
Status WalWriter::Close() { return file_->Close(); }

namespace {

// Length of the whole record at pos, 0 when there is none.
size_t RecordAt(std::string_view data, size_t pos) {
  if (data.size() - pos < kWalHeader) return 0;
  uint32_t masked = DecodeFixed32(data.data() + pos);
  uint32_t len = DecodeFixed32(data.data() + pos + 4);
  if (len == 0 || len > data.size() - pos - kWalHeader) return 0;
  uint32_t crc = crc32c::Value(data.data() + pos + 4, 4 + static_cast<size_t>(len));
  if (crc32c::Unmask(masked) != crc) return 0;
  return kWalHeader + len;
}

}  // namespace

Status ReadWalRecords(std::string_view data, const std::function<Status(std::string_view)>& fn, WalReadResult* result,
                      const WalDamageFn& after_damage) {
  *result = WalReadResult();
  size_t pos = 0;
  while (pos < data.size()) {
    size_t n = RecordAt(data, pos);
    if (n == 0) break;
    DBX_RETURN_IF_ERROR(fn(data.substr(pos + kWalHeader, n - kWalHeader)));
    pos += n;
    result->records++;
  }
  result->valid_bytes = pos;
  result->torn = pos < data.size();
  if (!result->torn || after_damage == nullptr) return Status::Ok();
  // A torn write leaves only garbage after the last good record; a whole record further on means
  // the damage is in the middle (a flipped bit, a lost sector), and what follows it was committed.
  for (size_t at = pos + 1; at < data.size();) {
    size_t n = RecordAt(data, at);
    if (n == 0) {
      ++at;
      continue;
    }
    DBX_RETURN_IF_ERROR(after_damage(data.substr(at + kWalHeader, n - kWalHeader)));
    at += n;
  }
  return Status::Ok();
}

Status ReadWalFile(Env* env, const std::string& path, const std::function<Status(std::string_view)>& fn,
                   WalReadResult* result, const WalDamageFn& after_damage) {
  std::string data;
  DBX_RETURN_IF_ERROR(env->ReadFileToString(path, &data));
  return ReadWalRecords(data, fn, result, after_damage);
}

}  // namespace dbx
