// Reads one immutable segment file. Open() loads tier 4 — the sparse block index and the bloom
// filter — into memory, so a point lookup costs at most one block read (usually a block-cache hit).
// Thread-safe. Corrupt bytes yield Corruption, never a crash: Open over a memory file is a fuzzing
// entry point.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/block.h"
#include "src/block_cache.h"
#include "src/bloom.h"
#include "src/compression.h"
#include "src/env.h"
#include "src/internal_iterator.h"
#include "src/mutex.h"
#include "src/point_hint.h"
#include "src/segment_format.h"

namespace dbx {

class SegmentReader {
 public:
  /// `cache` may be null (no caching). `number` is the file number in the DB directory. `cache_id`
  /// is the id of its blocks in the cache (0: a new one; else the id a SegmentWriter warmed it with).
  /// `point_hints`: whether a mapped segment of large rows keeps a PointHint per block (tests turn
  /// them off to compare Get with and without them).
  static Status Open(std::unique_ptr<RandomAccessFile> file, uint64_t number, std::shared_ptr<BlockCache> cache,
                     std::shared_ptr<SegmentReader>* out, uint64_t cache_id = 0, bool point_hints = true);
  /// Drops the segment's blocks from the cache (unless DropCachedBlocks did): once its reader is
  /// gone, nobody can read them.
  ~SegmentReader();

  /// The newest version of key with seq <= snapshot; `hash` is Hash64(key) (the bloom filter and
  /// the blocks' hash indexes are built from it). On kValue, *value is set (if non-null); *seq
  /// gets the version's sequence (if non-null). A cached block is published in the segment's array
  /// for the next Get of it (no cache lookup: see BlockCache). REQUIRES, when the cache publishes
  /// (it has an epoch): the caller holds an Epoch::Guard on that epoch for the whole call.
  Status Get(std::string_view key, uint64_t hash, uint64_t snapshot, Lookup* result, std::string* value,
             uint64_t* seq) const;
  /// Starts loading the bloom filter line Get(·, hash) tests first.
  void PrefetchFilter(uint64_t hash) const { bloom_.Prefetch(hash); }
  /// Iterates every version in the segment. Without `use_cache` (compaction: reading every block
  /// once would evict the blocks readers use) a block is taken from the cache when there, without
  /// marking it used, and is not inserted when read from the file.
  std::unique_ptr<InternalIterator> NewIterator(bool use_cache = true) const;

  /// The rows a scan reads when this segment is the only tier that holds versions <= `snapshot`
  /// (a settled DB: one segment, empty write tiers): for every key in [start, end) (empty: no
  /// bound), its newest version with seq <= snapshot unless that is a tombstone, in key order,
  /// passed to fn(ctx, key, value) until fn returns false (then *stopped) or `limit` rows (0: no
  /// limit) were passed. Walks the blocks directly, with no iterator layer or merge per row. The
  /// views passed are valid during the call only.
  using RowFunction = bool (*)(void* ctx, std::string_view key, std::string_view value);
  Status ScanVisible(uint64_t snapshot, std::string_view start, std::string_view end, uint64_t limit, RowFunction fn,
                     void* ctx, bool* stopped) const;

  const SegmentMeta& meta() const { return meta_; }
  uint64_t number() const { return number_; }
  uint64_t file_size() const { return file_->Size(); }
  size_t num_blocks() const { return index_.size(); }
  /// Bytes this reader keeps in memory (tier 4): the sparse index, the bloom filter, the array of
  /// block pointers and the point hints (the blocks themselves are charged to the block cache).
  size_t MemoryUsage() const {
    return index_.capacity() * sizeof(IndexEntry) + (slots_ != nullptr ? index_.size() * sizeof(slots_[0]) : 0) +
           (hints_ != nullptr ? index_.size() * sizeof(PointHint) : 0) +
           (index_prefixes_.capacity() + group_prefixes_.capacity()) * sizeof(KeyPrefix) + index_keys_.capacity() +
           bloom_.MemoryUsage();
  }

  /// Reads the segment's blocks, in file order, into room the block cache has free (it evicts
  /// nothing), until the cache is full or every block is in: for a compaction's output, which takes
  /// the room its inputs' blocks left.
  void WarmCache() const;
  /// Drops this segment's blocks from the block cache (its data now lives in another segment), so
  /// that the destructor, which may run under the DB mutex, need not sweep the cache (it does only
  /// when a Get published a block after this).
  void DropCachedBlocks() const;

  /// Index of the first data block whose last key >= key (num_blocks() when none).
  size_t FindBlock(std::string_view key) const;
  /// Reads data block i, through the block cache when `use_cache`; else see NewIterator.
  Status ReadDataBlock(size_t i, std::shared_ptr<const Block>* out, bool use_cache = true) const;
  /// Data block i as a search should read it: the segment's own in-place descriptor of the block
  /// when it has one (lives as long as this reader: no reference), else as ReadDataBlock gives it,
  /// kept alive by *keep. With `use_cache`, a block stored raw in a mapped file gets its descriptor
  /// when the block cache can be charged for it; with `publish` (Get, under the epoch) a cached
  /// block is published in the segment's array.
  Status BlockFor(size_t i, const Block** out, std::shared_ptr<const Block>* keep, bool use_cache = true,
                  bool publish = false) const;
  /// Starts loading what BlockFor(i) reads first: the cache slot (`block` false) or the cached
  /// block its reference count is in (`block`: takes the cache shard's lock). Nothing for a block
  /// with an in-place descriptor (a scan reads those pointers in order).
  void PrefetchBlockFor(size_t i, bool block) const {
    if (i >= index_.size() || cache_ == nullptr) return;
    if (slots_ != nullptr && IsDescriptor(slots_[i].load(std::memory_order_relaxed))) return;
    if (block)
      cache_->PrefetchBlock(cache_id_, index_[i].offset);
    else
      cache_->Prefetch(cache_id_, index_[i].offset);
  }
  /// How many blocks have an in-place descriptor.
  size_t in_place_blocks() const;
  /// How many blocks have a point hint (tests).
  size_t hinted_blocks() const;

 private:
  // One entry per data block; the blocks' last keys are packed in index_keys_ (no allocation per block).
  struct IndexEntry {
    uint64_t offset;
    uint32_t size;
    uint32_t key_offset;  // in index_keys_
  };
  // A key's first 16 bytes as two KeyWindows: ordered as the keys are, equal ones decide nothing.
  struct KeyPrefix {
    uint64_t hi, lo;
    explicit KeyPrefix(std::string_view key);
    bool operator<(const KeyPrefix& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
    bool operator==(const KeyPrefix& o) const { return hi == o.hi && lo == o.lo; }
  };
  SegmentReader() = default;
  std::string_view LastKey(size_t i) const {
    size_t end = i + 1 < index_.size() ? index_[i + 1].key_offset : index_keys_.size();
    return std::string_view(index_keys_).substr(index_[i].key_offset, end - index_[i].key_offset);
  }
  // Reads and checks block h as stored: *payload (in *scratch or in the file) is compressed by *type.
  Status ReadStoredBlock(const BlockHandle& h, std::string* scratch, std::string_view* payload,
                         Compression* type) const;
  // Reads block h, uncompressed, into *out.
  Status ReadRawBlock(const BlockHandle& h, std::string* out) const;
  // ReadDataBlock, publishing the cached block in slot i of the array (`home`) when not null.
  Status ReadDataBlock(size_t i, std::shared_ptr<const Block>* out, bool use_cache, BlockSlot* home) const;
  // Builds block i's in-place descriptor. *out: it (or the one another thread published first);
  // nullptr when the block is compressed or the cache cannot be charged for it, in which case
  // *parsed may hold the block parsed here (owned), for the caller to cache.
  Status BuildInPlace(size_t i, bool may_evict, const Block** out, std::unique_ptr<Block>* parsed) const;
  // Charges `bytes` of descriptors to the block cache (in chunks reserved there).
  bool ChargeInPlace(size_t bytes, bool may_evict) const EXCLUDES(in_place_mu_);

  std::unique_ptr<RandomAccessFile> file_;
  mutable std::atomic<bool> dropped_{false};  // DropCachedBlocks ran
  uint64_t number_ = 0;
  uint64_t cache_id_ = 0;
  std::shared_ptr<BlockCache> cache_;
  std::vector<IndexEntry> index_;
  // KeyPrefix of each block's last key: the binary search compares these (16 bytes apart, so its
  // last steps share cache lines) and reads a packed key only when the prefixes are equal (keys
  // that share their first 16 bytes).
  std::vector<KeyPrefix> index_prefixes_;
  // The KeyPrefix of the last block of every kGroup consecutive blocks (the last group may be
  // shorter): a search first finds its group in this small array, which stays in the CPU caches,
  // then loads the group's kGroup prefixes (4 cache lines) at once instead of one miss per step.
  static constexpr size_t kGroup = 16;
  std::vector<KeyPrefix> group_prefixes_;
  std::string index_keys_;
  BloomFilter bloom_;
  SegmentMeta meta_;
  // One BlockSlot per block, by block number: a point read goes index -> slot -> block -> entry
  // with no cache lookup, lock or reference count when the slot holds a block. A mapped file's
  // blocks stored raw, parsed in place once, are kept here (kSlotEmpty: not yet, or the cache had
  // no room to charge it); the version a reader holds keeps this reader, so these descriptors,
  // alive. A cached block is published here by the cache while it holds it (see BlockCache). Null
  // array: the file is not read in place and the cache does not publish.
  std::unique_ptr<BlockSlot[]> slots_;
  bool reads_in_place_ = false;  // the file is mapped: raw blocks get descriptors in slots_
  // One per block, for a mapped segment whose blocks hold few entries (large rows): a point read of a
  // block read before goes from the index straight to its entries (PointHint). Null otherwise.
  std::unique_ptr<PointHint[]> hints_;
  // A slot value that is the segment's own descriptor.
  static bool IsDescriptor(uintptr_t v) { return v != kSlotEmpty && v != kSlotCompressed && !(v & kSlotPublished); }
  static const Block* BlockAt(uintptr_t v) { return reinterpret_cast<const Block*>(v); }  // a descriptor
  // The cache had no room for one more descriptor: later blocks are read through the cache.
  mutable std::atomic<bool> in_place_full_{false};
  mutable Mutex in_place_mu_;
  mutable size_t in_place_used_ GUARDED_BY(in_place_mu_) = 0;      // charge of the descriptors
  mutable size_t in_place_reserved_ GUARDED_BY(in_place_mu_) = 0;  // reserved in the block cache
  mutable size_t in_place_count_ GUARDED_BY(in_place_mu_) = 0;
};

}  // namespace dbx
