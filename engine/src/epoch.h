// Epoch-based protection of the SuperVersion read by lock-free point reads. A reader announces the
// global epoch in a per-thread slot before loading the SuperVersion pointer; a SuperVersion retired
// at epoch t is freed once no slot holds an epoch <= t. Costs a reader one uncontended atomic.
#pragma once

#include <atomic>
#include <cstdint>

namespace dbx {

class Epoch {
 public:
  static constexpr int kSlots = 64;

  /// Marks the calling thread as reading until destruction.
  class Guard {
   public:
    explicit Guard(Epoch* e) : e_(e), slot_(e->Enter()) {}
    ~Guard() { e_->slots_[slot_].v.store(0, std::memory_order_release); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Epoch* e_;
    int slot_;
  };

  /// Call after unpublishing an object; returns the tag to pass to SafeToFree.
  uint64_t Retire() { return global_.fetch_add(1, std::memory_order_seq_cst); }
  /// True when no reader that might have seen an object retired with `tag` is still reading.
  bool SafeToFree(uint64_t tag) const { return tag < OldestReader(); }
  /// The oldest epoch a reader announced (UINT64_MAX when none is reading): every object retired
  /// with a tag below it is safe to free. One pass over the slots, for a batch of retired objects.
  uint64_t OldestReader() const {
    uint64_t oldest = UINT64_MAX;
    for (const Slot& s : slots_) {
      uint64_t v = s.v.load(std::memory_order_seq_cst);
      if (v != 0 && v < oldest) oldest = v;
    }
    return oldest;
  }

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> v{0};  // 0 = not reading
  };

  static int ThreadHint() {
    static std::atomic<int> next{0};
    thread_local int hint = next.fetch_add(1, std::memory_order_relaxed) % kSlots;
    return hint;
  }
  int Enter() {
    uint64_t e = global_.load(std::memory_order_seq_cst);
    int i = ThreadHint();
    for (;;) {
      uint64_t expected = 0;
      if (slots_[i].v.compare_exchange_strong(expected, e, std::memory_order_seq_cst)) return i;
      i = (i + 1) % kSlots;  // shared with another thread, or a nested read on this one
    }
  }

  std::atomic<uint64_t> global_{1};
  Slot slots_[kSlots];
};

}  // namespace dbx
