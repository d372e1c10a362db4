// Per-block compression of segment files (lz4 or zstd from the system libraries).
#pragma once

#include <string>
#include <string_view>

#include "dbx/options.h"
#include "dbx/status.h"

namespace dbx {

/// The largest decoded size UncompressBlock accepts (a sanity bound against damaged headers);
/// writers store larger blocks uncompressed.
constexpr uint64_t kMaxCompressedBlockBytes = 64u << 20;

/// Appends the stored form of `raw` to *out: a varint raw size then the compressed bytes.
/// Returns false when compression failed or did not pay (the caller then stores raw).
bool CompressBlock(Compression type, std::string_view raw, std::string* out);
/// Inverse of CompressBlock. Corruption on malformed input; never reads out of bounds.
Status UncompressBlock(Compression type, std::string_view stored, std::string* out);

}  // namespace dbx
