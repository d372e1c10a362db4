#include "src/block_cache.h"

namespace dbx {

BlockCache::BlockCache(size_t capacity_bytes) : capacity_(capacity_bytes) {}

uint64_t BlockCache::NewFileId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<const Block> BlockCache::Lookup(uint64_t file_id, uint64_t offset) {
  Key k{file_id, offset};
  Shard& s = ShardFor(k);
  std::lock_guard<std::mutex> l(s.mu);
  auto it = s.map.find(k);
  if (it == s.map.end()) {
    ++s.misses;
    return nullptr;
  }
  ++s.hits;
  it->second.referenced = true;
  return it->second.block;
}

std::shared_ptr<const Block> BlockCache::Peek(uint64_t file_id, uint64_t offset) {
  Key k{file_id, offset};
  Shard& s = ShardFor(k);
  std::lock_guard<std::mutex> l(s.mu);
  auto it = s.map.find(k);
  return it == s.map.end() ? nullptr : it->second.block;
}

template <typename T>
T BlockCache::SumOverShards(T Shard::*field) {
  T n = 0;
  for (Shard& s : shards_) {
    std::lock_guard<std::mutex> l(s.mu);
    n += s.*field;
  }
  return n;
}

uint64_t BlockCache::hits() { return SumOverShards(&Shard::hits); }
uint64_t BlockCache::misses() { return SumOverShards(&Shard::misses); }
size_t BlockCache::usage() { return SumOverShards(&Shard::usage); }

void BlockCache::Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block) {
  if (capacity_ == 0) return;
  Key k{file_id, offset};
  Shard& s = ShardFor(k);
  size_t per_shard = capacity_ / kShards + 1;
  std::lock_guard<std::mutex> l(s.mu);
  if (s.map.count(k) != 0) return;
  s.usage += block->charge();
  s.order.push_front(k);
  s.map.emplace(k, Slot{std::move(block), s.order.begin(), false});
  // Every pass over a marked entry clears its mark, so this ends within two rounds of `order`.
  while (s.usage > per_shard && s.map.size() > 1) {
    auto victim = s.map.find(s.order.back());
    if (victim->second.referenced || victim->first == k) {  // second chance; the new block is kept
      victim->second.referenced = false;
      s.order.splice(s.order.begin(), s.order, victim->second.pos);
      continue;
    }
    s.usage -= victim->second.block->charge();
    s.order.pop_back();
    s.map.erase(victim);
  }
}

}  // namespace dbx
