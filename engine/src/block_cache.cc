#include "src/block_cache.h"

namespace dbx {

BlockCache::BlockCache(size_t capacity_bytes, std::shared_ptr<Epoch> epoch)
    : capacity_(capacity_bytes), epoch_(std::move(epoch)) {}

BlockCache::~BlockCache() {
  // Every segment (the homes' owner) is gone, and with it every reader: nothing is published.
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    s.retired.clear();
  }
}

uint64_t BlockCache::NewFileId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

size_t BlockCache::Find(const Shard& s, uint64_t hash, uint64_t file, uint64_t offset) {
  const size_t n = s.slots.size();
  if (n == 0) return 0;
  for (size_t i = hash & (n - 1);; i = (i + 1) & (n - 1)) {
    const Slot& slot = s.slots[i];
    if (slot.file == 0) return n;
    if (slot.file == file && slot.offset == offset) return i;
  }
}

void BlockCache::EraseAt(Shard& s, size_t i) {
  const size_t mask = s.slots.size() - 1;
  s.slots[i] = Slot();
  for (size_t j = (i + 1) & mask; s.slots[j].file != 0; j = (j + 1) & mask) {
    size_t home = HashKey(s.slots[j].file, s.slots[j].offset) & mask;
    // An entry whose home lies cyclically in (i, j] is still reachable from it; any other fills the hole.
    bool reachable = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (reachable) continue;
    s.slots[i] = std::move(s.slots[j]);
    s.slots[j] = Slot();
    i = j;
  }
}

void BlockCache::Grow(Shard& s) {
  std::vector<Slot> old = std::move(s.slots);
  s.slots.assign(old.empty() ? 64 : 2 * old.size(), Slot());
  const size_t mask = s.slots.size() - 1;
  for (Slot& e : old) {
    if (e.file == 0) continue;
    size_t i = HashKey(e.file, e.offset) & mask;
    while (s.slots[i].file != 0) i = (i + 1) & mask;
    s.slots[i] = std::move(e);
  }
  s.hand = 0;
  s.table.store(s.slots.data(), std::memory_order_relaxed);
  s.mask.store(mask, std::memory_order_relaxed);
}

std::shared_ptr<const Block> BlockCache::Lookup(uint64_t file_id, uint64_t offset, BlockSlot* home) {
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  size_t i = Find(s, h, file_id, offset);
  if (i == s.slots.size()) {
    ++s.misses;
    return nullptr;
  }
  ++s.hits;
  s.slots[i].set_referenced(true);
  Publish(s.slots[i], home);
  return s.slots[i].block;
}

void BlockCache::Publish(Slot& slot, BlockSlot* home) const {
  if (home == nullptr || epoch_ == nullptr || slot.home() != nullptr) return;
  uintptr_t was = home->load(std::memory_order_relaxed);
  if (was != kSlotEmpty && was != kSlotCompressed) return;  // the segment's own descriptor
  const auto p = reinterpret_cast<uintptr_t>(slot.block.get());
  const uint32_t cells = slot.block->num_cells();
  if ((p >> kSlotCellsShift) != 0 || cells >> (64 - kSlotCellsShift) != 0) return;  // read through the cache
  // Release: a reader that loads the pointer sees the block built. A CAS, as the segment may be
  // publishing its own descriptor there meanwhile (it then keeps it).
  const uintptr_t published = p | kSlotPublished | static_cast<uintptr_t>(cells) << kSlotCellsShift;
  if (!home->compare_exchange_strong(was, published, std::memory_order_release, std::memory_order_relaxed)) return;
  slot.bits |= reinterpret_cast<uintptr_t>(home) | (was == kSlotCompressed ? Slot::kHomeCompressed : 0);
}

void BlockCache::Remove(Shard& s, size_t i) {
  Slot& slot = s.slots[i];
  if (BlockSlot* home = slot.home(); home != nullptr) {
    // Readers that load the slot from now on go to the cache; those that loaded it before may
    // still be reading the block, which is freed once the epoch says they are gone.
    home->store(slot.bits & Slot::kHomeCompressed ? kSlotCompressed : kSlotEmpty, std::memory_order_seq_cst);
    s.retired.emplace_back(kPending, std::move(slot.block));
    retired_count_.fetch_add(1, std::memory_order_relaxed);
  }
  EraseAt(s, i);
}

void BlockCache::FinishRemovals(Shard& s) {
  if (s.retired.empty()) return;
  if (s.retired.back().first == kPending) {
    // After every unpublishing store: a reader that enters later cannot load the pointers.
    const uint64_t tag = epoch_->Retire();
    for (auto it = s.retired.rbegin(); it != s.retired.rend() && it->first == kPending; ++it) it->first = tag;
  }
  SweepShard(s);
}

void BlockCache::SweepShard(Shard& s) {
  if (s.retired.empty()) return;
  const uint64_t oldest = epoch_->OldestReader();
  size_t keep = 0;
  for (Retired& r : s.retired)
    if (r.first >= oldest) s.retired[keep++] = std::move(r);
  retired_count_.fetch_sub(s.retired.size() - keep, std::memory_order_relaxed);
  s.retired.resize(keep);
}

void BlockCache::SweepRetired() {
  if (retired_count_.load(std::memory_order_relaxed) == 0) return;
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    SweepShard(s);
  }
}

void BlockCache::PrefetchBlock(uint64_t file_id, uint64_t offset) {
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  size_t i = Find(s, h, file_id, offset);
  if (i == s.slots.size()) return;
  // The reference counts sit just before the Block in the allocation make_shared or
  // allocate_shared made (Block::Parse).
  const char* b = reinterpret_cast<const char*>(s.slots[i].block.get());
  __builtin_prefetch(b - 16);
  __builtin_prefetch(b + 48);
}

std::shared_ptr<const Block> BlockCache::Peek(uint64_t file_id, uint64_t offset) {
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  size_t i = Find(s, h, file_id, offset);
  return i == s.slots.size() ? nullptr : s.slots[i].block;
}

template <typename T>
T BlockCache::SumOverShards(T Shard::*field) {
  T n = 0;
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    n += s.*field;
  }
  return n;
}

uint64_t BlockCache::hits() { return SumOverShards(&Shard::hits); }
uint64_t BlockCache::misses() { return SumOverShards(&Shard::misses); }
size_t BlockCache::usage() { return SumOverShards(&Shard::usage) + reserved_.load(std::memory_order_relaxed); }

bool BlockCache::Reserve(size_t bytes, bool may_evict) {
  size_t r = reserved_.load(std::memory_order_relaxed);
  do {
    if (bytes > capacity_ / 2 - r) return false;
    if (!may_evict && SumOverShards(&Shard::usage) + r + bytes > capacity_) return false;
  } while (!reserved_.compare_exchange_weak(r, r + bytes, std::memory_order_relaxed));
  if (may_evict) {
    const size_t per_shard = PerShard();
    for (Shard& s : shards_) {
      MutexLock l(&s.mu);
      EvictDownTo(s, per_shard, 0, 0);
    }
  }
  return true;
}

void BlockCache::Release(size_t bytes) { reserved_.fetch_sub(bytes, std::memory_order_relaxed); }

BlockCache::Slot& BlockCache::Place(Shard& s, uint64_t hash, uint64_t file, uint64_t offset,
                                    std::shared_ptr<const Block> block) {
  if (2 * (s.count + 1) > s.slots.size()) Grow(s);
  const size_t mask = s.slots.size() - 1;
  size_t i = hash & mask;
  while (s.slots[i].file != 0) i = (i + 1) & mask;
  s.usage += block->charge();
  s.slots[i] = Slot{file, offset, std::move(block), Slot::kReferenced};
  ++s.count;
  return s.slots[i];
}

bool BlockCache::HasRoom(uint64_t file_id, uint64_t offset, size_t bytes) {
  if (capacity_ == 0) return false;
  Shard& s = ShardFor(HashKey(file_id, offset));
  MutexLock l(&s.mu);
  return s.usage + bytes <= PerShard();
}

bool BlockCache::InsertIfRoom(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block, BlockSlot* home) {
  if (capacity_ == 0 || file_id == 0) return false;
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  if (epoch_ != nullptr) SweepShard(s);
  if (size_t i = Find(s, h, file_id, offset); i != s.slots.size()) {
    Publish(s.slots[i], home);
    return true;
  }
  if (s.usage + block->charge() > PerShard()) return false;
  Publish(Place(s, h, file_id, offset, std::move(block)), home);
  return true;
}

void BlockCache::Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block, BlockSlot* home) {
  if (capacity_ == 0 || file_id == 0) return;
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  const size_t per_shard = PerShard();
  MutexLock l(&s.mu);
  if (size_t i = Find(s, h, file_id, offset); i != s.slots.size()) {
    Publish(s.slots[i], home);
    return;
  }
  // Published before the eviction: Publish takes the slot, which the eviction's shifts may move.
  Publish(Place(s, h, file_id, offset, std::move(block)), home);
  EvictDownTo(s, per_shard, file_id, offset);
}

void BlockCache::EvictDownTo(Shard& s, size_t limit, uint64_t file, uint64_t offset) {
  if (s.slots.empty()) return;
  const size_t mask = s.slots.size() - 1;
  // Every pass over a marked entry clears its mark, so this ends within two sweeps of the table.
  while (s.usage > limit && s.count > 1) {
    Slot& victim = s.slots[s.hand];
    // A published block's reads through its segment's array mark the block, not the slot: both
    // marks are taken in one pass.
    const bool used = (victim.home() != nullptr && victim.block->TakeUsed()) || victim.referenced();
    if (victim.file == 0 || used || (file != 0 && victim.file == file && victim.offset == offset)) {
      victim.set_referenced(false);  // second chance; the new block is kept
      s.hand = (s.hand + 1) & mask;
      continue;
    }
    s.usage -= victim.block->charge();
    --s.count;
    Remove(s, s.hand);  // the hand stays: a later entry may have moved into this slot
  }
  if (epoch_ != nullptr) FinishRemovals(s);
}

void BlockCache::EraseFile(uint64_t file_id) {
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    for (size_t i = 0; i < s.slots.size(); ++i) {
      while (s.slots[i].file == file_id) {  // the shift may move another of its blocks here
        s.usage -= s.slots[i].block->charge();
        --s.count;
        Remove(s, i);
      }
    }
    if (epoch_ != nullptr) FinishRemovals(s);
  }
}

}  // namespace dbx
