#include "src/compression.h"

#include <lz4.h>
#include <zstd.h>

#include "src/coding.h"

namespace dbx {
namespace {

// zstd contexts are expensive to create (they allocate and clear large tables): one per thread.
struct ZstdContexts {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ~ZstdContexts() {
    ZSTD_freeCCtx(c);
    ZSTD_freeDCtx(d);
  }
};
ZstdContexts& Zstd() {
  thread_local ZstdContexts ctx;
  return ctx;
}
}  // namespace

const char* CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kLz4:
      return "lz4";
    case Compression::kZstd:
      return "zstd";
  }
  return "unknown";
}

bool CompressBlock(Compression type, std::string_view raw, std::string* out) {
  size_t at = out->size();
  PutVarint64(out, raw.size());
  size_t header = out->size() - at;
  if (type == Compression::kLz4) {
    int bound = LZ4_compressBound(static_cast<int>(raw.size()));
    out->resize(at + header + bound);
    int n = LZ4_compress_default(raw.data(), out->data() + at + header, static_cast<int>(raw.size()), bound);
    if (n <= 0) {
      out->resize(at);
      return false;
    }
    out->resize(at + header + n);
  } else if (type == Compression::kZstd) {
    size_t bound = ZSTD_compressBound(raw.size());
    out->resize(at + header + bound);
    size_t n = ZSTD_compressCCtx(Zstd().c, out->data() + at + header, bound, raw.data(), raw.size(), 3);
    if (ZSTD_isError(n)) {
      out->resize(at);
      return false;
    }
    out->resize(at + header + n);
  } else {
    out->resize(at);
    return false;
  }
  if (out->size() - at >= raw.size() - raw.size() / 8) {  // saves less than 12.5%: store raw
    out->resize(at);
    return false;
  }
  return true;
}

Status UncompressBlock(Compression type, std::string_view stored, std::string* out) {
  uint64_t raw_size;
  if (!GetVarint64(&stored, &raw_size) || raw_size > kMaxCompressedBlockBytes)
    return Status::Corruption("bad compressed block header");
  out->resize(raw_size);
  if (type == Compression::kLz4) {
    int n =
        LZ4_decompress_safe(stored.data(), out->data(), static_cast<int>(stored.size()), static_cast<int>(raw_size));
    if (n < 0 || static_cast<uint64_t>(n) != raw_size) return Status::Corruption("bad lz4 block");
    return Status::Ok();
  }
  if (type == Compression::kZstd) {
    size_t n = ZSTD_decompressDCtx(Zstd().d, out->data(), raw_size, stored.data(), stored.size());
    if (ZSTD_isError(n) || n != raw_size) return Status::Corruption("bad zstd block");
    return Status::Ok();
  }
  return Status::Corruption("unknown block compression");
}

}  // namespace dbx
