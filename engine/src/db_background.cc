// Background work, on one lazily started thread: merging frozen deltas into the WOS, writing a full
// (or flush-requested) WOS as a segment, compacting segments; plus, under Durability::kNormal, a
// second thread that fsyncs the WAL at intervals.
#include <algorithm>
#include <chrono>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "src/compaction_pick.h"
#include "src/db_impl.h"
#include "src/hash.h"
#include "src/merging_iterator.h"
#include "src/segment_writer.h"

namespace dbx {

namespace {

size_t PickBackgroundCompaction(const SuperVersion& sv, int trigger) {
  std::vector<uint64_t> sizes;
  sizes.reserve(sv.segments.size());
  for (const auto& r : sv.segments) sizes.push_back(r->file_size());
  return PickCompaction(sizes, trigger);
}

// Returns the free pages of every malloc arena to the OS. Runs without mu_: it takes each arena's
// lock in turn, so a writer allocating meanwhile waits for one arena at most, not for the whole walk.
void ReleaseFreedMemory() {
#ifdef __GLIBC__
  (void)malloc_trim(0);
#endif
}

}  // namespace

void DBImpl::MaybeStartBackground() {
  service_requested_.store(true, std::memory_order_relaxed);
  if (!bg_started_ && !shutting_down_) {
    bg_started_ = true;
    bg_thread_ = std::thread([this] { BackgroundLoop(); });
  }
  bg_cv_.notify_one();
}

bool DBImpl::WosFlushDue() const {
  const SuperVersion& sv = *sv_;
  return sv.wos != nullptr &&
         (sv.wos->table->MemoryUsage() >= options_.wos_flush_bytes || flush_target_ > flushed_up_to_);
}

bool DBImpl::BackgroundWorkPending() const {
  if (!bg_error_.ok() || sv_ == nullptr) return false;
  const SuperVersion& sv = *sv_;
  if (!sv.frozen.empty()) return true;
  if (WosFlushDue()) return true;
  if (compactions_requested_ > compactions_done_) return true;
  if (!shutting_down_ && PickBackgroundCompaction(sv, options_.compaction_trigger) > 0) return true;
  return false;
}

void DBImpl::SetBackgroundError(const Status& s) {
  if (!bg_error_.ok()) return;  // the first error is the one to report
  bg_error_ = s;
  // Everyone waiting for progress must see it: flushes, stalled writers, a WAL rotation.
  done_cv_.notify_all();
  rotated_cv_.notify_all();
}

void DBImpl::TEST_PauseBackground(bool paused) {
  MutexLock l(&mu_);
  bg_paused_ = paused;
  bg_cv_.notify_all();
}

Status DBImpl::ServiceWrites() {
  if (bg_paused_) return bg_error_;  // paused by a test: the work stays queued, still requested
  service_requested_.store(false, std::memory_order_relaxed);
  while (bg_error_.ok() && !bg_paused_) {
    Status s;
    if (!sv_->frozen.empty())
      s = MergeOldestDelta();
    else if (WosFlushDue())
      s = FlushWos();
    else
      break;
    if (!s.ok()) return s;
    SweepRetired();
    done_cv_.notify_all();
  }
  return bg_error_;
}

void DBImpl::BackgroundLoop() {
  MutexLock l(&mu_);
  for (;;) {
    while (!shutting_down_ && (bg_paused_ || !BackgroundWorkPending())) bg_cv_.wait(l.native());
    if (!BackgroundWorkPending()) break;
    Status s;
    bool freed_buffers = false;  // a flush or a compaction: it freed megabytes of heap
    if (!sv_->frozen.empty()) {
      s = MergeOldestDelta();
    } else if (WosFlushDue()) {
      s = FlushWos();
      freed_buffers = true;
    } else {
      compacting_ = true;
      s = CompactSegments();
      compacting_ = false;
      freed_buffers = true;
    }
    if (!s.ok()) SetBackgroundError(s);
    SweepRetired();
    done_cv_.notify_all();
    if (freed_buffers && options_.release_freed_memory && !closing_) {
      l.Unlock();
      ReleaseFreedMemory();
      stat_memory_releases_.fetch_add(1, std::memory_order_relaxed);
      l.Lock();
    }
  }
  done_cv_.notify_all();
}

void DBImpl::SyncLoop() {
  MutexLock l(&mu_);
  uint64_t dir_synced_for = 0;  // the newest WAL file whose directory entry is known durable
  for (;;) {
    if (rotated_wals_.empty()) {
      if (shutting_down_) break;
      sync_cv_.wait_for(l.native(), std::chrono::milliseconds(options_.wal_sync_interval_ms));
    }
    // WAL files rotated away first: a newer file may take commits only once they are durable.
    std::vector<std::shared_ptr<WalWriter>> rotated = rotated_wals_;
    std::shared_ptr<WalWriter> w = wal_;
    l.Unlock();
    Status s;
    for (const auto& r : rotated)
      if (s.ok()) s = r->Sync();
    if (s.ok() && !rotated.empty()) s = env_->SyncDir(dir_);
    if (s.ok() && w != nullptr) {
      s = w->Sync();
      if (s.ok() && w->number() != dir_synced_for) {
        s = env_->SyncDir(dir_);  // a new WAL file: make its directory entry durable as well
        if (s.ok()) dir_synced_for = w->number();
      }
    }
    stat_wal_syncs_.fetch_add(1, std::memory_order_relaxed);
    l.Lock();
    if (!s.ok()) SetBackgroundError(s);
    rotated_wals_.erase(rotated_wals_.begin(), rotated_wals_.begin() + static_cast<long>(rotated.size()));
    rotated_cv_.notify_all();
    if (!s.ok()) {
      rotated_wals_.clear();  // bg_error_ now refuses writes; nobody waits for these any more
      if (shutting_down_) break;
    }
  }
}

Status DBImpl::MergeOldestDelta() {
  FrozenDelta d = sv_->frozen.back();
  std::shared_ptr<const WosState> w = sv_->wos;
  uint64_t oldest = OldestSnapshot();
  mu_.Unlock();
  std::shared_ptr<MemTable> table = d.table;
  if (w != nullptr) {
    // Merge in key order (ascending inserts are cheap), keeping only versions some snapshot may
    // still read: every version newer than the oldest snapshot plus the newest one at or below it.
    table = w->table;
    std::vector<MemTable::Pending> chain;
    for (const MemNode* n = d.table->First(); n != nullptr; n = n->Next(0)) {
      chain.clear();
      for (const MemVersion* v = n->head.load(std::memory_order_acquire); v != nullptr; v = v->older) {
        chain.push_back({v->tag, v->value()});
        if (v->seq() <= oldest) break;
      }
      table->AddChain(n->key(), Hash64(n->key()), chain.data(), chain.size());
    }
  }
  mu_.Lock();
  auto nsv = std::make_shared<SuperVersion>(*sv_);
  nsv->frozen.pop_back();  // still the oldest: the leader only adds at the front
  auto ws = std::make_shared<WosState>();
  ws->table = std::move(table);
  ws->max_seq = d.max_seq;
  ws->live_keys = d.live_keys;
  ws->max_wal = std::max(w != nullptr ? w->max_wal : 0, d.wal_number);
  nsv->wos = std::move(ws);
  InstallSuperVersion(std::move(nsv));
  return Status::Ok();
}

Status DBImpl::FinishSegmentFile(const std::string& path, uint64_t number, std::shared_ptr<SegmentReader>* reader,
                                 uint64_t cache_id) {
  std::unique_ptr<RandomAccessFile> f;
  DBX_RETURN_IF_ERROR(env_->NewRandomAccessFile(path, &f));
  return SegmentReader::Open(std::move(f), number, block_cache_, reader, cache_id);
}

Status DBImpl::WriteSegmentFromMemTable(const MemTable& t, uint64_t oldest, bool bottommost, uint64_t number,
                                        bool warm_cache, std::shared_ptr<SegmentReader>* reader) {
  reader->reset();
  std::string path = dir_ + "/" + SegmentFileName(number);
  std::unique_ptr<WritableFile> file;
  DBX_RETURN_IF_ERROR(env_->NewWritableFile(path, &file));
  SegmentWriter w(options_, std::move(file), t.keys());
  // The table was in memory: its blocks go to the cache as they are written (readers would
  // otherwise pay a block miss per block right after every flush).
  const uint64_t cache_id = warm_cache ? BlockCache::NewFileId() : 0;
  if (block_cache_ != nullptr && warm_cache) w.WarmCache(block_cache_, cache_id);
  for (const MemNode* n = t.First(); n != nullptr && w.status().ok(); n = n->Next(0)) {
    for (const MemVersion* v = n->head.load(std::memory_order_acquire); v != nullptr; v = v->older) {
      if (v->seq() <= oldest) {
        // The newest version at or below the oldest snapshot is the last one anyone can read; a
        // tombstone there hides nothing when no older segment exists.
        if (!(bottommost && v->type() == ValueType::kDelete)) w.Add(n->key(), v->tag, v->value());
        break;
      }
      w.Add(n->key(), v->tag, v->value());
    }
  }
  Status s = w.Finish();
  if (!s.ok() || w.meta().entries == 0) {
    (void)env_->RemoveFile(path);
    return s;
  }
  return FinishSegmentFile(path, number, reader, cache_id);
}

void DBImpl::DeleteObsoleteWals(uint64_t max_wal) {
  while (!live_wals_.empty() && *live_wals_.begin() <= max_wal) {
    uint64_t n = *live_wals_.begin();
    if (wal_ != nullptr && wal_->number() == n) break;  // never the file being written
    (void)env_->RemoveFile(dir_ + "/" + WalFileName(n));
    live_wals_.erase(live_wals_.begin());
  }
}

Status DBImpl::FlushWos() {
  std::shared_ptr<const WosState> w = sv_->wos;
  {
    auto nsv = std::make_shared<SuperVersion>(*sv_);
    nsv->wos = nullptr;  // new deltas start a fresh WOS while this one is written
    nsv->frozen_wos = w;
    InstallSuperVersion(std::move(nsv));
  }
  uint64_t oldest = OldestSnapshot();
  bool bottommost = sv_->segments.empty();
  uint64_t number = next_file_number_++;
  const bool warm = !closing_;
  mu_.Unlock();
  std::shared_ptr<SegmentReader> reader;
  Status s = WriteSegmentFromMemTable(*w->table, oldest, bottommost, number, warm, &reader);
  mu_.Lock();
  if (!s.ok()) return s;  // the frozen WOS stays readable; bg_error_ stops further writes
  ManifestData m = manifest_;
  m.next_file_number = next_file_number_;
  m.flushed_seq = w->max_seq;
  m.live_keys = w->live_keys;
  m.log_number = std::max(m.log_number, w->max_wal + 1);  // the WAL files of the flushed deltas
  if (reader != nullptr) m.segments.insert(m.segments.begin(), number);
  mu_.Unlock();
  s = WriteManifest(env_, dir_, m);
  mu_.Lock();
  if (!s.ok()) return s;
  manifest_ = m;
  flushed_up_to_ = w->max_seq;
  auto nsv = std::make_shared<SuperVersion>(*sv_);
  nsv->frozen_wos = nullptr;
  if (reader != nullptr) nsv->segments.insert(nsv->segments.begin(), std::move(reader));
  InstallSuperVersion(std::move(nsv));
  stat_flushes_.fetch_add(1, std::memory_order_relaxed);
  DeleteObsoleteWals(w->max_wal);
  return Status::Ok();
}

Status DBImpl::CompactSegments() {
  const std::vector<std::shared_ptr<SegmentReader>> all = sv_->segments;
  uint64_t requested = compactions_requested_;
  const bool everything = requested > compactions_done_;  // Compact() merges all segments
  size_t k = everything ? all.size() : PickBackgroundCompaction(*sv_, options_.compaction_trigger);
  if (k == 0) {
    compactions_done_ = requested;
    return Status::Ok();
  }
  // The newest k segments. Segments flushed while this runs go in front of them; nothing else
  // changes the segment list (only this thread does), so they stay a contiguous run.
  const std::vector<std::shared_ptr<SegmentReader>> inputs(all.begin(), all.begin() + static_cast<long>(k));
  const bool bottommost = k == all.size();  // no older segment a tombstone must hide
  uint64_t oldest = OldestSnapshot();
  uint64_t number = next_file_number_++;
  uint64_t expected_keys = 0;
  for (const auto& r : inputs) expected_keys += r->meta().keys;
  mu_.Unlock();

  // Streams: the merging iterator holds one block per input, the writer one output block plus the
  // output's index and bloom filter (sized up front from the inputs' key counts).
  std::vector<std::unique_ptr<InternalIterator>> children;
  for (const auto& r : inputs) children.push_back(r->NewIterator(/*use_cache=*/false));
  std::unique_ptr<InternalIterator> it = NewMergingIterator(std::move(children));
  std::string path = dir_ + "/" + SegmentFileName(number);
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(path, &file);
  std::shared_ptr<SegmentReader> reader;
  uint64_t entries = 0;
  if (s.ok()) {
    SegmentWriter w(options_, std::move(file), expected_keys);
    // The output is not written into the block cache: while the merge runs its inputs are what
    // readers use, and caching the output as well evicted them (sqlite-vps select-pk right after a
    // 1M-row load: about half the throughput, measured).
    std::string cur;
    bool have_cur = false, done_with_key = false;
    uint64_t steps = 0;
    for (it->SeekToFirst(); it->Valid() && w.status().ok(); it->Next()) {
      if ((++steps & 1023) == 0 && compaction_step_hook_) compaction_step_hook_();
      if ((steps & 1023) == 0 && service_requested_.load(std::memory_order_relaxed)) {
        // Writes must not wait for a long compaction: merge and flush what they queued meanwhile.
        mu_.Lock();
        s = ServiceWrites();
        mu_.Unlock();
        if (!s.ok()) break;
      }
      if (!have_cur || it->key() != cur) {
        cur.assign(it->key());
        have_cur = true;
        done_with_key = false;
      }
      if (done_with_key) continue;  // shadowed below the oldest snapshot: nobody can read it
      uint64_t tag = it->tag();
      if (TagSeq(tag) <= oldest) {
        done_with_key = true;
        if (bottommost && TagType(tag) == ValueType::kDelete) continue;  // nothing older to hide
      }
      w.Add(it->key(), tag, it->value());
    }
    if (s.ok()) s = it->status();
    size_t buffers = w.MemoryUsage() + inputs.size() * options_.block_size;
    if (buffers > stat_compaction_peak_.load(std::memory_order_relaxed))
      stat_compaction_peak_.store(buffers, std::memory_order_relaxed);
    Status f = w.Finish();
    if (s.ok()) s = f;
    entries = w.meta().entries;
    if (s.ok() && entries > 0) s = FinishSegmentFile(path, number, &reader);
    if (!s.ok() || entries == 0) (void)env_->RemoveFile(path);
  }
  mu_.Lock();
  if (!s.ok()) return s;
  // Replace the run of inputs by the output, in the manifest and in the SuperVersion.
  ManifestData m = manifest_;
  m.next_file_number = next_file_number_;
  auto first = std::find(m.segments.begin(), m.segments.end(), inputs.front()->number());
  if (first == m.segments.end() || m.segments.end() - first < static_cast<long>(k))
    return Status::Corruption("compaction inputs are no longer live segments");
  first = m.segments.erase(first, first + static_cast<long>(k));
  if (reader != nullptr) m.segments.insert(first, number);
  mu_.Unlock();
  s = WriteManifest(env_, dir_, m);
  mu_.Lock();
  if (!s.ok()) return s;
  manifest_ = m;
  auto nsv = std::make_shared<SuperVersion>(*sv_);
  auto at = std::find(nsv->segments.begin(), nsv->segments.end(), inputs.front());
  at = nsv->segments.erase(at, at + static_cast<long>(k));
  const std::shared_ptr<SegmentReader> output = reader;
  if (reader != nullptr) nsv->segments.insert(at, std::move(reader));
  InstallSuperVersion(std::move(nsv));
  for (const auto& r : inputs) (void)env_->RemoveFile(dir_ + "/" + SegmentFileName(r->number()));
  // Readers move to the output now: its blocks take the room the inputs' blocks leave in the cache,
  // read back while the file is still in the page cache, so that reads after a settled load do not
  // start from a cold cache. Part of the compaction (a settle waits for it); evicts nothing.
  mu_.Unlock();
  for (const auto& r : inputs) r->DropCachedBlocks();
  if (output != nullptr) output->WarmCache();
  mu_.Lock();
  if (everything) compactions_done_ = requested;
  stat_compactions_.fetch_add(1, std::memory_order_relaxed);
  return Status::Ok();
}

Status DBImpl::WaitForFlush(uint64_t target) {
  MutexLock l(&mu_);
  if (target > flush_target_) flush_target_ = target;
  MaybeStartBackground();
  while (bg_error_.ok() && flushed_up_to_ < target &&
         (!sv_->frozen.empty() || sv_->wos != nullptr || sv_->frozen_wos != nullptr))
    done_cv_.wait(l.native());
  return bg_error_;
}

Status DBImpl::Flush() {
  uint64_t frozen = 0;
  DBX_RETURN_IF_ERROR(WriteImpl(nullptr, false, 0, &frozen));
  {
    MutexLock l(&mu_);
    if (flushed_up_to_ >= frozen) return bg_error_;
  }
  return WaitForFlush(frozen);
}

Status DBImpl::Compact() {
  DBX_RETURN_IF_ERROR(Flush());
  MutexLock l(&mu_);
  uint64_t target = ++compactions_requested_;
  MaybeStartBackground();
  while (bg_error_.ok() && compactions_done_ < target) done_cv_.wait(l.native());
  return bg_error_;
}

Status DBImpl::WaitForIdle() {
  MutexLock l(&mu_);
  if (closed_ || shutting_down_) return Status::InvalidArgument("database is closed");
  // A WOS being written is no longer "due" (sv_->wos is already its successor): wait for it too; and
  // for a running compaction, which the picker may no longer ask for once a flush has put a small
  // segment in front of its inputs (a settle's flush while the load's last compaction runs).
  if (BackgroundWorkPending() || sv_->frozen_wos != nullptr) MaybeStartBackground();
  while (bg_error_.ok() && !shutting_down_ && (BackgroundWorkPending() || sv_->frozen_wos != nullptr || compacting_)) {
    done_cv_.wait(l.native());
  }
  return bg_error_;
}

}  // namespace dbx
