#include "src/segment_writer.h"

#include "src/compression.h"
#include "src/crc32c.h"
#include "src/hash.h"
#include "src/mem_table.h"

namespace dbx {
namespace {
// Block handles and in-block offsets are 32-bit.
constexpr size_t kMaxStoredBlockBytes = 0xffffffffu - kBlockTrailer - 1024;
}  // namespace

SegmentWriter::SegmentWriter(const Options& options, std::unique_ptr<WritableFile> file, uint64_t expected_keys)
    : compression_(options.compression),
      block_size_(options.block_size),
      file_(std::move(file)),
      bloom_(options.bloom_bits_per_key, expected_keys) {
  if (options.bytes_per_sync != Options::kAuto) file_->SetBytesPerSync(options.bytes_per_sync);
}

size_t SegmentWriter::MemoryUsage() const {
  return block_.EstimatedSize() + bloom_.MemoryUsage() + index_.capacity() + scratch_.capacity() + 64 * 1024;
}

Status SegmentWriter::WriteStored(std::string_view payload, Compression type, BlockHandle* handle) {
  if (payload.size() > kMaxStoredBlockBytes)
    return Status::NotSupported(file_->path() + ": a block of " + std::to_string(payload.size()) +
                                " bytes (one key's versions) exceeds the segment format's 4 GiB limit");
  handle->offset = file_->size();
  handle->size = static_cast<uint32_t>(payload.size() + kBlockTrailer);
  char trailer[kBlockTrailer];
  trailer[0] = static_cast<char>(type);
  uint32_t crc = crc32c::Extend(crc32c::Value(payload.data(), payload.size()), trailer, 1);
  EncodeFixed32(trailer + 1, crc32c::Mask(crc));
  DBX_RETURN_IF_ERROR(file_->Append(payload));
  return file_->Append(std::string_view(trailer, kBlockTrailer));
}

Status SegmentWriter::AlignFor(size_t stored) {
  static const std::string zeros(kSegmentPageBytes, '\0');
  const uint64_t in_page = file_->size() % kSegmentPageBytes;
  const uint64_t pages = (stored + kSegmentPageBytes - 1) / kSegmentPageBytes;
  if (in_page == 0 || in_page + stored <= pages * kSegmentPageBytes) return Status::Ok();
  return file_->Append(std::string_view(zeros).substr(0, kSegmentPageBytes - in_page));
}

void SegmentWriter::FlushBlock() {
  if (block_.empty()) return;
  std::string raw = block_.Finish();  // resets the builder, also after an error
  if (!status_.ok()) return;
  BlockHandle h;
  scratch_.clear();
  // A block over the reader's decoded-size limit is stored raw: compressed it could not be read back
  // (blocks are cut only between keys, so one key's versions can make a block of any size).
  // Only raw blocks are aligned: they are the ones searched in place in the mapped file (a
  // compressed block is decoded into the block cache once per miss, and padding it would cost
  // space for a saving of one page read at most).
  const bool compressed = compression_ != Compression::kNone && raw.size() <= kMaxCompressedBlockBytes &&
                          CompressBlock(compression_, raw, &scratch_);
  if (compressed) {
    status_ = WriteStored(scratch_, compression_, &h);
  } else {
    status_ = AlignFor(raw.size() + kBlockTrailer);
    if (status_.ok()) status_ = WriteStored(raw, Compression::kNone, &h);
  }
  PutLengthPrefixed(&index_, last_key_);
  PutFixed64(&index_, h.offset);
  PutFixed32(&index_, h.size);
  // Only decoded blocks are worth a cache slot: a block stored raw is read in place from the mapped
  // file (whose pages this write just put in the page cache), so an owned copy would never be read
  // while its segment has room for descriptors, and would hold memory the page cache could use.
  if (status_.ok() && cache_ != nullptr && compressed) {
    std::shared_ptr<const Block> b;
    if (Block::Parse(raw, &b).ok()) cache_->Insert(cache_id_, h.offset, std::move(b));
  }
}

void SegmentWriter::Add(std::string_view key, uint64_t tag, std::string_view value) {
  if (!status_.ok()) return;  // the file is unusable: buffering the rest would only fill memory
  bool new_key = meta_.entries == 0 || key != last_key_;
  // Cut blocks only between keys, so that one block read answers a point lookup, and before the
  // entry that would take the stored block past block_size: a block of block_size = one page, when
  // stored raw, then fits in the page it is aligned to.
  if (new_key && !block_.empty() &&
      block_.EstimatedSize() + BlockBuilder::EntrySize(key, value) + kBlockTrailer > block_size_)
    FlushBlock();
  block_.Add(key, tag, value);
  if (new_key) {
    bloom_.AddHash(Hash64(key));
    meta_.keys++;
    if (meta_.entries == 0) meta_.smallest.assign(key);
    last_key_.assign(key);
  }
  uint64_t seq = TagSeq(tag);
  if (meta_.entries == 0 || seq < meta_.min_seq) meta_.min_seq = seq;
  if (seq > meta_.max_seq) meta_.max_seq = seq;
  meta_.entries++;
}

Status SegmentWriter::Finish() {
  FlushBlock();
  meta_.largest = last_key_;
  SegmentFooter footer;
  if (status_.ok()) status_ = WriteStored(bloom_.Finish(), Compression::kNone, &footer.filter);
  if (status_.ok()) status_ = WriteStored(index_, Compression::kNone, &footer.index);
  if (status_.ok()) status_ = WriteStored(meta_.Encode(), Compression::kNone, &footer.meta);
  if (status_.ok()) status_ = file_->Append(footer.Encode());
  if (status_.ok()) status_ = file_->Sync();
  Status c = file_->Close();
  if (status_.ok()) status_ = c;
  return status_;
}

}  // namespace dbx
