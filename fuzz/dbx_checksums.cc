#include "fuzz/dbx_checksums.h"

#include <string_view>

#include "src/coding.h"
#include "src/crc32c.h"
#include "src/segment_format.h"
#include "src/wal.h"

namespace dbx::fuzz {
namespace {

// Rewrites the trailer CRC of the block at [offset, offset + size) when it lies inside *file.
// Returns the block's payload (without trailer) when its compression byte says "none".
std::string_view RepairBlock(std::string* file, uint64_t offset, uint32_t size, bool* uncompressed) {
  *uncompressed = false;
  if (size < kBlockTrailer || offset > file->size() || size > file->size() - offset) return {};
  char* p = file->data() + offset;
  size_t n = size - kBlockTrailer;
  EncodeFixed32(p + n + 1, crc32c::Mask(crc32c::Value(p, n + 1)));
  *uncompressed = p[n] == 0;
  return std::string_view(p, n);
}

}  // namespace

void RepairWalChecksums(std::string* wal) {
  size_t pos = 0;
  while (wal->size() - pos >= kWalHeader) {
    uint32_t len = DecodeFixed32(wal->data() + pos + 4);
    if (len == 0 || len > wal->size() - pos - kWalHeader) return;
    uint32_t crc = crc32c::Value(wal->data() + pos + 4, 4 + static_cast<size_t>(len));
    EncodeFixed32(wal->data() + pos, crc32c::Mask(crc));
    pos += kWalHeader + len;
  }
}

void RepairSegmentChecksums(std::string* segment) {
  if (segment->size() < kFooterSize) return;
  char* footer = segment->data() + segment->size() - kFooterSize;
  EncodeFixed32(footer + 44, crc32c::Mask(crc32c::Value(footer, 44)));
  bool plain = false;
  // filter, index, meta: three handles of 12 bytes at the start of the footer.
  RepairBlock(segment, DecodeFixed64(footer), DecodeFixed32(footer + 8), &plain);
  RepairBlock(segment, DecodeFixed64(footer + 24), DecodeFixed32(footer + 32), &plain);
  std::string_view index = RepairBlock(segment, DecodeFixed64(footer + 12), DecodeFixed32(footer + 20), &plain);
  if (!plain) return;
  std::string copy(index);  // the data blocks may overlap the index block: walk a copy
  std::string_view in = copy;
  std::string_view key;
  uint64_t offset;
  uint32_t size;
  while (GetLengthPrefixed(&in, &key) && GetFixed64(&in, &offset) && GetFixed32(&in, &size))
    RepairBlock(segment, offset, size, &plain);
}

}  // namespace dbx::fuzz
