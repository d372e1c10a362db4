// SuperVersion: an immutable list of every tier's current contents, newest first. A new one is
// installed whenever a delta is frozen, merged into the WOS, or segments change; readers resolve a key
// against one SuperVersion to get a consistent view.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "src/internal_iterator.h"
#include "src/mem_table.h"
#include "src/segment_reader.h"

namespace dbx {

/// A delta store frozen at a threshold, waiting to be merged into the WOS.
struct FrozenDelta {
  std::shared_ptr<MemTable> table;
  uint64_t max_seq = 0;     // last sequence committed when it was frozen
  uint64_t live_keys = 0;   // live keys of the whole DB as of max_seq
  uint64_t wal_number = 0;  // the WAL file holding exactly its writes (0: none)
};

/// The WOS (tier 3): a MemTable receiving frozen deltas, plus what it covers.
struct WosState {
  std::shared_ptr<MemTable> table;
  uint64_t max_seq = 0;    // every version <= max_seq is in the WOS or older tiers
  uint64_t live_keys = 0;  // as of max_seq
  uint64_t max_wal = 0;    // WAL files <= this number hold nothing newer than the WOS
};

struct SuperVersion {
  std::shared_ptr<MemTable> active;                      // tier 1: the delta store receiving writes
  std::vector<FrozenDelta> frozen;                       // newest first
  std::shared_ptr<const WosState> wos;                   // may be null
  std::shared_ptr<const WosState> frozen_wos;            // being written to a segment; may be null
  std::vector<std::shared_ptr<SegmentReader>> segments;  // tier 5, newest first

  /// Resolves key at `snapshot` through the tiers, newest first. On kValue, *value is set when
  /// non-null; *seq (when non-null) gets the resolved version's sequence.
  /// skip_active: ignore the active delta (the writer already looked there).
  /// REQUIRES: an Epoch::Guard on the DB's epoch held for the call (SegmentReader::Get).
  Status Get(std::string_view key, uint64_t hash, uint64_t snapshot, bool skip_active, Lookup* result,
             std::string* value, uint64_t* seq) const;

  /// Internal iterators over every tier, newest first.
  void AddIterators(std::vector<std::unique_ptr<InternalIterator>>* out) const;

  /// The segment, when it is the only tier holding versions (the write tiers are empty, as after a
  /// settle); else null. Called after the sequence a read serves was taken, so that every version
  /// <= that sequence is already in the tier that holds it: a write tier found empty then holds
  /// only later ones, which the read would skip anyway (as AddIterators leaves out an empty active
  /// delta).
  const SegmentReader* OnlySegment() const {
    if (segments.size() != 1 || active->keys() != 0) return nullptr;
    for (const FrozenDelta& f : frozen)
      if (f.table->keys() != 0) return nullptr;
    if (wos != nullptr && wos->table->keys() != 0) return nullptr;
    if (frozen_wos != nullptr && frozen_wos->table->keys() != 0) return nullptr;
    return segments[0].get();
  }
};

/// Looks key up in one MemTable at snapshot. True when the table decides it (value or tombstone).
inline bool MemGet(const MemTable& t, std::string_view key, uint64_t hash, uint64_t snapshot, Lookup* result,
                   std::string* value, uint64_t* seq) {
  const MemNode* n = t.Find(key, hash);
  if (n == nullptr) return false;
  const MemVersion* v = n->VisibleAt(snapshot);
  if (v == nullptr) return false;
  if (seq != nullptr) *seq = v->seq();
  if (v->type() == ValueType::kPut) {
    *result = Lookup::kValue;
    if (value != nullptr) value->assign(v->value_data(), v->value_size);
  } else {
    *result = Lookup::kDeleted;
  }
  return true;
}

std::unique_ptr<InternalIterator> NewMemTableIterator(const MemTable* table);

}  // namespace dbx
