// Opening a database: lock the directory, read the manifest, open the live segments (loading their
// indexes and bloom filters), replay the WAL over them, and make the replayed state durable as a
// segment so the WAL files can go. Opening a new directory is a mkdir (synced in its parent), a lock
// file and a first, empty manifest.
#include <algorithm>

#include "src/db_impl.h"
#include "src/write_batch_internal.h"

namespace dbx {

Status DB::Open(const Options& options, const std::string& dir, std::unique_ptr<DB>* db) {
  if (options.delta_flush_entries == 0 || options.block_size == 0)
    return Status::InvalidArgument("delta_flush_entries and block_size must be positive");
  auto impl = std::make_unique<DBImpl>(ResolveOptions(options), dir);
  Status s = impl->Recover();
  if (!s.ok()) return s;  // the destructor releases what Recover acquired
  *db = std::move(impl);
  return Status::Ok();
}

Status DBImpl::Recover() {
  MutexLock l(&mu_);
  closed_ = true;  // until recovery succeeds, the destructor must not flush
  if (!env_->FileExists(dir_) && !options_.create_if_missing)
    return Status::InvalidArgument(dir_ + " does not exist (create_if_missing is false)");
  bool created = false;
  DBX_RETURN_IF_ERROR(env_->CreateDirIfMissing(dir_, &created));
  // The directory's own name must survive a power cut, or a new database vanishes with every
  // commit in it (at every durability: the WAL promise of kNormal rests on it too).
  if (created) DBX_RETURN_IF_ERROR(env_->SyncDir(ParentDir(dir_)));
  DBX_RETURN_IF_ERROR(env_->LockFile(dir_ + "/LOCK", &lock_));

  ManifestData m;
  bool exists = false;
  std::vector<std::string> names;
  if (!created) {  // a directory made just now is empty: nothing to read or list
    DBX_RETURN_IF_ERROR(ReadManifest(env_, dir_, &m, &exists));
    DBX_RETURN_IF_ERROR(env_->ListDir(dir_, &names));
  }
  // Nothing is removed before recovery has succeeded: a failed Open leaves the directory as it was.
  std::vector<uint64_t> wals;
  std::vector<std::string> obsolete;  // removed once the recovered state is durable
  uint64_t max_number = 0;
  bool any_segment = false;
  for (const std::string& name : names) {
    uint64_t number;
    std::string ext;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) {
      obsolete.push_back(name);  // a manifest replacement that never completed
      continue;
    }
    if (!ParseFileName(name, &number, &ext)) continue;
    max_number = std::max(max_number, number);
    if (ext == "wal") {
      if (number >= m.log_number)
        wals.push_back(number);
      else
        obsolete.push_back(name);  // flushed already (a power cut may have brought it back)
    } else if (ext == "seg") {
      any_segment = true;
      if (std::find(m.segments.begin(), m.segments.end(), number) == m.segments.end())
        obsolete.push_back(name);  // written by a flush or compaction that did not commit
    }
  }
  // Every database has a manifest from its first Open on, so segments without one mean it was
  // lost: opening would drop the data they hold.
  if (!exists && any_segment)
    return Status::Corruption(dir_ + " holds segment files but no " + kManifestName + "; not opening it");
  if (options_.error_if_exists && (exists || !wals.empty()))
    return Status::InvalidArgument(dir_ + " already holds a database (error_if_exists)");
  std::sort(wals.begin(), wals.end());

  auto sv = std::make_shared<SuperVersion>();
  sv->active = std::make_shared<MemTable>();
  for (uint64_t number : m.segments) {
    std::shared_ptr<SegmentReader> r;
    std::string path = dir_ + "/" + SegmentFileName(number);
    if (!env_->FileExists(path)) return Status::Corruption("manifest names a missing segment: " + path);
    DBX_RETURN_IF_ERROR(FinishSegmentFile(path, number, &r));
    sv->segments.push_back(std::move(r));
  }
  manifest_ = m;
  next_file_number_ = std::max(m.next_file_number, max_number + 1);
  last_seq_.store(m.flushed_seq);
  live_keys_.store(m.live_keys);
  flushed_up_to_ = m.flushed_seq;

  // Replay: every record newer than the segments, in order. Only the newest file may end torn (older
  // ones were synced when rotated), and only at its end: a good record after a bad one is damage.
  int64_t delta = 0;
  uint64_t replayed = 0;
  for (size_t i = 0; i < wals.size(); ++i) {
    std::string path = dir_ + "/" + WalFileName(wals[i]);
    WalReadResult res;
    auto newer_after_damage = [&](std::string_view payload) -> Status {
      if (payload.size() < WriteBatchInternal::kHeader) return Status::Ok();
      uint64_t seq = DecodeFixed64(payload.data());
      if (seq <= last_seq_.load(std::memory_order_relaxed)) return Status::Ok();
      return Status::Corruption(path + ": a damaged WAL record is followed by a good newer one (sequence " +
                                std::to_string(seq) + "): not a torn tail; not opening");
    };
    Status s = ReadWalFile(
        env_, path,
        [&](std::string_view payload) -> Status {
          if (payload.size() < WriteBatchInternal::kHeader) return Status::Corruption(path + ": short WAL record");
          uint64_t seq = DecodeFixed64(payload.data());
          uint32_t count = DecodeFixed32(payload.data() + 8);
          if (count == 0) return Status::Corruption(path + ": empty WAL record");
          // A good CRC does not make the header true: ApplyBatch sizes tables by `count` and the
          // sequence arithmetic below trusts it, so it must match the entries and not overflow.
          uint32_t entries = 0;
          WriteBatchInternal::Reader check(payload);
          ValueType type;
          std::string_view key, value;
          while (check.Next(&type, &key, &value)) ++entries;
          if (check.corrupt() || entries != count || seq == 0 || seq > ~uint64_t{0} - count)
            return Status::Corruption(path + ": malformed WAL record");
          uint64_t last = last_seq_.load(std::memory_order_relaxed);
          if (seq + count - 1 <= last) return Status::Ok();  // already in the segments
          if (seq != last + 1) return Status::Corruption(path + ": WAL sequence gap");
          DBX_RETURN_IF_ERROR(ApplyBatch(*sv, payload, seq, &delta));
          last_seq_.store(seq + count - 1, std::memory_order_relaxed);
          ++replayed;
          return Status::Ok();
        },
        &res, newer_after_damage);
    DBX_RETURN_IF_ERROR(s);
    if (res.torn && i + 1 < wals.size())
      return Status::Corruption(path + ": damaged record in a WAL file that is not the newest");
  }
  live_keys_.store(static_cast<uint64_t>(static_cast<int64_t>(live_keys_.load()) + delta));

  // The replayed state goes to a segment and a new manifest (the first one of a new database),
  // which also makes every WAL file read here obsolete.
  if (replayed > 0 || !exists) {
    uint64_t number = next_file_number_++;
    std::shared_ptr<SegmentReader> r;
    if (replayed > 0)
      DBX_RETURN_IF_ERROR(
          WriteSegmentFromMemTable(*sv->active, last_seq_.load(), sv->segments.empty(), number, true, &r));
    ManifestData nm = manifest_;
    nm.next_file_number = next_file_number_;
    nm.flushed_seq = last_seq_.load();
    nm.live_keys = live_keys_.load();
    nm.log_number = next_file_number_;
    if (r != nullptr) {
      nm.segments.insert(nm.segments.begin(), number);
      sv->segments.insert(sv->segments.begin(), std::move(r));
    }
    DBX_RETURN_IF_ERROR(WriteManifest(env_, dir_, nm));
    manifest_ = nm;
    flushed_up_to_ = nm.flushed_seq;
    sv->active = std::make_shared<MemTable>();
  }
  for (uint64_t number : wals) obsolete.push_back(WalFileName(number));
  for (const std::string& name : obsolete) (void)env_->RemoveFile(dir_ + "/" + name);
  // Make the removals durable, so that a power cut cannot bring an old WAL file back.
  if (!obsolete.empty()) DBX_RETURN_IF_ERROR(env_->SyncDir(dir_));

  InstallSuperVersion(std::move(sv));
  // Under kFull, create the WAL now, so that the first commit pays only for its own fsync.
  if (options_.durability == Durability::kFull) DBX_RETURN_IF_ERROR(EnsureWal(nullptr));
  closed_ = false;
  if (options_.compaction_trigger > 0 && sv_->segments.size() >= static_cast<size_t>(options_.compaction_trigger))
    MaybeStartBackground();
  return Status::Ok();
}

Status DBImpl::Close() {
  {
    MutexLock l(&mu_);
    if (closed_) return Status::InvalidArgument("database is already closed");
    closing_ = true;
  }
  // Everything in memory goes to segments: with Durability::kNone this is what makes data durable.
  Status s = Flush();
  {
    MutexLock l(&mu_);
    shutting_down_ = true;
  }
  bg_cv_.notify_all();
  sync_cv_.notify_all();
  if (bg_thread_.joinable()) bg_thread_.join();
  if (sync_thread_.joinable()) sync_thread_.join();
  MutexLock l(&mu_);
  for (const auto& r : rotated_wals_) {  // the syncer stopped early (error): sync what is left
    Status w = r->Sync();
    if (s.ok()) s = w;
  }
  rotated_wals_.clear();
  if (wal_ != nullptr) {
    Status w = wal_->Sync();
    if (s.ok()) s = w;
    wal_.reset();
  }
  closed_ = true;
  sv_ptr_.store(nullptr, std::memory_order_seq_cst);
  sv_.reset();
  retired_.clear();  // REQUIRES of Close: no reader is running
  lock_.reset();
  return s;
}

}  // namespace dbx
