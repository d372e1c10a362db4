#include "src/db_iter.h"

#include <string>

#include "src/key_compare.h"
#include "src/merging_iterator.h"

namespace dbx {
namespace {

class DBIter final : public Iterator {
 public:
  DBIter(std::shared_ptr<const SuperVersion> sv, uint64_t snapshot, std::function<void()> on_destroy)
      : sv_(std::move(sv)), snapshot_(snapshot), on_destroy_(std::move(on_destroy)) {
    std::vector<std::unique_ptr<InternalIterator>> children;
    sv_->AddIterators(&children);
    iter_ = NewMergingIterator(std::move(children));
  }
  ~DBIter() override {
    iter_.reset();
    if (on_destroy_) on_destroy_();
  }

  bool Valid() const override { return valid_; }
  void SeekToFirst() override {
    iter_->SeekToFirst();
    Settle(false);
  }
  void Seek(std::string_view target) override {
    iter_->Seek(target);
    Settle(false);
  }
  void Next() override {
    skip_.assign(iter_->key());
    iter_->Next();
    Settle(true);
  }
  std::string_view key() const override { return iter_->key(); }
  std::string_view value() const override { return iter_->value(); }
  Status status() const override { return iter_->status(); }

 private:
  // Moves to the newest visible version of the next key that is not deleted; with `skipping`,
  // versions of skip_ (the key just left) are passed over first.
  void Settle(bool skipping) {
    while (iter_->Valid()) {
      uint64_t tag = iter_->tag();
      if (TagSeq(tag) > snapshot_ || (skipping && KeyEqual(iter_->key(), skip_))) {
        iter_->Next();
        continue;
      }
      if (TagType(tag) == ValueType::kDelete) {
        skip_.assign(iter_->key());
        skipping = true;
        iter_->Next();
        continue;
      }
      valid_ = true;
      return;
    }
    valid_ = false;
  }

  std::shared_ptr<const SuperVersion> sv_;
  uint64_t snapshot_;
  std::function<void()> on_destroy_;
  std::unique_ptr<InternalIterator> iter_;
  std::string skip_;
  bool valid_ = false;
};

class CacheIterator final : public Iterator {
 public:
  explicit CacheIterator(std::shared_ptr<const ColumnarCache> c) : c_(std::move(c)), i_(c_->size()) {}
  bool Valid() const override { return i_ < c_->size(); }
  void SeekToFirst() override { i_ = 0; }
  void Seek(std::string_view target) override { i_ = c_->LowerBound(target); }
  void Next() override { ++i_; }
  std::string_view key() const override { return c_->key(i_); }
  std::string_view value() const override { return c_->value(i_); }
  Status status() const override { return Status::Ok(); }

 private:
  std::shared_ptr<const ColumnarCache> c_;
  size_t i_;
};

}  // namespace

std::unique_ptr<Iterator> NewDBIter(std::shared_ptr<const SuperVersion> sv, uint64_t snapshot,
                                    std::function<void()> on_destroy) {
  return std::make_unique<DBIter>(std::move(sv), snapshot, std::move(on_destroy));
}

std::unique_ptr<Iterator> NewCacheIterator(std::shared_ptr<const ColumnarCache> cache) {
  return std::make_unique<CacheIterator>(std::move(cache));
}

}  // namespace dbx
