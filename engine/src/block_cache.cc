#include "src/block_cache.h"

namespace dbx {

BlockCache::BlockCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

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

std::shared_ptr<const Block> BlockCache::Lookup(uint64_t file_id, uint64_t offset) {
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  size_t i = Find(s, h, file_id, offset);
  if (i == s.slots.size()) {
    ++s.misses;
    return nullptr;
  }
  ++s.hits;
  s.slots[i].referenced = true;
  return s.slots[i].block;
}

void BlockCache::PrefetchBlock(uint64_t file_id, uint64_t offset) {
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  size_t i = Find(s, h, file_id, offset);
  if (i == s.slots.size()) return;
  // The reference counts sit just before the Block in the allocation make_shared made.
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

void BlockCache::Place(Shard& s, uint64_t hash, uint64_t file, uint64_t offset, std::shared_ptr<const Block> block) {
  if (2 * (s.count + 1) > s.slots.size()) Grow(s);
  const size_t mask = s.slots.size() - 1;
  size_t i = hash & mask;
  while (s.slots[i].file != 0) i = (i + 1) & mask;
  s.usage += block->charge();
  s.slots[i] = Slot{file, offset, std::move(block), true};
  ++s.count;
}

bool BlockCache::HasRoom(uint64_t file_id, uint64_t offset, size_t bytes) {
  if (capacity_ == 0) return false;
  Shard& s = ShardFor(HashKey(file_id, offset));
  MutexLock l(&s.mu);
  return s.usage + bytes <= PerShard();
}

bool BlockCache::InsertIfRoom(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block) {
  if (capacity_ == 0 || file_id == 0) return false;
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  MutexLock l(&s.mu);
  if (Find(s, h, file_id, offset) != s.slots.size()) return true;
  if (s.usage + block->charge() > PerShard()) return false;
  Place(s, h, file_id, offset, std::move(block));
  return true;
}

void BlockCache::Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block) {
  if (capacity_ == 0 || file_id == 0) return;
  const uint64_t h = HashKey(file_id, offset);
  Shard& s = ShardFor(h);
  const size_t per_shard = PerShard();
  MutexLock l(&s.mu);
  if (Find(s, h, file_id, offset) != s.slots.size()) return;
  Place(s, h, file_id, offset, std::move(block));
  EvictDownTo(s, per_shard, file_id, offset);
}

void BlockCache::EvictDownTo(Shard& s, size_t limit, uint64_t file, uint64_t offset) {
  if (s.slots.empty()) return;
  const size_t mask = s.slots.size() - 1;
  // Every pass over a marked entry clears its mark, so this ends within two sweeps of the table.
  while (s.usage > limit && s.count > 1) {
    Slot& victim = s.slots[s.hand];
    if (victim.file == 0 || victim.referenced || (file != 0 && victim.file == file && victim.offset == offset)) {
      victim.referenced = false;  // second chance; the new block is kept
      s.hand = (s.hand + 1) & mask;
      continue;
    }
    s.usage -= victim.block->charge();
    --s.count;
    EraseAt(s, s.hand);  // the hand stays: a later entry may have moved into this slot
  }
}

void BlockCache::EraseFile(uint64_t file_id) {
  for (Shard& s : shards_) {
    MutexLock l(&s.mu);
    for (size_t i = 0; i < s.slots.size(); ++i) {
      while (s.slots[i].file == file_id) {  // the shift may move another of its blocks here
        s.usage -= s.slots[i].block->charge();
        --s.count;
        EraseAt(s, i);
      }
    }
  }
}

}  // namespace dbx
