// The block cache of tier 5: decoded segment blocks shared by all segments of a DB, evicted by byte
// charge in CLOCK order (second chance). Each shard is one open-addressing table (linear probing)
// whose slots hold the key, the block and its mark inline, and the CLOCK hand sweeps that table: a
// lookup reads one slot (no bucket chain, no list node) and a hit only marks it.
// Sharded; every method is thread-safe.
//
// With an Epoch, a cached block can also be published in its segment's array of blocks (a
// BlockSlot, the `home` of Lookup and Insert), so that a point read finds it with no lock, probe or
// reference count. The cache unpublishes it when it evicts or erases it, and frees it only once no
// reader that may have loaded the slot before is left (Epoch::Retire, as the SuperVersion is).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "src/block.h"
#include "src/epoch.h"
#include "src/mutex.h"
#include "src/thread_annotations.h"

namespace dbx {

/// A segment's entry for one of its data blocks, loaded by point reads without a lock: kSlotEmpty
/// (not read yet), kSlotCompressed (stored compressed: read through the cache), a Block* the
/// segment owns (an in-place descriptor), or a published one, Block* | kSlotPublished |
/// num_cells() << kSlotCellsShift: a block the cache holds, valid to a reader that held an
/// Epoch::Guard on the cache's epoch before it loaded the slot and holds it while it reads the
/// block. The cache sets and clears published values only.
using BlockSlot = std::atomic<uintptr_t>;
static_assert(sizeof(uintptr_t) == 8);
inline constexpr uintptr_t kSlotEmpty = 0;
inline constexpr uintptr_t kSlotPublished = 1;   // low bit (a Block is aligned to 8)
inline constexpr uintptr_t kSlotCompressed = 2;  // not a pointer
inline constexpr int kSlotCellsShift = 48;       // above user-space pointers (else not published)
inline const Block* SlotBlock(uintptr_t v) {
  return reinterpret_cast<const Block*>(v & ((uintptr_t{1} << kSlotCellsShift) - 1) & ~kSlotPublished);
}
inline uint32_t SlotCells(uintptr_t v) { return static_cast<uint32_t>(v >> kSlotCellsShift); }

class BlockCache {
 public:
  /// `epoch`: the readers' epoch (may be null: then nothing is published, and `home` is ignored).
  explicit BlockCache(size_t capacity_bytes, std::shared_ptr<Epoch> epoch = nullptr);
  ~BlockCache();
  /// nullptr on a miss. On a hit with `home` (the block's slot in its segment's array) holding
  /// kSlotEmpty or kSlotCompressed, the block is published there until it leaves the cache.
  /// REQUIRES: `home` stays valid until every block published in it left the cache: its segment
  /// erases its file (EraseFile) before freeing the array if it may still hold one.
  std::shared_ptr<const Block> Lookup(uint64_t file_id, uint64_t offset, BlockSlot* home = nullptr);
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
  /// Caches the block (kept marked for one CLOCK pass) unless one is cached under this key already;
  /// publishes the cached one in `home` as Lookup does.
  void Insert(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block, BlockSlot* home = nullptr);
  /// Whether the shard (file_id, offset) falls in could take `bytes` more without evicting.
  bool HasRoom(uint64_t file_id, uint64_t offset, size_t bytes);
  /// As Insert, but only into room that is free: evicts nothing. False when it was not cached.
  bool InsertIfRoom(uint64_t file_id, uint64_t offset, std::shared_ptr<const Block> block, BlockSlot* home = nullptr);
  /// Drops every block of `file_id` (a segment that is gone: its blocks can never be read again),
  /// unpublishing those that were published.
  void EraseFile(uint64_t file_id);
  /// Frees the unpublished blocks no reader can hold any more. Each cache operation that evicts or
  /// inserts does this for its shard; the DB also calls it when it frees retired SuperVersions.
  void SweepRetired();
  /// Whether Lookup and Insert publish blocks (the cache has an epoch).
  bool publishes() const { return epoch_ != nullptr; }
  /// Blocks unpublished but not yet freed (readers may still hold them; not charged, as blocks
  /// held by a reader's reference after their eviction are not).
  size_t retired_blocks() const { return retired_count_.load(std::memory_order_relaxed); }
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
    // Where the block is published (a BlockSlot*, or 0) | kHomeCompressed | kReferenced, in one
    // word: a slot stays 40 bytes.
    uintptr_t bits = 0;
    static constexpr uintptr_t kHomeCompressed = 1;  // home held kSlotCompressed (else kSlotEmpty)
    static constexpr uintptr_t kReferenced = 2;      // hit since the CLOCK hand last passed
    BlockSlot* home() const { return reinterpret_cast<BlockSlot*>(bits & ~uintptr_t{7}); }
    bool referenced() const { return (bits & kReferenced) != 0; }
    void set_referenced(bool r) { bits = r ? bits | kReferenced : bits & ~kReferenced; }
  };
  static_assert(sizeof(Slot) == 40 && alignof(BlockSlot) >= 8);
  // Unpublished blocks and the Epoch::Retire tag after which they may be freed (kPending: not yet
  // tagged; the operation that unpublished them tags them before it lets go of the lock).
  static constexpr uint64_t kPending = ~0ull;
  using Retired = std::pair<uint64_t, std::shared_ptr<const Block>>;
  struct alignas(64) Shard {
    Mutex mu;
    std::vector<Slot> slots GUARDED_BY(mu);  // a power of two in size, at most half full
    size_t count GUARDED_BY(mu) = 0;
    size_t hand GUARDED_BY(mu) = 0;  // the CLOCK hand, an index into slots
    size_t usage GUARDED_BY(mu) = 0;
    uint64_t hits GUARDED_BY(mu) = 0;
    uint64_t misses GUARDED_BY(mu) = 0;
    std::vector<Retired> retired GUARDED_BY(mu);
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
  // Stores a block known to be absent, marked; returns its slot.
  static Slot& Place(Shard& s, uint64_t hash, uint64_t file, uint64_t offset, std::shared_ptr<const Block> block)
      REQUIRES(s.mu);
  // Evicts in CLOCK order until the shard holds at most `limit` bytes or one block; (file, offset),
  // if cached, is kept.
  void EvictDownTo(Shard& s, size_t limit, uint64_t file, uint64_t offset) REQUIRES(s.mu);
  // Publishes slot's block in `home` (if not null, this cache publishes and home holds kSlotEmpty
  // or kSlotCompressed).
  void Publish(Slot& slot, BlockSlot* home) const;
  // Empties slot i (its charge already taken off), unpublishing its block into s.retired.
  void Remove(Shard& s, size_t i) REQUIRES(s.mu);
  // Tags the blocks Remove retired (one Epoch::Retire for all), then frees those no reader can hold.
  void FinishRemovals(Shard& s) REQUIRES(s.mu);
  void SweepShard(Shard& s) REQUIRES(s.mu);
  size_t PerShard() const { return (capacity_ - reserved_.load(std::memory_order_relaxed)) / kShards + 1; }
  // One counter added up over every shard, each read under its shard's lock.
  template <typename T>
  T SumOverShards(T Shard::*field);

  size_t capacity_;
  const std::shared_ptr<Epoch> epoch_;  // null: nothing is published
  std::atomic<size_t> reserved_{0};     // by Reserve, at most capacity_ / 2
  std::atomic<size_t> retired_count_{0};
  Shard shards_[kShards];
};

}  // namespace dbx
