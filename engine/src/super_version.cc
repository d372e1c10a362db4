#include "src/super_version.h"

namespace dbx {

Status SuperVersion::Get(std::string_view key, uint64_t hash, uint64_t snapshot, bool skip_active, Lookup* result,
                         std::string* value, uint64_t* seq) const {
  *result = Lookup::kAbsent;
  // The first cache miss of every tier (a hash slot, a filter line) is started now, so that they
  // overlap instead of adding up one tier after the other.
  if (!skip_active && active->keys() != 0) active->Prefetch(hash);
  for (const FrozenDelta& f : frozen) f.table->Prefetch(hash);
  if (wos != nullptr && wos->table->keys() != 0) wos->table->Prefetch(hash);
  if (frozen_wos != nullptr) frozen_wos->table->Prefetch(hash);
  for (const auto& s : segments) s->PrefetchFilter(hash);
  if (!skip_active && active->keys() != 0 && MemGet(*active, key, hash, snapshot, result, value, seq))
    return Status::Ok();
  for (const FrozenDelta& f : frozen)
    if (MemGet(*f.table, key, hash, snapshot, result, value, seq)) return Status::Ok();
  if (wos != nullptr && wos->table->keys() != 0 && MemGet(*wos->table, key, hash, snapshot, result, value, seq))
    return Status::Ok();
  if (frozen_wos != nullptr && MemGet(*frozen_wos->table, key, hash, snapshot, result, value, seq)) return Status::Ok();
  for (const auto& s : segments) {
    DBX_RETURN_IF_ERROR(s->Get(key, hash, snapshot, result, value, seq));
    if (*result != Lookup::kAbsent) return Status::Ok();
  }
  return Status::Ok();
}

void SuperVersion::AddIterators(std::vector<std::unique_ptr<InternalIterator>>* out) const {
  out->reserve(out->size() + 1 + frozen.size() + 2 + segments.size());
  if (active->keys() != 0) out->push_back(NewMemTableIterator(active.get()));
  for (const FrozenDelta& f : frozen) out->push_back(NewMemTableIterator(f.table.get()));
  if (wos != nullptr) out->push_back(NewMemTableIterator(wos->table.get()));
  if (frozen_wos != nullptr) out->push_back(NewMemTableIterator(frozen_wos->table.get()));
  for (const auto& s : segments) out->push_back(s->NewIterator());
}

namespace {

class MemTableIterator final : public InternalIterator {
 public:
  explicit MemTableIterator(const MemTable* t) : t_(t) {}
  bool Valid() const override { return v_ != nullptr; }
  void SeekToFirst() override { SettleAt(t_->First()); }
  void Seek(std::string_view target) override { SettleAt(t_->SeekNode(target)); }
  void Next() override {
    v_ = v_->older;
    if (v_ == nullptr) SettleAt(n_->Next(0));
  }
  std::string_view key() const override { return n_->key(); }
  uint64_t tag() const override { return v_->tag; }
  std::string_view value() const override { return v_->value(); }
  Status status() const override { return Status::Ok(); }

 private:
  void SettleAt(const MemNode* n) {
    // A node linked by a concurrent writer may not have its first version yet: skip it (that
    // version is newer than any snapshot this iterator serves).
    for (; n != nullptr; n = n->Next(0)) {
      v_ = n->head.load(std::memory_order_acquire);
      if (v_ != nullptr) {
        n_ = n;
        return;
      }
    }
    n_ = nullptr;
    v_ = nullptr;
  }
  const MemTable* t_;
  const MemNode* n_ = nullptr;
  const MemVersion* v_ = nullptr;
};

}  // namespace

std::unique_ptr<InternalIterator> NewMemTableIterator(const MemTable* table) {
  return std::make_unique<MemTableIterator>(table);
}

}  // namespace dbx
