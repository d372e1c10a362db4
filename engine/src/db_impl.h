// DBImpl: the engine behind dbx::DB. Its work is split by concern:
//   db_impl.cc        reads (Get, Scan, iterators, Count, snapshots), SuperVersion installation
//   db_write.cc       the commit pipeline: writer queue, group commit, WAL, conflict checks, apply
//   db_background.cc  background thread: delta -> WOS merges, WOS -> segment flushes, compaction,
//                     WAL fsync at intervals (Durability::kNormal), obsolete-file deletion
//   db_open.cc        Open, recovery (manifest + WAL replay), Close
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "dbx/db.h"
#include "src/block_cache.h"
#include "src/columnar_cache.h"
#include "src/env.h"
#include "src/epoch.h"
#include "src/manifest.h"
#include "src/memory_budget.h"
#include "src/mutex.h"
#include "src/super_version.h"
#include "src/wal.h"

namespace dbx {

class DBImpl final : public DB {
 public:
  DBImpl(const Options& options, std::string dir);
  ~DBImpl() override;

  Status Put(const WriteOptions& o, std::string_view key, std::string_view value) override;
  Status Delete(const WriteOptions& o, std::string_view key) override;
  Status Write(const WriteOptions& o, const WriteBatch& batch) override;
  Status Get(const ReadOptions& o, std::string_view key, std::string* value) override;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& o) override;
  Status ScanWith(const ReadOptions& o, std::string_view start, std::string_view end, uint64_t limit, ScanFunction fn,
                  void* ctx) override;
  Status Count(const ReadOptions& o, uint64_t* count) override;
  const Snapshot* GetSnapshot() override;
  void ReleaseSnapshot(const Snapshot* snapshot) override;
  std::unique_ptr<Transaction> BeginTransaction(const WriteOptions& o) override;
  Status Flush() override;
  Status Compact() override;
  Status WaitForIdle() override;
  Status Close() override;
  DbStats GetStats() override;
  const Options& GetOptions() const override { return options_; }

  /// Opening and recovery (db_open.cc).
  Status Recover();

  /// Tests only: while paused, the background thread starts no new work (merges, flushes,
  /// compactions), so that tests can make writers outrun it deterministically.
  void TEST_PauseBackground(bool paused);
  /// Tests only: called by a compaction every 1,024 merged entries, without mu_, before it services
  /// writes queued meanwhile. Set it before the compaction starts; empty = none.
  void TEST_SetCompactionStepHook(std::function<void()> hook) { compaction_step_hook_ = std::move(hook); }

  /// The commit pipeline entry: applies `batch` atomically. With check_conflicts, fails with
  /// Conflict (applying nothing) when a key of the batch has a version newer than `snapshot`.
  /// A null batch freezes the delta store instead; *frozen_seq then gets the last sequence frozen.
  Status WriteImpl(const WriteBatch* batch, bool check_conflicts, uint64_t snapshot, uint64_t* frozen_seq = nullptr);

 private:
  class SnapshotImpl;
  struct Writer;

  // ---- db_impl.cc ----
  void InstallSuperVersion(std::shared_ptr<SuperVersion> sv) REQUIRES(mu_);
  void SweepRetired() REQUIRES(mu_);
  uint64_t OldestSnapshot() const REQUIRES(mu_);
  /// A pinned view: the current SuperVersion and a registered snapshot (released by the caller).
  void PinView(std::shared_ptr<const SuperVersion>* sv, uint64_t* seq) EXCLUDES(mu_);
  void UnpinSeq(uint64_t seq) EXCLUDES(mu_);
  /// A lock-free view, REQUIRES an Epoch::Guard on epoch_ held while the view is used: the current
  /// SuperVersion (null once closed) and the sequence of the read (o.snapshot's, else the latest),
  /// such that the SuperVersion holds every version <= *seq.
  const SuperVersion* AcquireView(const ReadOptions& o, uint64_t* seq) const;
  std::shared_ptr<const ColumnarCache> CurrentCache() EXCLUDES(cache_mu_);
  /// The columnar cache if it holds snapshot `seq`, else null; takes cache_mu_ only when it may.
  std::shared_ptr<const ColumnarCache> CacheAt(uint64_t seq) EXCLUDES(cache_mu_);
  /// Whether a full scan should build the columnar cache (see cache_misfit_rows_).
  bool WorthBuildingCache();
  Status ScanMerged(uint64_t seq, std::shared_ptr<const SuperVersion> sv, std::string_view start, std::string_view end,
                    uint64_t limit, ScanFunction fn, void* ctx, bool build_cache);
  /// The end of a scan that fed `builder` (may be null): installs the columnar cache it built unless
  /// the scan stopped early or the rows did not fit.
  Status FinishCacheBuild(ColumnarCache::Builder* builder, bool stopped, uint64_t seq) EXCLUDES(cache_mu_);

  // ---- db_write.cc ----
  /// Applies a batch (sequence numbers from `seq`) to the active delta; returns the live-key delta.
  Status ApplyBatch(const SuperVersion& sv, std::string_view rep, uint64_t seq, int64_t* live_delta);
  Status CheckConflicts(const SuperVersion& sv, const Writer& w, const std::vector<Writer*>& group, size_t index);
  void FreezeActive() REQUIRES(mu_);  // called by the commit leader (or with no writers)
  /// True while the frozen deltas and WOS tiers exceed write_buffer_limit_bytes and the background
  /// thread has work that will shrink them (so a stall always ends).
  bool WriteStallNeeded() const REQUIRES(mu_);
  /// Bytes of the in-memory write tiers of the current SuperVersion; records the peak.
  size_t NoteWriteBufferBytes() REQUIRES(mu_);
  /// Waits (through *l, when not null) for rotated WAL files to be synced.
  Status EnsureWal(MutexLock* l) REQUIRES(mu_);

  // ---- db_background.cc ----
  void MaybeStartBackground() REQUIRES(mu_);
  /// Records the first write-path I/O error (every later write fails with it until the database
  /// is reopened) and wakes everyone waiting for background progress.
  void SetBackgroundError(const Status& s) REQUIRES(mu_);
  void BackgroundLoop() EXCLUDES(mu_);
  void SyncLoop() EXCLUDES(mu_);
  bool BackgroundWorkPending() const REQUIRES(mu_);
  bool WosFlushDue() const REQUIRES(mu_);
  /// Merges frozen deltas and flushes a due WOS until none is left (no compaction): called between
  /// steps of a long compaction so that writes keep draining. Each of these drops mu_ while it
  /// does I/O and holds it again when it returns.
  Status ServiceWrites() REQUIRES(mu_);
  Status MergeOldestDelta() REQUIRES(mu_);
  Status FlushWos() REQUIRES(mu_);
  Status CompactSegments() REQUIRES(mu_);
  /// Writes versions of a MemTable to a new segment; *reader is null when nothing survived GC. With
  /// `warm_cache`, the blocks it stores compressed go into the block cache as they are written.
  Status WriteSegmentFromMemTable(const MemTable& t, uint64_t oldest, bool bottommost, uint64_t number, bool warm_cache,
                                  std::shared_ptr<SegmentReader>* reader);
  /// cache_id: the block-cache id a SegmentWriter warmed the file's blocks under (0: none).
  Status FinishSegmentFile(const std::string& path, uint64_t number, std::shared_ptr<SegmentReader>* reader,
                           uint64_t cache_id = 0);
  void DeleteObsoleteWals(uint64_t max_wal) REQUIRES(mu_);
  Status WaitForFlush(uint64_t target) EXCLUDES(mu_);

  const Options options_;
  const std::string dir_;
  Env* const env_;  // options_.env, or the POSIX Env
  std::unique_ptr<FileLock> lock_;
  // Point reads' epoch (see AcquireView); shared with the block cache, which frees the blocks it
  // unpublishes from segments' arrays after it. Declared before the cache, which is built with it.
  const std::shared_ptr<Epoch> epoch_ = std::make_shared<Epoch>();
  std::shared_ptr<BlockCache> block_cache_;

  mutable Mutex mu_;
  std::condition_variable bg_cv_;       // wakes the background thread
  std::condition_variable done_cv_;     // background progress (flushes, compactions)
  std::condition_variable sync_cv_;     // wakes the WAL syncer early (rotation, shutdown)
  std::condition_variable rotated_cv_;  // the syncer finished syncing rotated WAL files
  std::deque<Writer*> writers_ GUARDED_BY(mu_);
  std::shared_ptr<SuperVersion> sv_ GUARDED_BY(mu_);
  std::atomic<const SuperVersion*> sv_ptr_{nullptr};  // mirrors sv_ for lock-free Get
  std::vector<std::pair<uint64_t, std::shared_ptr<SuperVersion>>> retired_ GUARDED_BY(mu_);
  std::multiset<uint64_t> snapshots_ GUARDED_BY(mu_);

  std::atomic<uint64_t> last_seq_{0};   // written by the commit leader only
  std::atomic<uint64_t> live_keys_{0};  // written by the commit leader only
  uint64_t next_file_number_ GUARDED_BY(mu_) = 1;
  std::shared_ptr<WalWriter> wal_ GUARDED_BY(mu_);
  std::vector<std::shared_ptr<WalWriter>> rotated_wals_ GUARDED_BY(mu_);  // kNormal, awaiting fsync
  std::string wal_buf_;                                                   // commit leader only
  ManifestData manifest_ GUARDED_BY(mu_);

  std::thread bg_thread_;    // started lazily on the first background work
  std::thread sync_thread_;  // kNormal only, started with the first WAL
  bool bg_started_ GUARDED_BY(mu_) = false;
  bool sync_started_ GUARDED_BY(mu_) = false;
  bool shutting_down_ GUARDED_BY(mu_) = false;
  // Close has begun: its flush writes what is left for durability only, so it skips the work done for
  // readers and for the memory of a database that lives on (warming the block cache, malloc_trim).
  bool closing_ GUARDED_BY(mu_) = false;
  bool bg_paused_ GUARDED_BY(mu_) = false;  // TEST_PauseBackground
  // A compaction is running. WaitForIdle waits for it: the picker alone may no longer ask for it once
  // a flush serviced inside it has put a small segment in front of its inputs.
  bool compacting_ GUARDED_BY(mu_) = false;
  std::function<void()> compaction_step_hook_;  // TEST_SetCompactionStepHook
  bool closed_ GUARDED_BY(mu_) = false;
  Status bg_error_ GUARDED_BY(mu_);
  uint64_t flush_target_ GUARDED_BY(mu_) = 0;   // flush everything up to this sequence
  uint64_t flushed_up_to_ GUARDED_BY(mu_) = 0;  // all versions <= this are in segments
  uint64_t compactions_requested_ GUARDED_BY(mu_) = 0;
  uint64_t compactions_done_ GUARDED_BY(mu_) = 0;
  std::set<uint64_t> live_wals_ GUARDED_BY(mu_);  // WAL files on disk

  Mutex cache_mu_;
  std::shared_ptr<const ColumnarCache> columnar_ GUARDED_BY(cache_mu_);
  // columnar_->seq(), or kNoCache: lets reads skip cache_mu_ when the cache is stale (any write).
  static constexpr uint64_t kNoCache = ~0ull;
  // Scans of at most this many entries run under the epoch guard instead of a pinned snapshot.
  static constexpr uint64_t kShortScanEntries = 1024;
  std::atomic<uint64_t> columnar_seq_{kNoCache};

  std::atomic<bool> building_cache_{false};  // at most one columnar cache is built at a time
  // The rows the last columnar cache build held when it ran out of room (0: it did not): while at
  // least that many keys are live, a full scan would copy a cache's worth of rows only to drop them.
  std::atomic<uint64_t> cache_misfit_rows_{0};
  std::atomic<uint64_t> cache_misfit_scans_{0};  // full scans since, retries included
  std::atomic<bool> service_requested_{false};   // write-tier work arrived (checked inside compactions)

  std::atomic<uint64_t> stat_flushes_{0}, stat_compactions_{0}, stat_cache_builds_{0}, stat_wal_syncs_{0};
  std::atomic<uint64_t> stat_cache_skips_{0};
  std::atomic<uint64_t> stat_memory_releases_{0};
  std::atomic<uint64_t> stat_write_stalls_{0}, stat_write_buffer_peak_{0}, stat_compaction_peak_{0};
};

}  // namespace dbx
