// Data blocks of a segment: entries sorted by (key asc, seq desc), each
//   varint key size | varint value size | fixed64 tag (seq << 8 | type) | key | value
// followed by a fixed32 offset per entry and a fixed32 entry count. The offsets allow binary search.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dbx/status.h"
#include "src/coding.h"
#include "src/prefetch.h"

namespace dbx {

class BlockBuilder {
 public:
  void Add(std::string_view key, uint64_t tag, std::string_view value);
  /// Bytes the block would take if finished now.
  size_t EstimatedSize() const { return buf_.size() + 4 * offsets_.size() + 4; }
  /// How much Add(key, ·, value) adds to EstimatedSize().
  static size_t EntrySize(std::string_view key, std::string_view value) {
    return VarintLength(key.size()) + VarintLength(value.size()) + 8 + key.size() + value.size() + 4;
  }
  bool empty() const { return offsets_.empty(); }
  /// Returns the encoded block; the builder is reset.
  std::string Finish();

 private:
  std::string buf_;
  std::vector<uint32_t> offsets_;
};

struct BlockEntry {
  std::string_view key;
  std::string_view value;
  uint64_t tag = 0;
};

/// A decoded (uncompressed), validated block. Immutable and thread-safe. Parse also keeps the
/// length of the prefix all its keys share and, per entry, the 2 key bytes after it (KeyWindow) packed
/// with the entry's offset into its 4-byte offset slot (blocks whose entries end below 64 KiB), so
/// that a search compares integers in one array and decodes only the entries it lands on.
class Block {
 public:
  Block() = default;
  Block(const Block&) = delete;  // points into its own data
  Block& operator=(const Block&) = delete;
  /// Corruption when the layout is inconsistent or an entry is malformed. The block copies the
  /// bytes into one allocation with itself and its hash index (see FindNewest).
  static Status Parse(std::string_view data, std::shared_ptr<const Block>* out);
  /// As Parse, over bytes the block does not own (a mapped segment file): it keeps only its own
  /// copy of the offset array (4 bytes per entry) and reads the entries in place. REQUIRES: `data`
  /// outlives the block.
  static Status ParseInPlace(std::string_view data, std::shared_ptr<const Block>* out);
  /// As above, owned by the caller alone (a segment's array of in-place blocks: no reference count).
  static Status ParseInPlace(std::string_view data, std::unique_ptr<Block>* out);
  uint32_t size() const { return n_; }
  /// Parsed by ParseInPlace: its entries are read where the bytes are.
  bool in_place() const { return in_place_; }
  /// Whether the entries a search reads in place cross a boundary of `page`-byte pages (of a mapping
  /// that starts on one). Reads only fields a search reads anyway.
  bool EntriesSpanPages(uint64_t page) const { return reinterpret_cast<uintptr_t>(base_) % page + entries_end_ > page; }
  /// Decodes the entry at byte offset `off` of a block's entries at `base`, which end at
  /// `entries_end`: false when it is malformed or runs past them. Reads only bytes before entries_end.
  static bool DecodeEntry(const char* base, uint32_t entries_end, uint32_t off, BlockEntry* e) {
    if (off >= entries_end) return false;
    const char* p = base + off;
    const char* limit = base + entries_end;
    uint32_t ks, vs;
    if ((p = DecodeVarint32(p, limit, &ks)) == nullptr) return false;
    if ((p = DecodeVarint32(p, limit, &vs)) == nullptr) return false;
    if (static_cast<uint64_t>(limit - p) < 8ull + ks + vs) return false;
    e->tag = DecodeFixed64(p);
    p += 8;
    e->key = std::string_view(p, ks);
    e->value = std::string_view(p + ks, vs);
    return true;
  }
  /// The byte offset where the entries end (and the offset array starts).
  uint32_t entries_end() const { return entries_end_; }
  /// Decodes entry i. False when the entry is malformed. Inline: a scan decodes every entry.
  bool Decode(uint32_t i, BlockEntry* e) const { return i < n_ && DecodeAt(Offset(i), e); }
  /// Starts loading the first 256 bytes of entry i (its header, key and the start of its value) at
  /// once, instead of one line after the other as a decode and a value copy would.
  void PrefetchEntry(uint32_t i) const {
    if (i >= n_) return;
    const uint32_t off = Offset(i);
    PrefetchBytes(base_ + off, std::min<uint32_t>(256, entries_end_ - off));
  }
  /// For a scan reading the entries in order, after it decoded entry e, which starts at byte offset
  /// `start`: requests the lines `distance` bytes past e's own bytes, running on into `next` (the
  /// block the scan reads next; may be null) past this block's entries. Over consecutive entries that
  /// is every line up to `distance` ahead: one request for a row within a line, one per line of a
  /// larger one (a 1 KiB YCSB record is 16 lines, whose values the caller reads).
  void PrefetchPast(const BlockEntry& e, uint32_t start, uint32_t distance, const Block* next) const {
    const uint32_t end = static_cast<uint32_t>(e.value.data() + e.value.size() - base_) + distance;
    for (uint32_t at = start + distance; at < end; at += 64) {
      if (at < entries_end_)
        PrefetchLine(base_ + at);
      else if (next != nullptr && at - entries_end_ < next->entries_end_)
        PrefetchLine(next->base_ + (at - entries_end_));
    }
  }
  /// Requests the lines of the first `bytes` bytes of entry i's offset on: where a scan entering
  /// the block at entry i reads first (the entries' read-ahead, PrefetchPast, starts past them).
  void PrefetchFrom(uint32_t i, uint32_t bytes) const {
    if (i >= n_) return;
    const uint32_t off = Offset(i);
    PrefetchBytes(base_ + off, std::min(bytes, entries_end_ - off));
  }
  /// Whether the entries lie back to back in order from offset 0, each starting where the one
  /// before ends (as BlockBuilder writes them): a scan then walks them with no offset array.
  bool contiguous() const { return contiguous_; }
  /// Entry i's byte offset; decoding by offset; the offset of the entry after e (contiguous()).
  uint32_t OffsetOf(uint32_t i) const { return Offset(i); }
  bool DecodeEntryAt(uint32_t off, BlockEntry* e) const { return DecodeAt(off, e); }
  uint32_t OffsetAfter(const BlockEntry& e) const {
    return static_cast<uint32_t>(e.value.data() + e.value.size() - base_);
  }
  /// Index of the first entry with key >= target (size() when none). Sets *corrupt on bad entries.
  uint32_t LowerBound(std::string_view target, bool* corrupt) const;
  /// Whether the block has a hash index for point reads (FindNewest): blocks that own their bytes
  /// (decoded from compressed storage, or copied) of at least kMinHashedEntries entries whose
  /// entries end within 4 KiB (so every such block of the default block_size).
  bool hashed() const { return cells_ != nullptr; }
  /// For a point read of `key`, whose Hash64 is `hash`, through the hash index: decodes the key's
  /// first (newest) entry into *e and returns true, or returns false when the block does not hold
  /// the key (setting *corrupt if an entry is malformed). REQUIRES: hashed().
  bool FindNewest(std::string_view key, uint64_t hash, BlockEntry* e, bool* corrupt) const {
    return FindNewest(this, num_cells_, key, hash, e, corrupt);
  }
  /// As above, given the block's num_cells() (kept beside the pointer, in a segment's slot): the
  /// cells and the entries lie at offsets from the block that follow from it, so their loads do not
  /// wait for the Block's own fields. REQUIRES: num_cells == b->num_cells() != 0.
  static bool FindNewest(const Block* b, uint32_t num_cells, std::string_view key, uint64_t hash, BlockEntry* e,
                         bool* corrupt);
  /// The hash index's size (0: none).
  uint32_t num_cells() const { return num_cells_; }
  /// The CLOCK mark of a block a point read found through its segment's array instead of a cache
  /// lookup (BlockCache::Lookup's `home`): set by such a read (written only when clear, so a hot
  /// block's line is not dirtied on every read), taken (read and cleared) by the cache's hand.
  void MarkUsed() const {
    if (!used_.load(std::memory_order_relaxed)) used_.store(true, std::memory_order_relaxed);
  }
  bool TakeUsed() const {
    return used_.load(std::memory_order_relaxed) && used_.exchange(false, std::memory_order_relaxed);
  }
  static constexpr uint32_t kMinHashedEntries = 16;
  static constexpr uint32_t kMaxHashedBytes = 4096;
  /// The memory the block holds: itself, its bytes or (in place) its offset array if not inline,
  /// and its hash index.
  size_t charge() const {
    return sizeof(*this) + 2 * static_cast<size_t>(num_cells_) +
           (!in_place_              ? bytes_
            : own_slots_ != nullptr ? 4 * static_cast<size_t>(n_)
                                    : 0);
  }

 private:
  // Validates the bytes at base_ and sets up the search fields, rewriting the offset array in the
  // owned bytes, or (in place) in inline_slots_ or own_slots_, and builds the hash index.
  static Status Init(Block* b);
  // The hash index's size for a block of n entries whose entries end at entries_end (0: none).
  static uint32_t CellsFor(bool in_place, uint32_t n, size_t entries_end) {
    return !in_place && n >= kMinHashedEntries && entries_end <= kMaxHashedBytes ? 2 * n : 0;
  }
  // An owned block's allocation: the Block, its cells (rounded up to 8 bytes), then its bytes.
  static const uint16_t* CellsOf(const Block* b) {
    return reinterpret_cast<const uint16_t*>(reinterpret_cast<const char*>(b) + sizeof(Block));
  }
  static size_t BytesOffset(uint32_t num_cells) {
    return sizeof(Block) + (2 * static_cast<size_t>(num_cells) + 7) / 8 * 8;
  }
  static const char* BytesOf(const Block* b, uint32_t num_cells) {
    return reinterpret_cast<const char*>(b) + BytesOffset(num_cells);
  }
  // The hash index's first cell for a key's hash, and the fingerprint its cells carry.
  static uint32_t HomeCell(uint64_t mixed, uint32_t num_cells) {
    return static_cast<uint32_t>((static_cast<uint64_t>(static_cast<uint32_t>(mixed >> 32)) * num_cells) >> 32);
  }
  static uint64_t MixHash(uint64_t hash) { return hash * 0xff51afd7ed558ccdull; }
  static uint16_t Fingerprint(uint64_t mixed) { return static_cast<uint16_t>((mixed >> 16) & 0xf000); }
  static constexpr uint16_t kEmptyCell = 0xffff;  // no entry starts at 0xfff: it would end past 4 KiB
  uint32_t Slot(uint32_t i) const { return DecodeFixed32(slots_ + 4 * static_cast<size_t>(i)); }
  // Decodes the entry at byte offset `off`. False when it is malformed.
  bool DecodeAt(uint32_t off, BlockEntry* e) const { return DecodeEntry(base_, entries_end_, off, e); }
  uint32_t Offset(uint32_t i) const { return packed_ ? Slot(i) & 0xffff : Slot(i); }

  // What a search reads comes first, next to the shared_ptr control block (allocate_shared,
  // make_shared), so that a lookup touches as few cache lines of the Block as it can.
  const char* base_ = nullptr;  // the bytes: after the cells (Parse), or the mapped file (ParseInPlace)
  // The offset array (at the end of the bytes, inline_slots_ or own_slots_), one fixed32 per entry:
  // packed_ ? the top 16 bits of KeyWindow(key, common_.size()) << 16 | offset : the offset (every
  // window then counts as equal).
  char* slots_ = nullptr;
  uint32_t n_ = 0;
  uint32_t entries_end_ = 0;               // where the offset array starts in the bytes
  bool packed_ = false;                    // entries end below 64 KiB: the slots hold windows too
  bool in_place_ = false;                  // ParseInPlace
  bool contiguous_ = false;                // see contiguous()
  mutable std::atomic<bool> used_{false};  // MarkUsed
  // The hash index of a point read (as RocksDB's data block hash index, but exact): open addressing
  // with linear probing over num_cells_ = 2 x size() cells, one per distinct key; a cell is 4 bits
  // of the key's hash << 12 | the offset of its first entry (kEmptyCell when empty). A lookup reads
  // a cell or two and goes straight to the entry whose bits match (about 1 in 16 others do), instead
  // of through the offset array to the several entries a binary search lands on when keys differ
  // past the packed windows: one cache miss for the cells, one for the entry. Only owned blocks
  // have one, at CellsOf(this).
  const uint16_t* cells_ = nullptr;
  uint32_t num_cells_ = 0;
  // The prefix every key of the block starts with: a copy in prefix_ when it fits (the search's
  // first comparison then reads nothing outside the Block), else in the block's bytes.
  std::string_view common_;
  char prefix_[24];
  // In place: the offset array of a block of at most kInlineSlots entries (a 4 KiB block of
  // 200-byte rows has about 17), else own_slots_.
  static constexpr uint32_t kInlineSlots = 24;
  char inline_slots_[4 * kInlineSlots];

  size_t bytes_ = 0;  // how many
  std::unique_ptr<char[]> own_slots_;
};

}  // namespace dbx
