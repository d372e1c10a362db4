// The block cache of tier 5: decoded segment blocks shared by all segments of a DB, evicted by byte
// charge in CLOCK order (second chance). Each shard is one open-addressing table (linear probing)
// whose slots hold the key, the block and its mark inline, and the CLOCK hand sweeps that table: a
// lookup reads one slot (no bucket chain, no list node) and a hit only marks it.
// Sharded; every method is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "src/block.h"
#include "src/mutex.h"
#include "src/thread_annotations.h"

namespace dbx {

class BlockCache {
 public:
  explicit BlockCache(size_t capacity_bytes);
  /// nullptr on a miss.
  std::shared_ptr<const Block> Lookup(uint64_t file_id, uint64_t offset);
  /// As Lookup, but neither marks the block used nor counts a hit or miss (compaction reads).
  std::shared_ptr<const Block> Peek(uint64_t file_id, uint64_t offset);
  /// Starts loading the table slot a Lookup(file_id, offset) reads first (takes no lock; a table
  /// grown meanwhile makes it a wasted hint): for a scan, a few blocks ahead.
  void Prefetch(uint64_t file_id, uint64_t offset) const {
    const uint64_t h = HashKey(file_id, offset);
    const Shard& s = shards_[h >> 60];
    const Slot* table = s.table.load(std::memory_order_relaxed);
    if (table == nullptr) return;
    const Slot* slot = table + (h & s.mask.load(std::memory_order_relaxed));
    __builtin_prefetch(slot);
    __builtin_prefetch(reinterpret_cast<const char*>(slot + 1) - 1);
  }
  /// Starts loading the block cached under (file_id, offset), if any, where a Lookup's reference
  /// count goes (a miss there stalls a Lookup whole): for a scan, the block after next.
  void PrefetchBlock(uint64_t file_id, uint64_t offset);
  /// Caches the block (kept marked for one CLOCK pass) unless one is cached under this key already.
  void Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block);
  /// Whether the shard (file_id, offset) falls in could take `bytes` more without evicting.
  bool HasRoom(uint64_t file_id, uint64_t offset, size_t bytes);
  /// As Insert, but only into room that is free: evicts nothing. False when it was not cached.
  bool InsertIfRoom(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block);
  /// Drops every block of `file_id` (a segment that is gone: its blocks can never be read again).
  void EraseFile(uint64_t file_id);
  /// Charges `bytes` held outside the cache (a segment's in-place block descriptors) to its capacity,
  /// which the cached blocks then have that much less of. At most half the capacity is reserved;
  /// false when this would pass that, or, without `may_evict`, when the blocks cached now leave too
  /// little room. With `may_evict`, cached blocks are evicted down to the smaller capacity.
  bool Reserve(size_t bytes, bool may_evict);
  /// Returns bytes a Reserve charged.
  void Release(size_t bytes);
  /// A process-unique id for a segment's blocks (never 0).
  static uint64_t NewFileId();

  uint64_t hits();
  uint64_t misses();
  /// Bytes charged by the cached blocks and the reservations.
  size_t usage();
  size_t capacity() const { return capacity_; }

 private:
  static constexpr int kShards = 16;
  struct Slot {
    uint64_t file = 0;  // 0: empty (file ids start at 1)
    uint64_t offset = 0;
    std::shared_ptr<const Block> block;
    bool referenced = false;  // hit since the CLOCK hand last passed
  };
  struct alignas(64) Shard {
    Mutex mu;
    std::vector<Slot> slots GUARDED_BY(mu);  // a power of two in size, at most half full
    size_t count GUARDED_BY(mu) = 0;
    size_t hand GUARDED_BY(mu) = 0;  // the CLOCK hand, an index into slots
    size_t usage GUARDED_BY(mu) = 0;
    uint64_t hits GUARDED_BY(mu) = 0;
    uint64_t misses GUARDED_BY(mu) = 0;
    // slots.data() and slots.size() - 1, for Prefetch (set under mu, read without it).
    std::atomic<const Slot*> table{nullptr};
    std::atomic<size_t> mask{0};
  };
  static uint64_t HashKey(uint64_t file, uint64_t offset) {
    uint64_t h = (file * 0x9e3779b97f4a7c15ull) ^ (offset * 0xc2b2ae3d27d4eb4full);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 32);
  }
  Shard& ShardFor(uint64_t hash) { return shards_[hash >> 60]; }  // kShards == 16
  // The slot holding (file, offset), or slots.size() when absent.
  static size_t Find(const Shard& s, uint64_t hash, uint64_t file, uint64_t offset) REQUIRES(s.mu);
  // Empties slot i, moving later entries of its probe run back (no tombstones).
  static void EraseAt(Shard& s, size_t i) REQUIRES(s.mu);
  static void Grow(Shard& s) REQUIRES(s.mu);
  // Stores a block known to be absent, marked.
  static void Place(Shard& s, uint64_t hash, uint64_t file, uint64_t offset, std::shared_ptr<const Block> block)
      REQUIRES(s.mu);
  // Evicts in CLOCK order until the shard holds at most `limit` bytes or one block; (file, offset),
  // if cached, is kept.
  static void EvictDownTo(Shard& s, size_t limit, uint64_t file, uint64_t offset) REQUIRES(s.mu);
  size_t PerShard() const { return (capacity_ - reserved_.load(std::memory_order_relaxed)) / kShards + 1; }
  // One counter added up over every shard, each read under its shard's lock.
  template <typename T>
  T SumOverShards(T Shard::*field);

  size_t capacity_;
  std::atomic<size_t> reserved_{0};  // by Reserve, at most capacity_ / 2
  Shard shards_[kShards];
};

}  // namespace dbx
