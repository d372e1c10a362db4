// Options of a DBX database, and of single reads and writes. Defaults follow DBX's "5-Tier Hybrid
// Storage": a 10,000-entry delta store, a WOS flushed to read-optimised segments, a block cache.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dbx {

class Env;
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
  /// Every file and directory operation goes through this (engine-internal interface, src/env.h);
  /// nullptr is the POSIX file system. Tests pass a fault-injecting one. Not owned; must outlive the DB.
  Env* env = nullptr;

  /// Memory the engine may hold for its own tiers, in bytes; 0 = no budget. When set, every size
  /// below left at kAuto is derived from it (README "Memory model"): block cache 1/4, columnar cache
  /// 1/8, WOS flush size 1/8, delta store 1/32, and writers stall while the in-memory write tiers
  /// (delta stores and WOS, including one being written) hold more than 1/2 of it. Explicit sizes win.
  /// Not covered: segment indexes and bloom filters (about 2 bytes per key, see README), the caller's
  /// own buffers, and the kernel's page cache.
  size_t memory_budget_bytes = 0;
  /// A size left at kAuto is derived: from memory_budget_bytes when it is set, else the default noted.
  static constexpr size_t kAuto = ~size_t{0};

  /// Tier 1: versions the delta store holds before it is frozen and flushed into the WOS.
  size_t delta_flush_entries = 10000;
  /// Tier 1: bytes of the delta store before it is frozen (whichever limit comes first); 0 = none.
  /// kAuto: no byte limit without a budget.
  size_t delta_flush_bytes = kAuto;
  /// Tier 3: bytes of the WOS (write-optimised store) before it is frozen and written as a segment.
  /// Everything below this stays in hashed, in-memory form (about 90 bytes per small record).
  /// kAuto: 128 MiB without a budget.
  size_t wos_flush_bytes = kAuto;
  /// Writers stall (backpressure) while the frozen delta stores, the WOS and the WOS being written
  /// hold more than this many bytes, until background flushing catches up; 0 = never stall.
  /// kAuto: 4 x wos_flush_bytes without a budget.
  size_t write_buffer_limit_bytes = kAuto;
  /// Tier 2: largest columnar cache built for full scans; 0 disables it. kAuto: 256 MiB without a budget.
  size_t columnar_cache_bytes = kAuto;

  /// Tier 5: the most a segment data block takes uncompressed, its 5-byte trailer included (a block
  /// holds at least one key, and all of a key's versions, so it may take more). Blocks stored
  /// uncompressed are laid out not to straddle a 4 KiB page boundary they fit within: at 4096, a
  /// block read from the mapped file is one page.
  size_t block_size = 4096;
  /// Tier 5: capacity of the shared block cache (decompressed blocks), in bytes; 0 disables it.
  /// kAuto: 64 MiB without a budget.
  size_t block_cache_bytes = kAuto;
  /// Tier 5: compression of segment data blocks.
  Compression compression = Compression::kLz4;
  /// Tier 4: bloom filter bits per key (about 1% false positives at 10). 0 disables the filters.
  int bloom_bits_per_key = 10;
  /// Background compaction starts once there are this many segments. It merges the newest run of
  /// segments of similar size (each older one at most twice the newer ones together), so that data
  /// is rewritten O(log n) times; Compact() merges all of them.
  int compaction_trigger = 4;
  /// Segment files are handed to the disk (sync_file_range) every this many bytes while they are
  /// written, so that their dirty page cache stays near this size instead of growing with the
  /// segment (a cgroup memory limit charges dirty pages); 0 = write back only at the final fsync.
  /// kAuto: 1 MiB with a budget, 0 without.
  size_t bytes_per_sync = kAuto;
  /// After each WOS flush and each compaction it runs, the background thread hands the heap memory freed by
  /// them (the flushed write buffer, the compaction's buffers) back to the OS (glibc's malloc_trim).
  /// glibc keeps freed memory in its per-thread arenas otherwise, still resident and, under a cgroup
  /// memory limit, still charged: measured at 1 GiB, ~500 MiB of it, which the OS page cache then
  /// lacks. Without glibc, nothing is done.
  bool release_freed_memory = true;

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
