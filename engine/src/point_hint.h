// PointHint: where the entries of a small block stored raw lie in a segment's mapped file, so that a
// point read goes from the index search straight to the entries instead of through the block's
// descriptor first. A Get of a 1 KiB YCSB record (3 entries per 4 KiB block) otherwise waited on the
// descriptor, then on its offset array, then on the entry: three dependent cache misses, where the
// hints of a group of blocks are loaded with the group's index prefixes (SegmentReader::FindBlock).
// Written once per block, after its checksum and every entry were checked (SegmentReader::BuildInPlace);
// read by SegmentReader::Get. Thread-safe: racing writers store the same values.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/block.h"
#include "src/internal_iterator.h"

namespace dbx {

class PointHint {
 public:
  static constexpr uint32_t kMaxEntries = 3;

  /// Records block b, parsed in place over `entries` (the block's checked bytes in the mapped file),
  /// when a hint can describe it: 1 to kMaxEntries entries laid back to back from offset 0, ending
  /// below 64 KiB and within one 4 KiB page of the mapping. Else leaves the hint empty.
  void Set(std::string_view entries, const Block& b);

  enum class Outcome {
    kNoHint,   ///< no hint recorded: search the block through its descriptor or the cache
    kDone,     ///< *result (and *value, *seq) set as SearchBlock would set them
    kCorrupt,  ///< an entry is malformed (never after Set checked them, but the bytes are untrusted)
  };
  /// The newest version of key with seq <= snapshot among the block's entries, as SearchBlock finds
  /// it: *result kValue (with *value when not null), kDeleted, or kAbsent; *seq gets the version's
  /// sequence when not null.
  Outcome Search(std::string_view key, uint64_t snapshot, Lookup* result, std::string* value, uint64_t* seq) const;

  /// Entry offsets packed in a word: count | entries_end << 16 | offset 1 << 32 | offset 2 << 48
  /// (entry 0 is at offset 0); 0 when there is no hint.
  uint64_t packed() const { return packed_.load(std::memory_order_acquire); }

 private:
  std::atomic<const char*> base_{nullptr};  // the block's first byte in the mapping
  std::atomic<uint64_t> packed_{0};         // stored after base_ (release)
};
static_assert(sizeof(PointHint) == 16, "four hints to a cache line");

}  // namespace dbx
