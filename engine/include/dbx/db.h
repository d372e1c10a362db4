// dbx::DB: an embedded, ordered key-value store after DBX's 5-tier hybrid storage: a concurrent
// delta store (hash + skiplist, MVCC versions), a columnar cache for scans, a write-optimised
// in-memory store (WOS), per-segment sparse indexes and bloom filters, and immutable on-disk
// read-optimised segments (ROS) with a block cache and background compaction. A write-ahead log and
// an atomically replaced manifest make acknowledged writes survive crashes (see Durability).
//
// Thread-safety: every method may be called concurrently from many threads, except Close() and
// destruction, which require that no other call is in progress and that every Iterator and
// Transaction is gone. Reads see a consistent snapshot.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "dbx/iterator.h"
#include "dbx/options.h"
#include "dbx/status.h"
#include "dbx/transaction.h"
#include "dbx/write_batch.h"

namespace dbx {

/// A consistent point-in-time view, released with DB::ReleaseSnapshot.
class Snapshot {
 public:
  uint64_t sequence() const { return sequence_; }

 protected:
  explicit Snapshot(uint64_t sequence) : sequence_(sequence) {}
  ~Snapshot() = default;

 private:
  uint64_t sequence_;
};

/// What each tier holds, for tests and reports.
struct DbStats {
  uint64_t last_sequence = 0;
  uint64_t live_keys = 0;
  uint64_t delta_entries = 0;    ///< versions in the active delta store
  uint64_t frozen_deltas = 0;    ///< delta stores waiting to be merged into the WOS
  uint64_t wos_entries = 0;      ///< versions in the WOS
  uint64_t frozen_wos = 0;       ///< WOS instances being written to segments
  uint64_t segments = 0;         ///< live segment files
  uint64_t segment_entries = 0;  ///< versions in segments
  uint64_t flushes = 0;          ///< segments written from the WOS
  uint64_t compactions = 0;
  uint64_t columnar_cache_builds = 0;
  /// Full scans that built no columnar cache because the last build ran out of room (see README).
  uint64_t columnar_cache_skips = 0;
  /// Times the background thread handed freed heap back to the OS (Options::release_freed_memory).
  uint64_t memory_releases = 0;
  uint64_t block_cache_hits = 0;
  uint64_t block_cache_misses = 0;
  uint64_t wal_syncs = 0;

  // Memory held per tier, in bytes (README "Memory model"). The write tiers are the first four.
  uint64_t delta_bytes = 0;              ///< the active delta store
  uint64_t frozen_delta_bytes = 0;       ///< delta stores waiting to be merged into the WOS
  uint64_t wos_bytes = 0;                ///< the WOS
  uint64_t frozen_wos_bytes = 0;         ///< the WOS being written as a segment
  uint64_t write_buffer_peak_bytes = 0;  ///< largest sum of the four above seen since Open
  uint64_t write_stalls = 0;             ///< commits that waited for flushing (backpressure)
  uint64_t columnar_cache_bytes = 0;     ///< the current columnar cache
  uint64_t block_cache_bytes = 0;        ///< decompressed blocks in the block cache
  uint64_t segment_index_bytes = 0;      ///< sparse indexes and bloom filters of live segments
  uint64_t compaction_peak_bytes = 0;    ///< largest compaction buffer use since Open: output writer
                                         ///< (block, index, bloom) plus one block per input
};

class DB {
 public:
  /// Opens (creating when allowed) the database in `dir`, replaying its WAL. The directory is
  /// locked against other DB instances (Busy). On success *db is set.
  static Status Open(const Options& options, const std::string& dir, std::unique_ptr<DB>* db);

  DB() = default;
  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;
  /// Closes the database if Close() was not called.
  virtual ~DB() = default;

  virtual Status Put(const WriteOptions& options, std::string_view key, std::string_view value) = 0;
  /// Deleting an absent key is OK.
  virtual Status Delete(const WriteOptions& options, std::string_view key) = 0;
  /// Applies the batch atomically. The batch is not modified.
  virtual Status Write(const WriteOptions& options, const WriteBatch& batch) = 0;
  /// NotFound when the key is absent.
  virtual Status Get(const ReadOptions& options, std::string_view key, std::string* value) = 0;

  /// An iterator over a consistent snapshot. Destroy it before Close().
  virtual std::unique_ptr<Iterator> NewIterator(const ReadOptions& options) = 0;

  /// Calls visitor(key, value) for keys in [start, end) in ascending order (an empty `end` means no
  /// upper bound), at most `limit` of them (0 = no limit), until the visitor returns false.
  /// The views are valid only during the call. The visitor must not write to this DB.
  template <typename Visitor>
  Status Scan(const ReadOptions& options, std::string_view start, std::string_view end, uint64_t limit,
              Visitor&& visitor) {
    using V = std::remove_reference_t<Visitor>;
    return ScanWith(
        options, start, end, limit,
        [](void* ctx, std::string_view k, std::string_view v) -> bool { return (*static_cast<V*>(ctx))(k, v); },
        const_cast<void*>(static_cast<const void*>(&visitor)));
  }
  using ScanFunction = bool (*)(void* ctx, std::string_view key, std::string_view value);
  virtual Status ScanWith(const ReadOptions& options, std::string_view start, std::string_view end, uint64_t limit,
                          ScanFunction fn, void* ctx) = 0;

  /// The exact number of live keys. O(1) for the latest state; a full scan for an older snapshot.
  virtual Status Count(const ReadOptions& options, uint64_t* count) = 0;

  /// A snapshot of the latest committed state; versions it needs are kept until it is released.
  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  /// Starts a transaction on a snapshot of the latest state.
  virtual std::unique_ptr<Transaction> BeginTransaction(const WriteOptions& options) = 0;

  /// Writes everything held in memory to segment files and waits until it is durable.
  virtual Status Flush() = 0;
  /// Flushes, then merges all segments into one, dropping versions and tombstones no snapshot needs.
  virtual Status Compact() = 0;
  /// Blocks until no flush or compaction is queued or running (frozen delta stores merged, no WOS due
  /// for a segment, no compaction the trigger asks for). Writes that arrive meanwhile may extend the
  /// wait. Returns the background error, if any; InvalidArgument after Close().
  virtual Status WaitForIdle() = 0;
  /// Flushes, stops background work and releases the directory. Later calls return InvalidArgument.
  virtual Status Close() = 0;

  virtual DbStats GetStats() = 0;
  /// The options the database runs with: as validated at Open, every kAuto size resolved.
  virtual const Options& GetOptions() const = 0;
};

}  // namespace dbx
