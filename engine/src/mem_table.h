// MemTable: the in-memory structure of tier 1 (delta store) and tier 3 (WOS). One node per user key
// in a skiplist (ordered scans) and in an open-addressing hash index (point reads); each node holds
// its MVCC versions newest first.
//
// Concurrency: one writer at a time (the commit leader for the delta, the background thread for the
// WOS), any number of lock-free readers. Nodes, versions and old hash tables are freed only with the
// MemTable, so a reader never touches freed memory; publication uses release/acquire.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "src/arena.h"
#include "src/key_compare.h"
#include "src/random.h"
#include "src/write_batch_internal.h"

namespace dbx {

/// A version's sequence number and type packed as seq << 8 | type.
inline uint64_t PackTag(uint64_t seq, ValueType t) { return (seq << 8) | static_cast<uint64_t>(t); }
inline uint64_t TagSeq(uint64_t tag) { return tag >> 8; }
inline ValueType TagType(uint64_t tag) { return static_cast<ValueType>(tag & 0xff); }

struct MemVersion {
  uint64_t tag;
  const MemVersion* older;  // set before the version is published; never changed after
  uint32_t value_size;
  const char* value_data() const { return reinterpret_cast<const char*>(this + 1); }
  std::string_view value() const { return {value_data(), value_size}; }
  uint64_t seq() const { return TagSeq(tag); }
  ValueType type() const { return TagType(tag); }
};

struct MemNode {
  std::atomic<const MemVersion*> head;  // newest version
  uint32_t key_size;
  uint32_t height;
  std::atomic<MemNode*> next[1];  // `height` entries; the key bytes follow them

  std::string_view key() const { return {reinterpret_cast<const char*>(&next[height]), key_size}; }
  MemNode* Next(int level) const { return next[level].load(std::memory_order_acquire); }
  /// Newest version with seq <= snapshot, or nullptr.
  const MemVersion* VisibleAt(uint64_t snapshot) const {
    const MemVersion* v = head.load(std::memory_order_acquire);
    while (v != nullptr && v->seq() > snapshot) v = v->older;
    return v;
  }
};

class MemTable {
 public:
  MemTable();
  ~MemTable();
  MemTable(const MemTable&) = delete;
  MemTable& operator=(const MemTable&) = delete;

  // ---- writer side (one thread at a time) ----

  /// Adds a version of key. Returns the key's previous newest version here (nullptr if the key was
  /// not in this table), so the caller can maintain live-key counts.
  const MemVersion* Add(std::string_view key, uint64_t hash, uint64_t seq, ValueType type, std::string_view value) {
    return Add(key, hash, seq, type, value, AboveAllKeys(key));
  }
  /// As above, for a caller that has just asked AboveAllKeys(key): REQUIRES above_all == AboveAllKeys(key).
  const MemVersion* Add(std::string_view key, uint64_t hash, uint64_t seq, ValueType type, std::string_view value,
                        bool above_all);
  /// Adds a chain of versions (newest first, all newer than any version of key here) in one step.
  /// Used when a frozen delta is merged into the WOS. `hint` makes ascending-key inserts O(1).
  struct Pending {
    uint64_t tag;
    std::string_view value;
  };
  void AddChain(std::string_view key, uint64_t hash, const Pending* versions, size_t n);
  /// True when key is above every key in the table (an insert would append at the tail).
  bool AboveAllKeys(std::string_view key) const {
    const MemNode* last = tail_[0];
    return last == head_ || KeyLess(last->key(), key);
  }
  /// Hints that a key with this hash will be added or looked up soon (prefetches its hash slot).
  /// Readers may call it too (SuperVersion::Get), as Find.
  void Prefetch(uint64_t hash) const;
  /// Pre-sizes the hash index for `more` additional keys.
  void ReserveKeys(size_t more);

  // ---- reader side (any thread) ----

  /// The node of key, or nullptr.
  const MemNode* Find(std::string_view key, uint64_t hash) const;
  /// First node with key >= target (nullptr at end); empty target = first node.
  const MemNode* SeekNode(std::string_view target) const;
  const MemNode* First() const { return head_->Next(0); }

  uint64_t entries() const { return entries_.load(std::memory_order_acquire); }
  uint64_t keys() const { return keys_.load(std::memory_order_acquire); }
  /// Bytes held: the arena (nodes, keys, versions) and every hash table (retired ones included).
  size_t MemoryUsage() const { return arena_.MemoryUsage() + hash_bytes_.load(std::memory_order_relaxed); }
  /// Tests only: the hash index's slots in use (one per key).
  size_t TEST_OccupiedSlots() const;
  /// Largest sequence number added (0 when empty).
  uint64_t max_seq() const { return max_seq_.load(std::memory_order_acquire); }

 private:
  static constexpr int kMaxHeight = 12;

  MemNode* NewNode(std::string_view key, int height);
  MemVersion* NewVersion(uint64_t tag, std::string_view value, const MemVersion* older);
  /// beyond_tail: the caller checked that key is above every key here.
  MemNode* InsertNode(std::string_view key, uint64_t hash, bool beyond_tail);
  int RandomHeight();

  // Hash index: slots hold a node pointer (low 48 bits) and 16 hash bits (high bits). Tables of 64 KiB
  // to 4 MiB come from buffer_pool (a delta store's 10,000 keys take 256 KiB), so that a new delta
  // store's index reuses pages already mapped.
  struct HashTable {
    explicit HashTable(size_t n);
    ~HashTable();
    HashTable(const HashTable&) = delete;
    HashTable& operator=(const HashTable&) = delete;
    size_t mask;
    std::atomic<uint64_t>* slots;
  };
  void HashInsert(HashTable* t, MemNode* node, uint64_t hash);
  void GrowHash(size_t min_keys);

  Arena arena_;                       // writer only
  Random rnd_{0x5eed};                // writer only
  MemNode* head_;                     // sentinel, immutable after construction
  MemNode* tail_[kMaxHeight];         // writer only: last node at each level
  MemNode* finger_[kMaxHeight];       // writer only: predecessors of last_inserted_ at each level
  MemNode* last_inserted_ = nullptr;  // writer only
  int max_height_ = 1;                // writer only
  std::atomic<HashTable*> table_;
  std::vector<std::unique_ptr<HashTable>> tables_;  // writer only; retired tables live until destruction
  std::atomic<uint64_t> entries_{0};
  std::atomic<uint64_t> keys_{0};
  std::atomic<uint64_t> max_seq_{0};
  std::atomic<size_t> hash_bytes_{0};
};

}  // namespace dbx
