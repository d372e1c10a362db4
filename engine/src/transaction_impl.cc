// Transactions: optimistic snapshot isolation. Writes are buffered in a WriteBatch (indexed lazily,
// only when the transaction reads), and validated against newer commits in the commit pipeline.
#include <unordered_map>

#include "src/db_impl.h"
#include "src/write_batch_internal.h"

namespace dbx {
namespace {

class TransactionImpl final : public Transaction {
 public:
  TransactionImpl(DBImpl* db, const Snapshot* snapshot) : db_(db), snapshot_(snapshot) {}
  ~TransactionImpl() override {
    if (!finished_) (void)Abort();
  }

  Status Get(std::string_view key, std::string* value) override {
    if (finished_) return Status::InvalidArgument("transaction already finished");
    IndexOwnWrites();
    auto it = own_.find(std::string(key));
    if (it != own_.end()) {
      if (!it->second.first) return Status::NotFound();
      value->assign(it->second.second);
      return Status::Ok();
    }
    ReadOptions ro;
    ro.snapshot = snapshot_;
    return db_->Get(ro, key, value);
  }
  Status Put(std::string_view key, std::string_view value) override {
    if (finished_) return Status::InvalidArgument("transaction already finished");
    batch_.Put(key, value);
    return Status::Ok();
  }
  Status Delete(std::string_view key) override {
    if (finished_) return Status::InvalidArgument("transaction already finished");
    batch_.Delete(key);
    return Status::Ok();
  }
  Status Commit() override {
    if (finished_) return Status::InvalidArgument("transaction already finished");
    Status s = db_->WriteImpl(&batch_, true, snapshot_->sequence());
    Finish();
    return s;
  }
  Status Abort() override {
    if (finished_) return Status::InvalidArgument("transaction already finished");
    Finish();
    return Status::Ok();
  }

 private:
  void Finish() {
    db_->ReleaseSnapshot(snapshot_);
    snapshot_ = nullptr;
    finished_ = true;
    batch_.Clear();
    own_.clear();
  }
  // Brings the read-your-writes index up to date with the batch (only the new entries).
  void IndexOwnWrites() {
    std::string_view rep = WriteBatchInternal::Contents(batch_);
    if (indexed_ >= rep.size()) return;
    WriteBatchInternal::Reader r(rep, indexed_ == 0 ? WriteBatchInternal::kHeader : indexed_);
    ValueType t;
    std::string_view k, v;
    while (r.Next(&t, &k, &v)) own_[std::string(k)] = {t == ValueType::kPut, std::string(v)};
    indexed_ = r.offset();
  }

  DBImpl* db_;
  const Snapshot* snapshot_;
  WriteBatch batch_;
  std::unordered_map<std::string, std::pair<bool, std::string>> own_;
  size_t indexed_ = 0;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<Transaction> DBImpl::BeginTransaction(const WriteOptions&) {
  return std::make_unique<TransactionImpl>(this, GetSnapshot());
}

}  // namespace dbx
