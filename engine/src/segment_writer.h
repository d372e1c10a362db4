// Writes one segment file (see segment_format.h) from versions given in (key asc, seq desc) order.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "dbx/options.h"
#include "src/block.h"
#include "src/block_cache.h"
#include "src/bloom.h"
#include "src/env.h"
#include "src/segment_format.h"

namespace dbx {

class SegmentWriter {
 public:
  /// `expected_keys` (an upper bound on distinct keys, 0 = unknown) sizes the bloom filter up front,
  /// so that building it holds ~bits_per_key/8 bytes per key instead of every key's hash.
  SegmentWriter(const Options& options, std::unique_ptr<WritableFile> file, uint64_t expected_keys = 0);
  /// Puts the blocks written from now on that are stored compressed, decoded, into `cache` under
  /// `cache_id` (the id the segment's reader will be opened with): a segment written from memory (a
  /// flush) is read at memory speed right away, instead of one block miss and decode at a time.
  /// Blocks stored raw are not copied: readers search them in place in the mapped file.
  void WarmCache(std::shared_ptr<BlockCache> cache, uint64_t cache_id) {
    cache_ = std::move(cache);
    cache_id_ = cache_id;
  }
  /// REQUIRES: (key, seq) strictly after the previous entry in (key asc, seq desc) order.
  /// After a write error (status() not OK) entries are dropped: nothing more is buffered.
  void Add(std::string_view key, uint64_t tag, std::string_view value);
  /// The first write error, if any (Finish returns it too).
  const Status& status() const { return status_; }
  /// Writes filter, index, meta and footer, then fsyncs and closes the file.
  Status Finish();
  const SegmentMeta& meta() const { return meta_; }
  uint64_t file_size() const { return file_->size(); }
  /// Bytes held in memory: the open block, the index and bloom filter under construction, buffers.
  size_t MemoryUsage() const;

 private:
  void FlushBlock();
  Status WriteStored(std::string_view payload, Compression type, BlockHandle* handle);
  // Pads the file to the next page boundary when a block of `stored` bytes written at its end would
  // touch more pages than it needs (see segment_format.h).
  Status AlignFor(size_t stored);

  Compression compression_;
  size_t block_size_;
  std::unique_ptr<WritableFile> file_;
  BlockBuilder block_;
  BloomBuilder bloom_;
  std::string index_;
  std::string last_key_;
  std::string scratch_;
  std::shared_ptr<BlockCache> cache_;  // null: WarmCache not called
  uint64_t cache_id_ = 0;
  SegmentMeta meta_;
  Status status_;
};

}  // namespace dbx
