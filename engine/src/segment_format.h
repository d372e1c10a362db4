// On-disk layout of a segment (tier 5, ROS) file, "NNNNNN.seg":
//
//   data block 0 .. data block n-1      sorted (key asc, seq desc); a key's versions never span blocks
//   filter block                        bloom filter over the user keys
//   index block                         per data block: last key, offset, stored size
//   meta block                          counts, sequence range, smallest and largest key
//   footer (kFooterSize bytes)          handles of filter/index/meta, magic, CRC of the footer
//
// Every block is stored as   payload | compression type (1) | masked crc32c of payload+type (4).
//
// Blocks are found only through the handles in the index and footer, so bytes between two blocks
// belong to none. The writer uses that to lay out data blocks stored uncompressed so that none
// touches more kSegmentPageBytes pages than its size needs: when a block would straddle a page
// boundary it could have fit within, zeros pad the file to that boundary first (as RocksDB's
// block_align). A mapped read of such a block faults in one page, where an unaligned 4 KiB block
// touches two. Files written before this are read the same way (their blocks are just unaligned).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dbx/status.h"
#include "src/coding.h"

namespace dbx {

constexpr uint64_t kSegmentMagic = 0x3147455358424400ull;  // "\0DBXSEG1" little-endian-ish tag
constexpr size_t kBlockTrailer = 5;
constexpr size_t kFooterSize = 3 * 12 + 8 + 4;
/// The page the writer aligns uncompressed data blocks to (the OS page of the mapped reads).
constexpr uint64_t kSegmentPageBytes = 4096;

struct BlockHandle {
  uint64_t offset = 0;
  uint32_t size = 0;  // stored size including the trailer
};

struct SegmentFooter {
  BlockHandle filter, index, meta;

  std::string Encode() const;
  /// Corruption on a bad magic or CRC.
  static Status Decode(std::string_view in, SegmentFooter* out);
};

struct SegmentMeta {
  uint64_t entries = 0;  ///< versions, tombstones included
  uint64_t keys = 0;     ///< distinct user keys
  uint64_t min_seq = 0, max_seq = 0;
  std::string smallest, largest;

  std::string Encode() const;
  static Status Decode(std::string_view in, SegmentMeta* out);
};

}  // namespace dbx
