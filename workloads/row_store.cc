#include "workloads/row_store.h"

#include <cstring>
#include <utility>
#include <vector>

namespace dbxb {
namespace {

constexpr char kRowTag = 'r';
constexpr char kIndexATag = 'a';
constexpr char kIndexBTag = 'b';
constexpr size_t kIntBytes = 8;
constexpr size_t kIndexKeyBytes = 1 + 2 * kIntBytes;
constexpr uint64_t kSignBit = uint64_t{1} << 63;

void AppendIndexKey(char tag, int64_t value, int64_t id, std::string* out) {
  out->push_back(tag);
  AppendOrderedInt64(value, out);
  AppendOrderedInt64(id, out);
}

class KvRowSession final : public RowSession {
 public:
  explicit KvRowSession(std::unique_ptr<Session> session) : s_(std::move(session)) {}

  Status InsertRow(const Row& row) override {
    return InTransaction([&] { return PutRowAndIndexes(row, nullptr); });
  }

  Status GetById(int64_t id, Row* row) override {
    key_.clear();
    key_.push_back(kRowTag);
    AppendOrderedInt64(id, &key_);
    Status st = s_->Get(key_, &value_);
    if (st.IsNotFound()) return Status::NotFound("row " + std::to_string(id));
    DBXB_RETURN_IF_ERROR(st);
    return DecodeRow(id, value_, row);
  }

  Status RangeByIndexA(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range(kIndexATag, lo, limit, visitor);
  }
  Status RangeByIndexB(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range(kIndexBTag, lo, limit, visitor);
  }

  // The current row is read before the write (outside the engine's batch, which may not see it), to
  // learn which index entries move.
  Status UpdateRow(const Row& row) override {
    DBXB_RETURN_IF_ERROR(GetById(row.id, &old_));
    return InTransaction([&] { return PutRowAndIndexes(row, &old_); });
  }

  Status Count(uint64_t* count) override {
    uint64_t n = 0;
    const char start[1] = {kRowTag};
    DBXB_RETURN_IF_ERROR(s_->Scan(std::string_view(start, 1), 0, [&](std::string_view key, std::string_view) {
      if (key.empty() || key[0] != kRowTag) return false;
      ++n;
      return true;
    }));
    *count = n;
    return Status::Ok();
  }

 private:
  // The row transaction is the key/value session's batch.
  Status DoBegin() override { return s_->Begin(); }
  Status DoCommit() override { return s_->Commit(); }
  Status DoAbort() override { return s_->Abort(); }

  // Runs `write` inside the open transaction, or inside one of its own when none is open.
  template <typename Write>
  Status InTransaction(Write write) {
    if (in_transaction()) return write();
    DBXB_RETURN_IF_ERROR(s_->Begin());
    Status st = write();
    if (!st.ok()) {
      (void)s_->Abort();
      return st;
    }
    return s_->Commit();
  }

  static Status DecodeRow(int64_t id, std::string_view value, Row* row) {
    if (value.size() < 2 * kIntBytes)
      return Status::Corruption("row " + std::to_string(id) + ": value of " + std::to_string(value.size()) +
                                " bytes is shorter than its two integer columns");
    row->id = id;
    row->a = DecodeOrderedInt64(value.substr(0, kIntBytes));
    row->b = DecodeOrderedInt64(value.substr(kIntBytes, kIntBytes));
    row->payload.assign(value.substr(2 * kIntBytes));
    return Status::Ok();
  }

  // Writes the row and the index entries that differ from *old (all of them when old is null).
  // REQUIRES: a batch is open.
  Status PutRowAndIndexes(const Row& row, const Row* old) {
    key_.clear();
    key_.push_back(kRowTag);
    AppendOrderedInt64(row.id, &key_);
    value_.clear();
    AppendOrderedInt64(row.a, &value_);
    AppendOrderedInt64(row.b, &value_);
    value_.append(row.payload);
    DBXB_RETURN_IF_ERROR(s_->Put(key_, value_));
    if (old == nullptr || old->a != row.a) DBXB_RETURN_IF_ERROR(MoveIndexEntry(kIndexATag, old, row.a, row.id));
    if (old == nullptr || old->b != row.b) DBXB_RETURN_IF_ERROR(MoveIndexEntry(kIndexBTag, old, row.b, row.id));
    return Status::Ok();
  }

  Status MoveIndexEntry(char tag, const Row* old, int64_t value, int64_t id) {
    if (old != nullptr) {
      key_.clear();
      AppendIndexKey(tag, tag == kIndexATag ? old->a : old->b, id, &key_);
      DBXB_RETURN_IF_ERROR(s_->Delete(key_));
    }
    key_.clear();
    AppendIndexKey(tag, value, id, &key_);
    return s_->Put(key_, {});
  }

  // The index walk collects the ids first: a session's Get may not be called from inside its own Scan
  // visitor (LMDB's read transaction is held during the scan).
  Status Range(char tag, int64_t lo, uint64_t limit, RowVisitor visitor) {
    key_.clear();
    key_.push_back(tag);
    AppendOrderedInt64(lo, &key_);
    entries_.clear();
    Status scan_status = Status::Ok();
    DBXB_RETURN_IF_ERROR(s_->Scan(key_, limit, [&](std::string_view key, std::string_view) {
      if (key.empty() || key[0] != tag) return false;
      if (key.size() != kIndexKeyBytes) {
        scan_status = Status::Corruption("index key of " + std::to_string(key.size()) + " bytes");
        return false;
      }
      entries_.emplace_back(DecodeOrderedInt64(key.substr(1, kIntBytes)),
                            DecodeOrderedInt64(key.substr(1 + kIntBytes, kIntBytes)));
      return true;
    }));
    DBXB_RETURN_IF_ERROR(scan_status);
    for (const auto& [value, id] : entries_) {
      Status st = GetById(id, &row_);
      if (st.IsNotFound())
        return Status::Corruption(std::string("index ") + tag + " entry " + std::to_string(value) +
                                  " points to missing row " + std::to_string(id));
      DBXB_RETURN_IF_ERROR(st);
      if ((tag == kIndexATag ? row_.a : row_.b) != value)
        return Status::Corruption(std::string("index ") + tag + " entry " + std::to_string(value) + " is stale: row " +
                                  std::to_string(id) + " has " + std::to_string(tag == kIndexATag ? row_.a : row_.b));
      if (!visitor(row_)) break;
    }
    return Status::Ok();
  }

  std::unique_ptr<Session> s_;
  // Buffers reused by every call, so that the measured operations do not allocate once warm.
  std::string key_;
  std::string value_;
  Row row_;
  Row old_;
  std::vector<std::pair<int64_t, int64_t>> entries_;  // (indexed value, id) of a range read
};

}  // namespace

void AppendOrderedInt64(int64_t v, std::string* out) {
  uint64_t u = static_cast<uint64_t>(v) ^ kSignBit;
  char bytes[kIntBytes];
  for (int i = kIntBytes - 1; i >= 0; --i) {
    bytes[i] = static_cast<char>(u & 0xff);
    u >>= 8;
  }
  out->append(bytes, kIntBytes);
}

int64_t DecodeOrderedInt64(std::string_view bytes) {
  uint64_t u = 0;
  for (size_t i = 0; i < kIntBytes; ++i) u = (u << 8) | static_cast<unsigned char>(bytes[i]);
  return static_cast<int64_t>(u ^ kSignBit);
}

std::string RowKey(int64_t id) {
  std::string key(1, kRowTag);
  AppendOrderedInt64(id, &key);
  return key;
}

std::string IndexAKey(int64_t a, int64_t id) {
  std::string key;
  AppendIndexKey(kIndexATag, a, id, &key);
  return key;
}

std::string IndexBKey(int64_t b, int64_t id) {
  std::string key;
  AppendIndexKey(kIndexBTag, b, id, &key);
  return key;
}

Result<std::unique_ptr<RowSession>> OpenKvRowSession(Adapter& adapter) {
  Result<std::unique_ptr<Session>> session = adapter.NewSession();
  if (!session.ok()) return session.status();
  return std::unique_ptr<RowSession>(new KvRowSession(std::move(session.value())));
}

Result<std::unique_ptr<RowSession>> OpenRowSession(Adapter& adapter, bool* native) {
  Result<std::unique_ptr<RowSession>> rows = adapter.NewRowSession();
  if (rows.ok() || !rows.status().IsNotSupported()) {
    if (native != nullptr) *native = rows.ok();
    return rows;
  }
  if (native != nullptr) *native = false;
  return OpenKvRowSession(adapter);
}

}  // namespace dbxb
