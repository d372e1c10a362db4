#include "src/merging_iterator.h"

#include "src/key_compare.h"

namespace dbx {
namespace {

class MergingIterator final : public InternalIterator {
 public:
  explicit MergingIterator(std::vector<std::unique_ptr<InternalIterator>> c) : children_(std::move(c)) {}

  bool Valid() const override { return current_ != nullptr; }
  void SeekToFirst() override {
    for (auto& c : children_) c->SeekToFirst();
    FindSmallest();
  }
  void Seek(std::string_view target) override {
    for (auto& c : children_) c->Seek(target);
    FindSmallest();
  }
  void Next() override {
    current_->Next();
    FindSmallest();
  }
  std::string_view key() const override { return current_->key(); }
  uint64_t tag() const override { return current_->tag(); }
  std::string_view value() const override { return current_->value(); }
  Status status() const override {
    for (const auto& c : children_) {
      Status s = c->status();
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

 private:
  void FindSmallest() {
    current_ = nullptr;
    bool failed = false;
    for (auto& c : children_) {
      if (!c->Valid()) {
        failed = failed || !c->status().ok();  // only a child that stopped can have stopped on an error
        continue;
      }
      if (current_ == nullptr) {
        current_ = c.get();
        continue;
      }
      int cmp = CompareKeys(c->key(), current_->key());
      if (cmp < 0 || (cmp == 0 && c->tag() > current_->tag())) current_ = c.get();
    }
    // A child that stopped on an error must stop the merge too: its keys would silently vanish.
    if (failed) current_ = nullptr;
  }

  std::vector<std::unique_ptr<InternalIterator>> children_;
  InternalIterator* current_ = nullptr;
};

}  // namespace

std::unique_ptr<InternalIterator> NewMergingIterator(std::vector<std::unique_ptr<InternalIterator>> children) {
  // One child (a settled DB: one segment, empty write tiers) is its own merge: no layer per step.
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<MergingIterator>(std::move(children));
}

}  // namespace dbx
