// The commit pipeline. Writers queue up; the writer at the front becomes the leader, takes a group of
// queued batches, checks transaction conflicts, appends all their WAL records with one write (and one
// fdatasync under Durability::kFull: group commit), applies them to the delta store, then publishes
// the new last sequence. Only the leader writes the active delta; readers never block.
#include <algorithm>
#include <unordered_set>

#include "src/db_impl.h"
#include "src/hash.h"
#include "src/key_compare.h"
#include "src/write_batch_internal.h"

namespace dbx {

struct DBImpl::Writer {
  const WriteBatch* batch = nullptr;  // nullptr: a request to freeze the delta store (Flush)
  bool check_conflicts = false;
  uint64_t snapshot = 0;
  uint64_t seq = 0;  // first sequence assigned; for a freeze request, the last sequence frozen
  bool done = false;
  Status status;
  std::condition_variable cv;
};

Status DBImpl::Put(const WriteOptions&, std::string_view key, std::string_view value) {
  WriteBatch b;
  b.Put(key, value);
  return WriteImpl(&b, false, 0);
}

Status DBImpl::Delete(const WriteOptions&, std::string_view key) {
  WriteBatch b;
  b.Delete(key);
  return WriteImpl(&b, false, 0);
}

Status DBImpl::Write(const WriteOptions&, const WriteBatch& batch) { return WriteImpl(&batch, false, 0); }

Status DBImpl::EnsureWal(MutexLock* l) {
  if (wal_ != nullptr) return Status::Ok();
  // kNormal: the previous WAL file must be durable before a newer one takes commits, so that only
  // the newest file can ever end torn. The syncer does that in the background; wait for it here.
  while (l != nullptr && !rotated_wals_.empty() && bg_error_.ok()) rotated_cv_.wait(l->native());
  DBX_RETURN_IF_ERROR(bg_error_);
  uint64_t number = next_file_number_++;
  std::unique_ptr<WalWriter> w;
  Status s = WalWriter::Create(env_, dir_ + "/" + WalFileName(number), number, &w);
  // The new file's directory entry must be durable before a commit in it is acknowledged.
  if (s.ok() && options_.durability == Durability::kFull) s = env_->SyncDir(dir_);
  if (!s.ok()) {
    // Like every write-path I/O error, this one stops all writes until the database is reopened.
    SetBackgroundError(s);
    return s;
  }
  wal_ = std::move(w);
  live_wals_.insert(number);
  if (options_.durability == Durability::kNormal && !sync_started_) {
    sync_started_ = true;
    sync_thread_ = std::thread([this] { SyncLoop(); });
  }
  return Status::Ok();
}

void DBImpl::FreezeActive() {
  if (sv_->active->entries() == 0) return;
  auto nsv = std::make_shared<SuperVersion>(*sv_);
  FrozenDelta fd;
  fd.table = sv_->active;
  fd.max_seq = last_seq_.load(std::memory_order_relaxed);
  fd.live_keys = live_keys_.load(std::memory_order_relaxed);
  fd.wal_number = wal_ != nullptr ? wal_->number() : 0;
  nsv->active = std::make_shared<MemTable>();
  if (nsv->frozen.empty() && nsv->wos == nullptr) {
    // The WOS is empty, so merging the delta into it is adopting it: O(1), no background work.
    auto ws = std::make_shared<WosState>();
    ws->table = fd.table;
    ws->max_seq = fd.max_seq;
    ws->live_keys = fd.live_keys;
    ws->max_wal = fd.wal_number;
    nsv->wos = std::move(ws);
  } else {
    nsv->frozen.insert(nsv->frozen.begin(), std::move(fd));
  }
  if (wal_ != nullptr) {
    // Rotate the WAL with the delta, so that a WAL file can be deleted once its delta is in a
    // segment. Sync the old file first: only the newest WAL file may ever have a torn tail.
    // kNormal: the syncer makes the old file (and the directory) durable in the background; the
    // next WAL file is created only after that (EnsureWal). kFull: every record is already synced.
    if (options_.durability == Durability::kNormal) {
      rotated_wals_.push_back(wal_);
      sync_cv_.notify_all();
    }
    wal_.reset();
  }
  bool wos_full = nsv->wos != nullptr && nsv->wos->table->MemoryUsage() >= options_.wos_flush_bytes;
  bool work = !nsv->frozen.empty() || wos_full;
  InstallSuperVersion(std::move(nsv));
  if (work) MaybeStartBackground();
}

namespace {

// Bytes of the write tiers waiting for the background thread: frozen deltas, the WOS and the WOS
// being written (everything but the active delta store).
size_t QueuedWriteBytes(const SuperVersion& sv) {
  size_t bytes = 0;
  for (const FrozenDelta& d : sv.frozen) bytes += d.table->MemoryUsage();
  if (sv.wos != nullptr) bytes += sv.wos->table->MemoryUsage();
  if (sv.frozen_wos != nullptr) bytes += sv.frozen_wos->table->MemoryUsage();
  return bytes;
}

}  // namespace

size_t DBImpl::NoteWriteBufferBytes() {
  if (sv_ == nullptr) return 0;
  const size_t bytes = sv_->active->MemoryUsage() + QueuedWriteBytes(*sv_);
  if (bytes > stat_write_buffer_peak_.load(std::memory_order_relaxed))
    stat_write_buffer_peak_.store(bytes, std::memory_order_relaxed);
  return bytes;
}

bool DBImpl::WriteStallNeeded() const {
  if (options_.write_buffer_limit_bytes == 0 || !bg_error_.ok() || sv_ == nullptr || shutting_down_) return false;
  const SuperVersion& sv = *sv_;
  if (QueuedWriteBytes(sv) <= options_.write_buffer_limit_bytes) return false;
  return !sv.frozen.empty() || sv.frozen_wos != nullptr || WosFlushDue();
}

Status DBImpl::CheckConflicts(const SuperVersion& sv, const Writer& w, const std::vector<Writer*>& group,
                              size_t index) {
  std::unordered_set<std::string_view> earlier;  // keys written by earlier members of this group
  for (size_t j = 0; j < index; ++j) {
    if (!group[j]->status.ok()) continue;
    WriteBatchInternal::Reader r(WriteBatchInternal::Contents(*group[j]->batch));
    ValueType t;
    std::string_view k, v;
    while (r.Next(&t, &k, &v)) earlier.insert(k);
  }
  WriteBatchInternal::Reader r(WriteBatchInternal::Contents(*w.batch));
  ValueType t;
  std::string_view k, v;
  while (r.Next(&t, &k, &v)) {
    if (earlier.count(k) != 0) return Status::Conflict("write-write conflict on a key");
    Lookup result;
    uint64_t seq = 0;
    Epoch::Guard guard(epoch_.get());  // SuperVersion::Get may read blocks the cache published
    DBX_RETURN_IF_ERROR(sv.Get(k, Hash64(k), ~uint64_t{0}, false, &result, nullptr, &seq));
    if (result != Lookup::kAbsent && seq > w.snapshot) return Status::Conflict("write-write conflict on a key");
  }
  if (r.corrupt()) return Status::Corruption("malformed write batch");
  return Status::Ok();
}

Status DBImpl::ApplyBatch(const SuperVersion& sv, std::string_view rep, uint64_t seq, int64_t* live_delta) {
  MemTable* active = sv.active.get();
  const uint32_t count = DecodeFixed32(rep.data() + 8);
  active->ReserveKeys(count);
  const bool older_tiers = !sv.frozen.empty() || sv.wos != nullptr || sv.frozen_wos != nullptr || !sv.segments.empty();
  Status first_error;
  int64_t delta = 0;
  struct Entry {
    ValueType type;
    std::string_view key, value;
    uint64_t hash;
    uint64_t seq;
  };
  auto apply = [&](const Entry& e, bool above_all) {
    const MemVersion* prev = active->Add(e.key, e.hash, e.seq, e.type, e.value, above_all);
    bool was_live = false;
    if (prev != nullptr) {
      was_live = prev->type() == ValueType::kPut;
    } else if (older_tiers) {
      // The exact count needs to know whether the key was live in an older tier.
      Lookup result;
      Epoch::Guard guard(epoch_.get());  // SuperVersion::Get may read blocks the cache published
      Status s = sv.Get(e.key, e.hash, ~uint64_t{0}, true, &result, nullptr, nullptr);
      if (!s.ok() && first_error.ok()) first_error = s;
      was_live = result == Lookup::kValue;
    }
    delta += (e.type == ValueType::kPut ? 1 : 0) - (was_live ? 1 : 0);
  };

  // Entries are decoded kLookahead ahead of their insertion and their hash slots prefetched, so that
  // large batches do not wait on one cache miss per key.
  constexpr size_t kLookahead = 8;
  // Once an entry would not append at the tail, the rest of a large batch is applied in key order
  // (stable, so a key's versions keep their order): finger searches instead of full descents.
  constexpr uint32_t kSortAtLeast = 16;
  Entry ring[kLookahead];
  size_t head = 0, filled = 0;
  uint32_t taken = 0;
  WriteBatchInternal::Reader r(rep);
  auto fill = [&]() {
    Entry& e = ring[(head + filled) % kLookahead];
    if (!r.Next(&e.type, &e.key, &e.value)) return false;
    e.hash = Hash64(e.key);
    e.seq = seq + taken++;
    active->Prefetch(e.hash);
    ++filled;
    return true;
  };
  while (filled < kLookahead && fill()) {
  }
  uint32_t applied = 0;
  while (filled > 0) {
    const Entry e = ring[head];
    const bool above_all = active->AboveAllKeys(e.key);
    if (count - applied >= kSortAtLeast && !above_all) {
      std::vector<Entry> rest;
      rest.reserve(count - applied);
      for (; filled > 0; --filled, head = (head + 1) % kLookahead) rest.push_back(ring[head]);
      while (fill()) {
        rest.push_back(ring[head]);
        --filled;
      }
      std::stable_sort(rest.begin(), rest.end(), [](const Entry& a, const Entry& b) { return KeyLess(a.key, b.key); });
      for (size_t i = 0; i < rest.size(); ++i) {
        if (i + kLookahead < rest.size()) active->Prefetch(rest[i + kLookahead].hash);
        apply(rest[i], active->AboveAllKeys(rest[i].key));
      }
      break;
    }
    head = (head + 1) % kLookahead;
    --filled;
    fill();
    apply(e, above_all);
    ++applied;
  }
  *live_delta += delta;
  if (r.corrupt()) return Status::Corruption("malformed write batch");
  return first_error;
}

Status DBImpl::WriteImpl(const WriteBatch* batch, bool check_conflicts, uint64_t snapshot, uint64_t* frozen_seq) {
  if (batch != nullptr && batch->Count() == 0) return Status::Ok();
  // A WAL record's length is 32 bits; keep batches well below that.
  if (batch != nullptr && batch->ByteSize() > (size_t{1} << 30))
    return Status::InvalidArgument("write batch larger than 1 GiB");
  Writer w;
  w.batch = batch;
  w.check_conflicts = check_conflicts;
  w.snapshot = snapshot;

  MutexLock l(&mu_);
  if (closed_ || shutting_down_) return Status::InvalidArgument("database is closed");
  writers_.push_back(&w);
  while (!w.done && &w != writers_.front()) w.cv.wait(l.native());
  if (w.done) return w.status;

  // This writer leads a group.
  std::vector<Writer*> group;
  Status s = bg_error_;
  if (batch == nullptr) {
    group.push_back(&w);
    if (s.ok()) FreezeActive();
    w.seq = last_seq_.load(std::memory_order_relaxed);
  } else {
    if (s.ok() && WriteStallNeeded()) {
      // Backpressure: the background thread is behind. Waiting here, at the head of the queue,
      // holds every writer until it has merged and written enough, instead of letting frozen
      // tables pile up in memory. Readers are not affected.
      stat_write_stalls_.fetch_add(1, std::memory_order_relaxed);
      MaybeStartBackground();
      while (WriteStallNeeded()) done_cv_.wait(l.native());
      s = bg_error_;
    }
    size_t bytes = 0;
    for (Writer* x : writers_) {
      if (x->batch == nullptr) break;
      if (!group.empty() && bytes + x->batch->ByteSize() > (1u << 20)) break;
      group.push_back(x);
      bytes += x->batch->ByteSize();
    }
    if (s.ok() && options_.durability != Durability::kNone) s = EnsureWal(&l);
    if (s.ok()) {
      std::shared_ptr<SuperVersion> sv = sv_;
      std::shared_ptr<WalWriter> wal = wal_;
      uint64_t next = last_seq_.load(std::memory_order_relaxed) + 1;
      l.Unlock();

      wal_buf_.clear();
      for (size_t i = 0; i < group.size(); ++i) {
        Writer* x = group[i];
        if (x->check_conflicts) x->status = CheckConflicts(*sv, *x, group, i);
        if (!x->status.ok()) continue;
        x->seq = next;
        next += x->batch->Count();
        if (wal != nullptr) AppendWalBatchRecord(&wal_buf_, WriteBatchInternal::Contents(*x->batch), x->seq);
      }
      if (wal != nullptr && !wal_buf_.empty()) {
        s = wal->AppendFramed(wal_buf_);
        if (s.ok() && options_.durability == Durability::kFull) {
          s = wal->Sync();
          stat_wal_syncs_.fetch_add(1, std::memory_order_relaxed);
        }
      }
      int64_t delta = 0;
      Status apply;
      if (s.ok()) {
        for (Writer* x : group) {
          if (!x->status.ok()) continue;
          Status a = ApplyBatch(*sv, WriteBatchInternal::Contents(*x->batch), x->seq, &delta);
          if (!a.ok() && apply.ok()) apply = a;
        }
      }
      l.Lock();
      if (s.ok()) {
        last_seq_.store(next - 1, std::memory_order_release);
        live_keys_.store(
            static_cast<uint64_t>(static_cast<int64_t>(live_keys_.load(std::memory_order_relaxed)) + delta),
            std::memory_order_release);
        if (!apply.ok()) SetBackgroundError(apply);  // applied, but a tier failed to read
      } else {
        SetBackgroundError(s);  // the WAL's state is unknown: refuse further writes
      }
      NoteWriteBufferBytes();
      if (sv_->active->entries() >= options_.delta_flush_entries ||
          (options_.delta_flush_bytes > 0 && sv_->active->MemoryUsage() >= options_.delta_flush_bytes))
        FreezeActive();
    }
  }

  for (Writer* x : group) {
    if (!s.ok() && x->status.ok()) x->status = s;
    x->done = true;
    writers_.pop_front();
    if (x != &w) x->cv.notify_one();
  }
  if (!writers_.empty()) writers_.front()->cv.notify_one();
  if (frozen_seq != nullptr) *frozen_seq = w.seq;
  return w.status;
}

}  // namespace dbx
