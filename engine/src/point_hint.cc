#include "src/point_hint.h"

#include "src/key_compare.h"
#include "src/mem_table.h"
#include "src/prefetch.h"

namespace dbx {

void PointHint::Set(std::string_view entries, const Block& b) {
  const uint32_t n = b.size();
  const uint32_t end = b.entries_end();
  constexpr uintptr_t kPage = 4096;
  if (n == 0 || n > kMaxEntries || !b.contiguous() || end > 0xffff ||
      reinterpret_cast<uintptr_t>(entries.data()) % kPage + end > kPage)
    return;
  uint64_t packed = n | static_cast<uint64_t>(end) << 16;
  for (uint32_t i = 1; i < n; ++i) packed |= static_cast<uint64_t>(b.OffsetOf(i)) << (16 + 16 * i);
  base_.store(entries.data(), std::memory_order_relaxed);
  packed_.store(packed, std::memory_order_release);
}

PointHint::Outcome PointHint::Search(std::string_view key, uint64_t snapshot, Lookup* result, std::string* value,
                                     uint64_t* seq) const {
  const uint64_t packed = packed_.load(std::memory_order_acquire);
  if (packed == 0) return Outcome::kNoHint;
  const char* base = base_.load(std::memory_order_relaxed);
  const uint32_t n = packed & 0xffff;
  const uint32_t end = (packed >> 16) & 0xffff;
  uint32_t offsets[kMaxEntries] = {0, static_cast<uint32_t>((packed >> 32) & 0xffff),
                                   static_cast<uint32_t>(packed >> 48)};
  for (uint32_t i = 0; i < n; ++i) PrefetchLine(base + offsets[i]);  // their misses at once
  // Entries are sorted by key, newest version first: the first entry of the key at or below the
  // snapshot decides, as the lower bound and the version walk of SearchBlock do.
  BlockEntry e;
  for (uint32_t i = 0; i < n; ++i) {
    if (!Block::DecodeEntry(base, end, offsets[i], &e)) return Outcome::kCorrupt;
    const int c = CompareKeys(e.key, key);
    if (c < 0) continue;
    if (c > 0) break;
    if (TagSeq(e.tag) > snapshot) continue;
    *result = TagType(e.tag) == ValueType::kPut ? Lookup::kValue : Lookup::kDeleted;
    if (*result == Lookup::kValue && value != nullptr) value->assign(e.value);
    if (seq != nullptr) *seq = TagSeq(e.tag);
    return Outcome::kDone;
  }
  *result = Lookup::kAbsent;
  return Outcome::kDone;
}

}  // namespace dbx
