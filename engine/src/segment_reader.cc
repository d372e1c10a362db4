#include "src/segment_reader.h"

#include <algorithm>
#include <cstring>

#include "src/compression.h"
#include "src/crc32c.h"
#include "src/key_compare.h"
#include "src/mem_table.h"
#include "src/prefetch.h"

namespace dbx {
SegmentReader::KeyPrefix::KeyPrefix(std::string_view key) : hi(KeyWindow(key, 0)), lo(KeyWindow(key, 8)) {}

SegmentReader::~SegmentReader() {
  if (!dropped_.load(std::memory_order_relaxed)) DropCachedBlocks();
  if (slots_ == nullptr) return;
  // A Get through an older SuperVersion may have published a block after DropCachedBlocks: the
  // cache must not keep a pointer into slots_ (an eviction meanwhile unpublishes under its lock).
  for (size_t i = 0; i < index_.size(); ++i) {
    if (slots_[i].load(std::memory_order_acquire) & kSlotPublished) {
      cache_->EraseFile(cache_id_);
      break;
    }
  }
  for (size_t i = 0; i < index_.size(); ++i) {
    const uintptr_t v = slots_[i].load(std::memory_order_relaxed);
    if (IsDescriptor(v)) delete BlockAt(v);
  }
  MutexLock l(&in_place_mu_);
  cache_->Release(in_place_reserved_);
}

size_t SegmentReader::in_place_blocks() const {
  MutexLock l(&in_place_mu_);
  return in_place_count_;
}

bool SegmentReader::ChargeInPlace(size_t bytes, bool may_evict) const {
  MutexLock l(&in_place_mu_);
  if (in_place_used_ + bytes > in_place_reserved_) {
    // Reserved in chunks (a reservation may sweep every cache shard), each at most 1/64 of the cache.
    const size_t chunk =
        std::max(in_place_used_ + bytes - in_place_reserved_, std::min<size_t>(64 << 10, cache_->capacity() / 64));
    if (!cache_->Reserve(chunk, may_evict)) return false;
    in_place_reserved_ += chunk;
  }
  in_place_used_ += bytes;
  ++in_place_count_;
  return true;
}

Status SegmentReader::BuildInPlace(size_t i, bool may_evict, const Block** out, std::unique_ptr<Block>* parsed) const {
  *out = nullptr;
  std::string scratch;
  std::string_view payload;
  Compression type;
  DBX_RETURN_IF_ERROR(ReadStoredBlock(BlockHandle{index_[i].offset, index_[i].size}, &scratch, &payload, &type));
  if (type != Compression::kNone) {
    // Marked, so that reads of it go to the cache without reading the stored block first.
    uintptr_t expected = kSlotEmpty;
    slots_[i].compare_exchange_strong(expected, kSlotCompressed, std::memory_order_acq_rel);
    return Status::Ok();
  }
  std::unique_ptr<Block> b;
  Status s = Block::ParseInPlace(payload, &b);
  if (!s.ok()) return Status::Corruption(file_->name() + ": " + s.message());
  if (hints_ != nullptr) hints_[i].Set(payload, *b);  // checked: its CRC and every entry
  const size_t charge = b->charge();
  if (!ChargeInPlace(charge, may_evict)) {
    *parsed = std::move(b);
    return Status::Ok();
  }
  uintptr_t expected = kSlotEmpty;
  if (slots_[i].compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(b.get()), std::memory_order_acq_rel)) {
    *out = b.release();
    return Status::Ok();
  }
  // Another reader published its descriptor first: take that one and give the charge back. Or the
  // cache published its copy of the block: the caller reads that through the cache (*out null).
  if (IsDescriptor(expected)) *out = BlockAt(expected);
  MutexLock l(&in_place_mu_);
  in_place_used_ -= charge;
  --in_place_count_;
  return Status::Ok();
}

Status SegmentReader::BlockFor(size_t i, const Block** out, std::shared_ptr<const Block>* keep, bool use_cache,
                               bool publish) const {
  if (slots_ != nullptr) {
    const uintptr_t v = slots_[i].load(std::memory_order_acquire);
    if (IsDescriptor(v)) {
      const Block* b = BlockAt(v);
      // The search reads the block where it lies in the mapped file. One whose entries span pages
      // (a block_size above a page) would otherwise fault them in one by one, each a device read
      // when evicted: its pages are asked for at once. An aligned block within one page costs
      // only this test, on fields the search reads anyway.
      if (b->EntriesSpanPages(kSegmentPageBytes)) file_->WillNeed(index_[i].offset, index_[i].size);
      *out = b;
      return Status::Ok();
    }
    // A first read in place gets the block its descriptor (a copy the flush cached, no longer
    // marked, ages out), while the cache has room for descriptors.
    if (v == kSlotEmpty && reads_in_place_ && use_cache && !in_place_full_.load(std::memory_order_relaxed)) {
      std::unique_ptr<Block> parsed;
      DBX_RETURN_IF_ERROR(BuildInPlace(i, /*may_evict=*/true, out, &parsed));
      if (*out != nullptr) return Status::Ok();
      if (parsed != nullptr) {
        // No room: this block and the segment's later ones are read through the cache.
        in_place_full_.store(true, std::memory_order_relaxed);
        *keep = std::shared_ptr<const Block>(std::move(parsed));
        cache_->Insert(cache_id_, index_[i].offset, *keep, publish ? &slots_[i] : nullptr);
        *out = keep->get();
        return Status::Ok();
      }
    }
  }
  DBX_RETURN_IF_ERROR(ReadDataBlock(i, keep, use_cache, publish && slots_ != nullptr ? &slots_[i] : nullptr));
  *out = keep->get();
  return Status::Ok();
}

void SegmentReader::DropCachedBlocks() const {
  dropped_.store(true, std::memory_order_relaxed);
  if (cache_ != nullptr) cache_->EraseFile(cache_id_);
}

void SegmentReader::WarmCache() const {
  if (cache_ == nullptr) return;
  for (size_t i = 0; i < index_.size(); ++i) {
    if (slots_ != nullptr) {
      const uintptr_t cur = slots_[i].load(std::memory_order_acquire);
      if (cur != kSlotEmpty && cur != kSlotCompressed) continue;  // a descriptor, or cached
      // Descriptors into room the cache has free; a compressed block goes into the cache itself.
      if (cur == kSlotEmpty && reads_in_place_) {
        const Block* b = nullptr;
        std::unique_ptr<Block> parsed;
        if (!BuildInPlace(i, /*may_evict=*/false, &b, &parsed).ok()) return;  // a reader will report it
        if (b != nullptr) continue;
        if (parsed != nullptr) return;  // no room left
      }
    }
    // A block's charge is about its stored size (blocks that did not compress are stored raw).
    if (!cache_->HasRoom(cache_id_, index_[i].offset, index_[i].size)) continue;
    std::shared_ptr<const Block> b;
    if (!ReadDataBlock(i, &b, /*use_cache=*/false).ok()) return;  // a reader will report it
    (void)cache_->InsertIfRoom(cache_id_, index_[i].offset, std::move(b), slots_ != nullptr ? &slots_[i] : nullptr);
  }
}

Status SegmentReader::ReadStoredBlock(const BlockHandle& h, std::string* scratch, std::string_view* payload,
                                      Compression* type) const {
  if (h.size < kBlockTrailer || h.offset > file_->Size() || h.size > file_->Size() - h.offset)
    return Status::Corruption(file_->name() + ": block handle out of range");
  std::string_view data;
  DBX_RETURN_IF_ERROR(file_->Read(h.offset, h.size, scratch, &data));
  if (data.size() != h.size) return Status::Corruption(file_->name() + ": truncated block");
  size_t n = h.size - kBlockTrailer;
  uint32_t expected = crc32c::Unmask(DecodeFixed32(data.data() + n + 1));
  if (crc32c::Value(data.data(), n + 1) != expected)
    return Status::Corruption(file_->name() + ": block checksum mismatch");
  *type = static_cast<Compression>(static_cast<unsigned char>(data[n]));
  if (*type != Compression::kNone && *type != Compression::kLz4 && *type != Compression::kZstd)
    return Status::Corruption(file_->name() + ": unknown block compression");
  *payload = data.substr(0, n);
  return Status::Ok();
}

Status SegmentReader::ReadRawBlock(const BlockHandle& h, std::string* out) const {
  std::string scratch;
  std::string_view payload;
  Compression type;
  DBX_RETURN_IF_ERROR(ReadStoredBlock(h, &scratch, &payload, &type));
  if (type == Compression::kNone) {
    out->assign(payload);
    return Status::Ok();
  }
  Status s = UncompressBlock(type, payload, out);
  if (!s.ok()) return Status::Corruption(file_->name() + ": " + s.message());
  return Status::Ok();
}

Status SegmentReader::Open(std::unique_ptr<RandomAccessFile> file, uint64_t number, std::shared_ptr<BlockCache> cache,
                           std::shared_ptr<SegmentReader>* out, uint64_t cache_id, bool point_hints) {
  std::shared_ptr<SegmentReader> r(new SegmentReader());
  r->file_ = std::move(file);
  r->number_ = number;
  r->cache_ = std::move(cache);
  r->cache_id_ = cache_id != 0 ? cache_id : BlockCache::NewFileId();
  const std::string& name = r->file_->name();
  uint64_t size = r->file_->Size();
  if (size < kFooterSize) return Status::Corruption(name + ": file too short for a segment");
  std::string scratch;
  std::string_view fdata;
  DBX_RETURN_IF_ERROR(r->file_->Read(size - kFooterSize, kFooterSize, &scratch, &fdata));
  SegmentFooter footer;
  Status s = SegmentFooter::Decode(fdata, &footer);
  if (!s.ok()) return Status::Corruption(name + ": " + s.message());

  std::string block;
  DBX_RETURN_IF_ERROR(r->ReadRawBlock(footer.meta, &block));
  s = SegmentMeta::Decode(block, &r->meta_);
  if (!s.ok()) return Status::Corruption(name + ": " + s.message());

  DBX_RETURN_IF_ERROR(r->ReadRawBlock(footer.index, &block));
  std::string_view in = block;
  std::string_view prev;
  while (!in.empty()) {
    std::string_view k;
    uint64_t offset;
    uint32_t size;
    if (!GetLengthPrefixed(&in, &k) || !GetFixed64(&in, &offset) || !GetFixed32(&in, &size))
      return Status::Corruption(name + ": bad index block");
    if (!r->index_.empty() && k <= prev) return Status::Corruption(name + ": index keys out of order");
    if (r->index_keys_.size() > 0xffffffffu) return Status::Corruption(name + ": index too large");
    // Keys are copied out of `block` (which is the whole index), so the packed copy is at most as big.
    r->index_.push_back(IndexEntry{offset, size, static_cast<uint32_t>(r->index_keys_.size())});
    r->index_prefixes_.emplace_back(k);
    r->index_keys_.append(k);
    prev = k;
  }
  r->index_.shrink_to_fit();
  r->index_prefixes_.shrink_to_fit();
  for (size_t end = kGroup; end - kGroup < r->index_prefixes_.size(); end += kGroup)
    r->group_prefixes_.push_back(r->index_prefixes_[std::min(end, r->index_prefixes_.size()) - 1]);
  r->index_keys_.shrink_to_fit();
  if (r->index_.empty() != (r->meta_.entries == 0)) return Status::Corruption(name + ": index/meta mismatch");

  std::string filter;  // not `block`, whose capacity may be the (larger) index's
  DBX_RETURN_IF_ERROR(r->ReadRawBlock(footer.filter, &filter));
  r->bloom_ = BloomFilter(std::move(filter));
  if (r->cache_ != nullptr && r->cache_->capacity() > 0 && !r->index_.empty() &&
      (r->file_->ReadsInPlace() || r->cache_->publishes())) {
    r->reads_in_place_ = r->file_->ReadsInPlace();
    r->slots_ = std::make_unique<BlockSlot[]>(r->index_.size());
    for (size_t i = 0; i < r->index_.size(); ++i) r->slots_[i].store(kSlotEmpty, std::memory_order_relaxed);
    // Hints only where blocks hold few entries on average (rows of about 1 KiB in 4 KiB blocks).
    if (r->reads_in_place_ && point_hints &&
        r->meta_.entries <= (PointHint::kMaxEntries + 1) * static_cast<uint64_t>(r->index_.size()))
      r->hints_ = std::make_unique<PointHint[]>(r->index_.size());
  }
  *out = std::move(r);
  return Status::Ok();
}

size_t SegmentReader::hinted_blocks() const {
  size_t n = 0;
  for (size_t i = 0; hints_ != nullptr && i < index_.size(); ++i) n += hints_[i].packed() != 0;
  return n;
}

size_t SegmentReader::FindBlock(std::string_view key) const {
  // The answer is the first block i with !below(i); below is true up to it and false after.
  const KeyPrefix prefix(key);
  auto below = [&](size_t i) {
    const KeyPrefix& p = index_prefixes_[i];
    return p < prefix || (p == prefix && KeyLess(LastKey(i), key));
  };
  // Every block of the groups whose last prefix is below the key's is below the key.
  size_t g = std::lower_bound(group_prefixes_.begin(), group_prefixes_.end(), prefix) - group_prefixes_.begin();
  size_t lo = std::min(g * kGroup, index_.size()), hi = index_.size();
  if (g < group_prefixes_.size()) {
    const size_t last = std::min(lo + kGroup, index_.size()) - 1;
    if (!below(last)) hi = last + 1;  // else keys share the prefix past this group: search on
    for (size_t i = lo; i < hi && i < lo + kGroup; i += 4) PrefetchLine(&index_prefixes_[i]);
    // The group's descriptor pointers (2 lines) and point hints (4), loaded while the prefixes are
    // searched.
    if (slots_ != nullptr) {
      __builtin_prefetch(&slots_[lo]);
      __builtin_prefetch(&slots_[std::min(lo + kGroup, index_.size()) - 1]);
    }
    if (hints_ != nullptr)
      PrefetchBytes(reinterpret_cast<const char*>(&hints_[lo]),
                    (std::min(lo + kGroup, index_.size()) - lo) * sizeof(PointHint));
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (below(mid))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

Status SegmentReader::ReadDataBlock(size_t i, std::shared_ptr<const Block>* out, bool use_cache) const {
  return ReadDataBlock(i, out, use_cache, nullptr);
}

Status SegmentReader::ReadDataBlock(size_t i, std::shared_ptr<const Block>* out, bool use_cache,
                                    BlockSlot* home) const {
  const BlockHandle h{index_[i].offset, index_[i].size};
  if (cache_ != nullptr) {
    *out = use_cache ? cache_->Lookup(cache_id_, h.offset, home) : cache_->Peek(cache_id_, h.offset);
    if (*out != nullptr) return Status::Ok();
  }
  use_cache = use_cache && cache_ != nullptr;
  std::string raw;
  std::string_view payload;
  Compression type;
  DBX_RETURN_IF_ERROR(ReadStoredBlock(h, &raw, &payload, &type));
  Status s;
  if (type == Compression::kNone && file_->ReadsInPlace()) {
    // A mapped file's block that is stored raw is searched where it is: the cache keeps only its
    // offset array, and the bytes stay in the page cache (as LMDB's and SQLite's mapped pages do).
    s = Block::ParseInPlace(payload, out);
  } else if (type == Compression::kNone) {
    s = Block::Parse(payload, out);
  } else {
    // Decoded into a buffer the thread keeps (the block copies it into its own allocation), so a
    // miss allocates once; a buffer grown past a few blocks is not kept.
    thread_local std::string decoded;  // not raw: payload may point into it
    s = UncompressBlock(type, payload, &decoded);
    if (s.ok()) s = Block::Parse(decoded, out);
    if (decoded.capacity() > (64 << 10)) std::string().swap(decoded);
  }
  if (!s.ok()) return Status::Corruption(file_->name() + ": " + s.message());
  if (use_cache) cache_->Insert(cache_id_, h.offset, *out, home);
  return Status::Ok();
}

namespace {

// The newest version of key (whose Hash64 is hash) with seq <= snapshot in block b, whose
// num_cells() is `num_cells`. False when an entry is malformed.
bool SearchBlock(const Block& b, uint32_t num_cells, std::string_view key, uint64_t hash, uint64_t snapshot,
                 Lookup* result, std::string* value, uint64_t* seq) {
  bool corrupt = false;
  BlockEntry e;
  auto found = [&] {
    *result = TagType(e.tag) == ValueType::kPut ? Lookup::kValue : Lookup::kDeleted;
    if (*result == Lookup::kValue && value != nullptr) value->assign(e.value);
    if (seq != nullptr) *seq = TagSeq(e.tag);
    return true;
  };
  if (num_cells != 0) {
    if (!Block::FindNewest(&b, num_cells, key, hash, &e, &corrupt)) return !corrupt;
    if (TagSeq(e.tag) <= snapshot) return found();
    // The newest version is past the snapshot: the older ones follow it, found by the search below.
  }
  for (uint32_t i = b.LowerBound(key, &corrupt); !corrupt && i < b.size(); ++i) {
    if (!b.Decode(i, &e)) return false;
    if (!KeyEqual(e.key, key)) break;
    if (TagSeq(e.tag) > snapshot) continue;
    return found();
  }
  return !corrupt;
}

}  // namespace

Status SegmentReader::Get(std::string_view key, uint64_t hash, uint64_t snapshot, Lookup* result, std::string* value,
                          uint64_t* seq) const {
  *result = Lookup::kAbsent;
  if (index_.empty() || !bloom_.MayContain(hash)) return Status::Ok();
  size_t bi = FindBlock(key);
  if (bi == index_.size()) return Status::Ok();
  if (hints_ != nullptr) {
    const PointHint::Outcome o = hints_[bi].Search(key, snapshot, result, value, seq);
    if (o == PointHint::Outcome::kDone) return Status::Ok();
    if (o == PointHint::Outcome::kCorrupt) return Status::Corruption(file_->name() + ": malformed block entry");
  }
  // The block is searched outside any lock (a cached one is kept by the reference, or, published,
  // by the epoch): a reader preempted mid-search holds up nobody, which matters when readers
  // outnumber cores.
  const Block* b;
  std::shared_ptr<const Block> keep;
  // Seq_cst, as the epoch's slot was announced: a block unpublished before this load is not seen,
  // one unpublished after it waits for this read's epoch to end before it is freed.
  const uintptr_t v = slots_ != nullptr ? slots_[bi].load(std::memory_order_seq_cst) : kSlotEmpty;
  uint32_t num_cells;
  if (v & kSlotPublished) {
    // The cells' count beside the pointer: the cells and the entry are loaded without waiting for
    // the Block's fields.
    b = SlotBlock(v);
    num_cells = SlotCells(v);
    b->MarkUsed();
  } else {
    DBX_RETURN_IF_ERROR(BlockFor(bi, &b, &keep, /*use_cache=*/true, /*publish=*/true));
    num_cells = b->num_cells();
  }
  if (!SearchBlock(*b, num_cells, key, hash, snapshot, result, value, seq))
    return Status::Corruption(file_->name() + ": malformed block entry");
  return Status::Ok();
}

namespace {
// How far ahead of its current entry a scan requests a block's bytes (1 KiB measured faster than
// 256 or 512 bytes at 1M rows of 31 B).
constexpr uint32_t kScanPrefetchDistance = 1024;
}  // namespace

Status SegmentReader::ScanVisible(uint64_t snapshot, std::string_view start, std::string_view end, uint64_t limit,
                                  RowFunction fn, void* ctx, bool* stopped) const {
  *stopped = false;
  size_t bi = start.empty() ? 0 : FindBlock(start);
  if (bi >= index_.size()) return Status::Ok();
  // The key whose older versions follow (it was passed or deleted). It points into the current
  // block; when a block is left it is copied (short ones inline), since that block may be released.
  // (A key's versions never span two blocks in a segment this engine wrote.)
  char skip_inline[64];
  std::string skip_long;
  std::string_view skip;
  bool skipping = false;
  uint64_t seen = 0;
  const Block* b;
  std::shared_ptr<const Block> keep;
  DBX_RETURN_IF_ERROR(BlockFor(bi, &b, &keep));
  uint32_t pos = 0;
  if (!start.empty()) {
    bool corrupt = false;
    pos = b->LowerBound(start, &corrupt);
    if (corrupt) return Status::Corruption(file_->name() + ": malformed block entry");
  }
  BlockEntry e;
  for (;;) {
    const uint32_t n = b->size();
    // The next block, when this one cannot end the scan: found now and its first lines requested,
    // so that their misses overlap the work on this block's rows.
    const Block* next = nullptr;
    std::shared_ptr<const Block> keep_next;
    Status next_status;
    if (bi + 1 < index_.size() && (limit == 0 || limit - seen > n - pos) &&
        (end.empty() || KeyLess(LastKey(bi), end))) {
      next_status = BlockFor(bi + 1, &next, &keep_next);
      if (next_status.ok()) next->PrefetchEntry(0);
      // The lookups after that one: the block's reference count, and the next one's cache slot.
      PrefetchBlockFor(bi + 2, /*block=*/true);
      PrefetchBlockFor(bi + 3, /*block=*/false);
    }
    // Entries back to back are walked by their sizes, without the block's offset array.
    const bool contiguous = b->contiguous();
    uint32_t off = pos < n ? b->OffsetOf(pos) : 0;
    for (; pos < n; ++pos) {
      if (!contiguous) off = b->OffsetOf(pos);
      if (!b->DecodeEntryAt(off, &e)) return Status::Corruption(file_->name() + ": malformed block entry");
      const uint32_t entry_start = off;
      off = b->OffsetAfter(e);
      // The rows some entries ahead, while this one is handled.
      b->PrefetchPast(e, entry_start, kScanPrefetchDistance, next);
      if (skipping && NeighbourKeyEqual(e.key, skip)) continue;
      if (TagSeq(e.tag) > snapshot) continue;  // newer than the snapshot: an older version may be visible
      if (!end.empty() && e.key >= end) return Status::Ok();
      skip = e.key;
      skipping = true;
      if (TagType(e.tag) == ValueType::kDelete) continue;
      if (!fn(ctx, e.key, e.value)) {
        *stopped = true;
        return Status::Ok();
      }
      if (++seen == limit) return Status::Ok();
    }
    if (++bi >= index_.size()) return Status::Ok();
    if (skipping && skip.data() != skip_inline && skip.data() != skip_long.data()) {
      if (skip.size() <= sizeof(skip_inline)) {
        std::memcpy(skip_inline, skip.data(), skip.size());
        skip = std::string_view(skip_inline, skip.size());
      } else {
        skip_long.assign(skip);
        skip = skip_long;
      }
    }
    if (next == nullptr) {
      DBX_RETURN_IF_ERROR(next_status);
      keep.reset();
      DBX_RETURN_IF_ERROR(BlockFor(bi, &b, &keep));
    } else {
      b = next;
      keep = std::move(keep_next);
    }
    pos = 0;
  }
}

namespace {

class SegmentIterator final : public InternalIterator {
 public:
  SegmentIterator(const SegmentReader* r, bool use_cache) : r_(r), use_cache_(use_cache) {}
  bool Valid() const override { return block_ != nullptr && status_.ok(); }
  void SeekToFirst() override {
    pos_ = 0;
    if (LoadBlock(0)) block_->PrefetchFrom(0, kScanPrefetchDistance);
    DecodeOrAdvance();
  }
  void Seek(std::string_view target) override {
    size_t lo = r_->FindBlock(target);
    if (!LoadBlock(lo)) return;
    bool corrupt = false;
    pos_ = block_->LowerBound(target, &corrupt);
    if (corrupt) return Corrupt();
    block_->PrefetchFrom(pos_, kScanPrefetchDistance);
    DecodeOrAdvance();
  }
  void Next() override {
    ++pos_;
    DecodeOrAdvance();
  }
  std::string_view key() const override { return e_.key; }
  uint64_t tag() const override { return e_.tag; }
  std::string_view value() const override { return e_.value; }
  Status status() const override { return status_; }

 private:
  bool LoadBlock(size_t i) {
    block_index_ = i;
    if (i >= r_->num_blocks()) {
      block_ = nullptr;
      return false;
    }
    Status s = r_->BlockFor(i, &block_, &keep_, use_cache_);
    if (!s.ok()) {
      status_ = s;
      block_ = nullptr;
      return false;
    }
    return true;
  }
  void DecodeOrAdvance() {
    while (block_ != nullptr && pos_ >= block_->size()) {
      if (!LoadBlock(block_index_ + 1)) return;
      pos_ = 0;
      block_->PrefetchFrom(0, kScanPrefetchDistance);
    }
    if (block_ == nullptr) return;
    const uint32_t start = block_->OffsetOf(pos_);
    if (!block_->Decode(pos_, &e_)) return Corrupt();
    // The caller reads the rows' values: the ones ahead are requested while it does.
    block_->PrefetchPast(e_, start, kScanPrefetchDistance, nullptr);
  }
  void Corrupt() {
    status_ = Status::Corruption("segment " + std::to_string(r_->number()) + ": malformed block entry");
    block_ = nullptr;
  }

  const SegmentReader* r_;
  const bool use_cache_;
  const Block* block_ = nullptr;       // the reader's descriptor, or keep_'s
  std::shared_ptr<const Block> keep_;  // a block from the cache (or read for this iterator)
  size_t block_index_ = 0;
  uint32_t pos_ = 0;
  BlockEntry e_;
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> SegmentReader::NewIterator(bool use_cache) const {
  return std::make_unique<SegmentIterator>(this, use_cache);
}

}  // namespace dbx
