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
  if (it->second != s.lru.begin()) s.lru.splice(s.lru.begin(), s.lru, it->second);
  return it->second->block;
}

uint64_t BlockCache::hits() {
  uint64_t n = 0;
  for (Shard& s : shards_) {
    std::lock_guard<std::mutex> l(s.mu);
    n += s.hits;
  }
  return n;
}

uint64_t BlockCache::misses() {
  uint64_t n = 0;
  for (Shard& s : shards_) {
    std::lock_guard<std::mutex> l(s.mu);
    n += s.misses;
  }
  return n;
}

size_t BlockCache::usage() {
  size_t n = 0;
  for (Shard& s : shards_) {
    std::lock_guard<std::mutex> l(s.mu);
    n += s.usage;
  }
  return n;
}

void BlockCache::Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block) {
  if (capacity_ == 0) return;
  Key k{file_id, offset};
  Shard& s = ShardFor(k);
  size_t per_shard = capacity_ / kShards + 1;
  std::lock_guard<std::mutex> l(s.mu);
  if (s.map.count(k) != 0) return;
  s.usage += block->charge();
  s.lru.push_front(Entry{k, std::move(block)});
  s.map.emplace(k, s.lru.begin());
  while (s.usage > per_shard && s.lru.size() > 1) {
    Entry& victim = s.lru.back();
    s.usage -= victim.block->charge();
    s.map.erase(victim.key);
    s.lru.pop_back();
  }
}

}  // namespace dbx
