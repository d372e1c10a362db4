// The block cache of tier 5: decoded segment blocks shared by all segments of a DB, evicted by byte
// charge in CLOCK order (second chance): a hit only marks its entry, and eviction passes over marked
// entries once, so a hit writes no list links (an LRU splice touches two more cache lines per read).
// Sharded; every method is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "src/block.h"

namespace dbx {

class BlockCache {
 public:
  explicit BlockCache(size_t capacity_bytes);
  /// nullptr on a miss.
  std::shared_ptr<const Block> Lookup(uint64_t file_id, uint64_t offset);
  /// As Lookup, but neither marks the block used nor counts a hit or miss (compaction reads).
  std::shared_ptr<const Block> Peek(uint64_t file_id, uint64_t offset);
  void Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block);
  /// A process-unique id for a segment's blocks.
  static uint64_t NewFileId();

  uint64_t hits();
  uint64_t misses();
  /// Bytes charged by the cached blocks.
  size_t usage();
  size_t capacity() const { return capacity_; }

 private:
  static constexpr int kShards = 16;
  struct Key {
    uint64_t file, offset;
    bool operator==(const Key& o) const { return file == o.file && offset == o.offset; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return (k.file * 0x9e3779b97f4a7c15ull) ^ (k.offset >> 6); }
  };
  struct Slot {
    std::shared_ptr<const Block> block;
    std::list<Key>::iterator pos;  // in Shard::order
    bool referenced = false;       // hit since it last reached the end of `order`
  };
  struct alignas(64) Shard {
    std::mutex mu;
    std::list<Key> order;  // GUARDED_BY(mu), newest (or last given a second chance) first
    std::unordered_map<Key, Slot, KeyHash> map;  // GUARDED_BY(mu)
    size_t usage = 0;  // GUARDED_BY(mu)
    uint64_t hits = 0, misses = 0;  // GUARDED_BY(mu)
  };
  Shard& ShardFor(const Key& k) { return shards_[KeyHash()(k) % kShards]; }
  // One counter added up over every shard, each read under its shard's lock.
  template <typename T>
  T SumOverShards(T Shard::*field);

  size_t capacity_;
  Shard shards_[kShards];
};

}  // namespace dbx
