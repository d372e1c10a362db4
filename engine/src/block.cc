#include "src/block.h"

#include <cstring>
#include <new>

#include "src/coding.h"
#include "src/hash.h"
#include "src/key_compare.h"

namespace dbx {
namespace {

// An allocator that allocates `extra` bytes past the object it allocates and reports where that
// object ends. It keeps one pointer (to the request, which only allocate reads), so that the
// control block it makes keeps the reference counts within 16 bytes of the Block.
struct TrailingBytesRequest {
  size_t extra;
  char* object_end = nullptr;
};
template <typename T>
struct TrailingBytes {
  using value_type = T;
  explicit TrailingBytes(TrailingBytesRequest* r) : request(r) {}
  template <typename U>
  explicit TrailingBytes(const TrailingBytes<U>& o) : request(o.request) {}
  T* allocate(size_t n) {
    char* p = static_cast<char*>(::operator new(n * sizeof(T) + request->extra));
    request->object_end = p + n * sizeof(T);
    return reinterpret_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { ::operator delete(p); }
  template <typename U>
  bool operator==(const TrailingBytes<U>&) const {
    return true;
  }
  TrailingBytesRequest* request;
};

}  // namespace

void BlockBuilder::Add(std::string_view key, uint64_t tag, std::string_view value) {
  offsets_.push_back(static_cast<uint32_t>(buf_.size()));
  PutVarint32(&buf_, static_cast<uint32_t>(key.size()));
  PutVarint32(&buf_, static_cast<uint32_t>(value.size()));
  PutFixed64(&buf_, tag);
  buf_.append(key);
  buf_.append(value);
}

std::string BlockBuilder::Finish() {
  for (uint32_t o : offsets_) PutFixed32(&buf_, o);
  PutFixed32(&buf_, static_cast<uint32_t>(offsets_.size()));
  std::string out = std::move(buf_);
  buf_.clear();
  offsets_.clear();
  return out;
}

Status Block::Parse(std::string_view data, std::shared_ptr<const Block>* out) {
  // The cells' size is known from the count and the offset array's size; Init checks both again.
  uint32_t num_cells = 0;
  if (data.size() >= 4) {
    const uint32_t n = DecodeFixed32(data.data() + data.size() - 4);
    if (n <= (data.size() - 4) / 4) num_cells = CellsFor(false, n, data.size() - 4 - 4 * static_cast<size_t>(n));
  }
  // One allocation: the reference counts, the Block, its cells and its bytes (see CellsOf). The
  // Block is the last member of the control block allocate_shared makes (libstdc++ and libc++), so
  // the bytes allocated past that block follow it; else the counts are allocated apart.
  const size_t extra = BytesOffset(num_cells) - sizeof(Block) + data.size();
  TrailingBytesRequest request{extra};
  std::shared_ptr<Block> b = std::allocate_shared<Block>(TrailingBytes<Block>(&request));
  if (reinterpret_cast<char*>(b.get()) + sizeof(Block) != request.object_end) {
    char* mem = static_cast<char*>(::operator new(sizeof(Block) + extra));
    b.reset(new (mem) Block(), [](Block* p) {
      p->~Block();
      ::operator delete(p);
    });
  }
  char* bytes = const_cast<char*>(BytesOf(b.get(), num_cells));
  std::memcpy(bytes, data.data(), data.size());
  b->base_ = bytes;
  b->bytes_ = data.size();
  DBX_RETURN_IF_ERROR(Init(b.get()));
  *out = std::move(b);
  return Status::Ok();
}

Status Block::ParseInPlace(std::string_view data, std::shared_ptr<const Block>* out) {
  auto b = std::make_shared<Block>();
  b->base_ = data.data();
  b->bytes_ = data.size();
  b->in_place_ = true;
  DBX_RETURN_IF_ERROR(Init(b.get()));
  *out = std::move(b);
  return Status::Ok();
}

Status Block::ParseInPlace(std::string_view data, std::unique_ptr<Block>* out) {
  auto b = std::make_unique<Block>();
  b->base_ = data.data();
  b->bytes_ = data.size();
  b->in_place_ = true;
  DBX_RETURN_IF_ERROR(Init(b.get()));
  *out = std::move(b);
  return Status::Ok();
}

Status Block::Init(Block* b) {
  if (b->bytes_ < 4) return Status::Corruption("block too short");
  if (b->bytes_ > 0xffffffffu) return Status::Corruption("block too large");
  uint32_t n = DecodeFixed32(b->base_ + b->bytes_ - 4);
  if (n == 0 || n > (b->bytes_ - 4) / 4) return Status::Corruption("bad block entry count");
  b->n_ = n;
  b->entries_end_ = static_cast<uint32_t>(b->bytes_ - 4 - 4 * static_cast<size_t>(n));
  char* slots;
  if (b->in_place_) {
    if (n <= kInlineSlots) {
      slots = b->inline_slots_;
    } else {
      b->own_slots_ = std::make_unique<char[]>(4 * static_cast<size_t>(n));
      slots = b->own_slots_.get();
    }
    std::memcpy(slots, b->base_ + b->entries_end_, 4 * static_cast<size_t>(n));
  } else {
    slots = const_cast<char*>(b->base_) + b->entries_end_;  // the block's own bytes (Parse)
  }
  b->slots_ = slots;
  for (uint32_t i = 0; i < n; ++i)
    if (b->Slot(i) >= b->entries_end_) return Status::Corruption("block entry offset out of range");
  b->packed_ = b->entries_end_ <= 0xffff;
  // Keys are sorted, so the prefix shared by the first and the last is shared by all.
  BlockEntry first, last;
  if (!b->Decode(0, &first) || !b->Decode(n - 1, &last)) return Status::Corruption("malformed block entry");
  size_t common = 0;
  while (common < first.key.size() && common < last.key.size() && first.key[common] == last.key[common]) ++common;
  if (common <= sizeof(b->prefix_)) {
    std::memcpy(b->prefix_, first.key.data(), common);
    b->common_ = std::string_view(b->prefix_, common);
  } else {
    b->common_ = first.key.substr(0, common);
  }
  // Every entry is validated here; when packed, its offset slot (in the block's own bytes, so it
  // holds no more memory than them; or in its copy of the array) gets the window in its high half.
  // Not in place: there the Block is a small descriptor (4 bytes per entry) and the cells would
  // double it, for the index blocks too, which only scans read.
  b->num_cells_ = CellsFor(b->in_place_, n, b->entries_end_);
  const bool hashed = b->num_cells_ != 0;
  uint16_t* cells = nullptr;
  if (hashed) {
    cells = const_cast<uint16_t*>(CellsOf(b));  // allocated with the block by Parse
    std::fill(cells, cells + b->num_cells_, kEmptyCell);
  }
  BlockEntry e;
  std::string_view prev_key;
  bool contiguous = true;
  uint32_t expected_offset = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!b->Decode(i, &e)) return Status::Corruption("malformed block entry");
    contiguous = contiguous && b->Offset(i) == expected_offset;
    expected_offset = b->OffsetAfter(e);
    if (b->packed_) {
      auto window = static_cast<uint32_t>(KeyWindow(e.key, common) >> 48);
      EncodeFixed32(b->slots_ + 4 * static_cast<size_t>(i), window << 16 | b->Offset(i));
    }
    if (hashed && (i == 0 || !KeyEqual(e.key, prev_key))) {  // a key's first entry is its newest
      const uint64_t mixed = MixHash(Hash64(e.key));
      uint32_t c = HomeCell(mixed, b->num_cells_);
      while (cells[c] != kEmptyCell) c = c + 1 == b->num_cells_ ? 0 : c + 1;
      cells[c] = static_cast<uint16_t>(Fingerprint(mixed) | b->Offset(i));
    }
    prev_key = e.key;
  }
  b->cells_ = cells;
  b->contiguous_ = contiguous && expected_offset == b->entries_end_;
  return Status::Ok();
}

bool Block::FindNewest(const Block* b, uint32_t num_cells, std::string_view key, uint64_t hash, BlockEntry* e,
                       bool* corrupt) {
  const uint64_t mixed = MixHash(hash);
  const uint16_t fp = Fingerprint(mixed);
  const uint16_t* cells = CellsOf(b);
  const char* base = BytesOf(b, num_cells);
  // At most half the cells are full, so a probe run ends at an empty one.
  for (uint32_t c = HomeCell(mixed, num_cells);; c = c + 1 == num_cells ? 0 : c + 1) {
    const uint16_t cell = cells[c];
    if (cell == kEmptyCell) return false;
    if ((cell & 0xf000) != fp) continue;
    if (!DecodeEntry(base, b->entries_end_, cell & 0xfff, e)) {
      *corrupt = true;
      return false;
    }
    if (KeyEqual(e->key, key)) return true;
  }
}

uint32_t Block::LowerBound(std::string_view target, bool* corrupt) const {
  // Outside the shared prefix, the target is below or above every key.
  const size_t c = common_.size();
  int cmp = CompareKeys(target.substr(0, c), common_);
  if (cmp < 0 || (cmp == 0 && target.size() < c)) return 0;
  if (cmp > 0) return n_;
  const uint32_t w = packed_ ? static_cast<uint32_t>(KeyWindow(target, c) >> 48) : 0;
  auto window = [this](uint32_t i) { return packed_ ? Slot(i) >> 16 : 0; };
  uint32_t lo = 0, hi = n_;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (window(mid) < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  // Entries whose window equals the target's may still be below it: search those on full keys.
  uint32_t end = lo;
  for (hi = n_; end < hi;) {
    uint32_t mid = end + (hi - end) / 2;
    if (window(mid) <= w)
      end = mid + 1;
    else
      hi = mid;
  }
  // The entry the search most likely lands on (a point read then copies its value): all its lines now.
  PrefetchEntry(lo);
  BlockEntry e;
  while (lo < end) {
    uint32_t mid = lo + (end - lo) / 2;
    if (!Decode(mid, &e)) {
      *corrupt = true;
      return n_;
    }
    if (KeyLess(e.key, target))
      lo = mid + 1;
    else
      end = mid;
  }
  return lo;
}

}  // namespace dbx
