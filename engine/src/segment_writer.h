// Writes one segment file (see segment_format.h) from versions given in (key asc, seq desc) order.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "dbx/options.h"
#include "src/block.h"
#include "src/bloom.h"
#include "src/env.h"
#include "src/segment_format.h"

namespace dbx {

class SegmentWriter {
 public:
  /// `expected_keys` (an upper bound on distinct keys, 0 = unknown) sizes the bloom filter up front,
  /// so that building it holds ~bits_per_key/8 bytes per key instead of every key's hash.
  SegmentWriter(const Options& options, std::unique_ptr<WritableFile> file, uint64_t expected_keys = 0);
  /// REQUIRES: (key, seq) strictly after the previous entry in (key asc, seq desc) order.
  void Add(std::string_view key, uint64_t tag, std::string_view value);
  /// Writes filter, index, meta and footer, then fsyncs and closes the file.
  Status Finish();
  const SegmentMeta& meta() const { return meta_; }
  uint64_t file_size() const { return file_->size(); }
  /// Bytes held in memory: the open block, the index and bloom filter under construction, buffers.
  size_t MemoryUsage() const;

 private:
  void FlushBlock();
  Status WriteStored(std::string_view payload, Compression type, BlockHandle* handle);

  Compression compression_;
  size_t block_size_;
  std::unique_ptr<WritableFile> file_;
  BlockBuilder block_;
  BloomBuilder bloom_;
  std::string index_;
  std::string last_key_;
  std::string scratch_;
  SegmentMeta meta_;
  Status status_;
};

}  // namespace dbx
