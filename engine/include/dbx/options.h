// Options of a DBX database, and of single reads and writes. Defaults follow DBX's "5-Tier Hybrid
// Storage": a 10,000-entry delta store, a WOS flushed to read-optimised segments, a block cache.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dbx {

class Snapshot;

/// What a successful write promises to survive.
enum class Durability {
  kNone,    ///< No write-ahead log: data is durable only after Flush(), Compact() or Close().
  kNormal,  ///< WAL written on every commit, fsynced in the background every wal_sync_interval_ms.
            ///< A power loss may drop the last moments of commits but never leaves a partial one.
  kFull,    ///< A commit returns only after its WAL record is fsynced (group commit shares fsyncs).
};

/// Per-block compression of segment files.
enum class Compression { kNone, kLz4, kZstd };

const char* DurabilityName(Durability d);
const char* CompressionName(Compression c);

struct Options {
  /// What a commit must survive (see Durability).
  Durability durability = Durability::kNormal;
  /// Create the directory and an empty database when missing.
  bool create_if_missing = true;
  /// Fail Open with InvalidArgument when the directory already holds a database.
  bool error_if_exists = false;

  /// Tier 1: versions the delta store holds before it is frozen and flushed into the WOS.
  size_t delta_flush_entries = 10000;
  /// Tier 3: bytes of the WOS (write-optimised store) before it is frozen and written as a segment.
  /// Everything below this stays in hashed, in-memory form (about 90 bytes per small record).
  size_t wos_flush_bytes = 128u << 20;
  /// Tier 2: largest columnar cache built for full scans; 0 disables it.
  size_t columnar_cache_bytes = 256u << 20;

  /// Tier 5: target uncompressed size of a segment data block.
  size_t block_size = 4096;
  /// Tier 5: capacity of the shared block cache (decompressed blocks), in bytes.
  size_t block_cache_bytes = 64u << 20;
  /// Tier 5: compression of segment data blocks.
  Compression compression = Compression::kLz4;
  /// Tier 4: bloom filter bits per key (about 1% false positives at 10). 0 disables the filters.
  int bloom_bits_per_key = 10;
  /// Background compaction merges all segments once there are this many.
  int compaction_trigger = 4;

  /// kNormal only: interval of the background WAL fsync.
  uint32_t wal_sync_interval_ms = 100;
};

struct ReadOptions {
  /// Read as of this snapshot (from DB::GetSnapshot); nullptr reads the latest committed state.
  const Snapshot* snapshot = nullptr;
};

struct WriteOptions {
  // Durability is a property of the database (Options::durability); nothing to set per write yet.
};

}  // namespace dbx
