#include "src/merging_iterator.h"

#include "src/key_compare.h"

namespace dbx {
namespace {

// A binary min-heap of the valid children, each with its current key and tag copied next to it:
// a step advances the top child and sifts it down, comparing with at most two children per level
// (one comparison per step while the top child stays the smallest, as when tiers hold disjoint key
// ranges), without a virtual call per comparison.
class MergingIterator final : public InternalIterator {
 public:
  explicit MergingIterator(std::vector<std::unique_ptr<InternalIterator>> c) : children_(std::move(c)) {
    heap_.reserve(children_.size());
  }

  bool Valid() const override { return !heap_.empty(); }
  void SeekToFirst() override {
    for (auto& c : children_) c->SeekToFirst();
    Rebuild();
  }
  void Seek(std::string_view target) override {
    for (auto& c : children_) c->Seek(target);
    Rebuild();
  }
  void Next() override {
    Entry& top = heap_[0];
    top.it->Next();
    if (top.it->Valid()) {
      top.key = top.it->key();
      top.tag = top.it->tag();
    } else {
      // A child that stopped on an error must stop the merge too: its keys would silently vanish.
      if (!top.it->status().ok()) {
        heap_.clear();
        return;
      }
      top = heap_.back();
      heap_.pop_back();
      if (heap_.empty()) return;
    }
    SiftDown(0);
  }
  std::string_view key() const override { return heap_[0].key; }
  uint64_t tag() const override { return heap_[0].tag; }
  std::string_view value() const override { return heap_[0].it->value(); }
  Status status() const override {
    for (const auto& c : children_) {
      Status s = c->status();
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

 private:
  struct Entry {
    InternalIterator* it;
    std::string_view key;  // it->key(), valid until it moves
    uint64_t tag;
  };
  // (key asc, seq desc); sequence numbers are unique across tiers, so no two entries tie.
  static bool Before(const Entry& a, const Entry& b) {
    int cmp = CompareKeys(a.key, b.key);
    return cmp < 0 || (cmp == 0 && a.tag > b.tag);
  }
  void Rebuild() {
    heap_.clear();
    for (auto& c : children_) {
      if (c->Valid()) {
        heap_.push_back(Entry{c.get(), c->key(), c->tag()});
      } else if (!c->status().ok()) {  // only a child that stopped can have stopped on an error
        heap_.clear();
        return;
      }
    }
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
  }
  void SiftDown(size_t i) {
    const size_t n = heap_.size();
    Entry e = heap_[i];
    for (;;) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && Before(heap_[child + 1], heap_[child])) ++child;
      if (!Before(heap_[child], e)) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = e;
  }

  std::vector<std::unique_ptr<InternalIterator>> children_;
  std::vector<Entry> heap_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewMergingIterator(std::vector<std::unique_ptr<InternalIterator>> children) {
  // One child (a settled DB: one segment, empty write tiers) is its own merge: no layer per step.
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<MergingIterator>(std::move(children));
}

}  // namespace dbx
