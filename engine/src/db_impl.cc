#include "src/db_impl.h"

#include <cstring>

#include "src/db_iter.h"
#include "src/hash.h"
#include "src/key_compare.h"
#include "src/merging_iterator.h"

namespace dbx {

class DBImpl::SnapshotImpl final : public Snapshot {
 public:
  explicit SnapshotImpl(uint64_t seq) : Snapshot(seq) {}
};

const char* DurabilityName(Durability d) {
  switch (d) {
    case Durability::kNone:
      return "none";
    case Durability::kNormal:
      return "normal";
    case Durability::kFull:
      return "full";
  }
  return "unknown";
}

DBImpl::DBImpl(const Options& options, std::string dir)
    : options_(options),
      dir_(std::move(dir)),
      env_(options.env != nullptr ? options.env : Env::Default()),
      block_cache_(std::make_shared<BlockCache>(options.block_cache_bytes, epoch_)) {}

DBImpl::~DBImpl() {
  bool open;
  {
    MutexLock l(&mu_);
    open = !closed_;
  }
  if (open) (void)Close();
}

void DBImpl::InstallSuperVersion(std::shared_ptr<SuperVersion> sv) {
  std::shared_ptr<SuperVersion> old = std::move(sv_);
  sv_ = std::move(sv);
  sv_ptr_.store(sv_.get(), std::memory_order_seq_cst);
  if (old != nullptr) retired_.emplace_back(epoch_->Retire(), std::move(old));
  SweepRetired();
}

void DBImpl::SweepRetired() {
  size_t keep = 0;
  for (auto& r : retired_) {
    if (!epoch_->SafeToFree(r.first)) retired_[keep++] = std::move(r);
  }
  retired_.resize(keep);
  block_cache_->SweepRetired();
}

uint64_t DBImpl::OldestSnapshot() const {
  uint64_t oldest = last_seq_.load(std::memory_order_acquire);
  if (!snapshots_.empty() && *snapshots_.begin() < oldest) oldest = *snapshots_.begin();
  return oldest;
}

void DBImpl::PinView(std::shared_ptr<const SuperVersion>* sv, uint64_t* seq) {
  MutexLock l(&mu_);
  *sv = sv_;
  *seq = last_seq_.load(std::memory_order_acquire);
  snapshots_.insert(*seq);
}

void DBImpl::UnpinSeq(uint64_t seq) {
  MutexLock l(&mu_);
  auto it = snapshots_.find(seq);
  if (it != snapshots_.end()) snapshots_.erase(it);
}

const SuperVersion* DBImpl::AcquireView(const ReadOptions& o, uint64_t* seq) const {
  // Load the SuperVersion before the sequence and check it is still current: then it holds every
  // version <= seq, and background GC (which only affects later SuperVersions) never hid one.
  const SuperVersion* sv;
  do {
    sv = sv_ptr_.load(std::memory_order_seq_cst);
    *seq = o.snapshot != nullptr ? o.snapshot->sequence() : last_seq_.load(std::memory_order_acquire);
  } while (sv != sv_ptr_.load(std::memory_order_seq_cst));
  return sv;
}

Status DBImpl::Get(const ReadOptions& o, std::string_view key, std::string* value) {
  uint64_t hash = Hash64(key);
  Lookup result;
  Status s;
  {
    Epoch::Guard guard(epoch_.get());
    uint64_t seq;
    const SuperVersion* sv = AcquireView(o, &seq);
    if (sv == nullptr) return Status::InvalidArgument("database is closed");
    s = sv->Get(key, hash, seq, false, &result, value, nullptr);
  }
  if (!s.ok()) return s;
  return result == Lookup::kValue ? Status::Ok() : Status::NotFound();
}

std::shared_ptr<const ColumnarCache> DBImpl::CurrentCache() {
  MutexLock l(&cache_mu_);
  return columnar_;
}

std::shared_ptr<const ColumnarCache> DBImpl::CacheAt(uint64_t seq) {
  if (columnar_seq_.load(std::memory_order_acquire) != seq) return nullptr;
  MutexLock l(&cache_mu_);
  return columnar_ != nullptr && columnar_->seq() == seq ? columnar_ : nullptr;
}

std::unique_ptr<Iterator> DBImpl::NewIterator(const ReadOptions& o) {
  uint64_t want = o.snapshot != nullptr ? o.snapshot->sequence() : last_seq_.load(std::memory_order_acquire);
  if (auto c = CacheAt(want); c != nullptr) return NewCacheIterator(std::move(c));
  std::shared_ptr<const SuperVersion> sv;
  uint64_t seq;
  PinView(&sv, &seq);
  if (o.snapshot != nullptr) {
    UnpinSeq(seq);
    return NewDBIter(std::move(sv), o.snapshot->sequence(), nullptr);
  }
  return NewDBIter(std::move(sv), seq, [this, seq] { UnpinSeq(seq); });
}

Status DBImpl::ScanWith(const ReadOptions& o, std::string_view start, std::string_view end, uint64_t limit,
                        ScanFunction fn, void* ctx) {
  uint64_t want = o.snapshot != nullptr ? o.snapshot->sequence() : last_seq_.load(std::memory_order_acquire);
  if (options_.columnar_cache_bytes > 0) {
    std::shared_ptr<const ColumnarCache> c = CacheAt(want);
    if (c != nullptr) {
      // Tier 2 fast path: contiguous columns, no merging, no version resolution.
      size_t n = c->size();
      size_t i = start.empty() ? 0 : c->LowerBound(start);
      if (end.empty() && limit == 0) {
        for (; i < n; ++i)
          if (!fn(ctx, c->key(i), c->value(i))) break;
        return Status::Ok();
      }
      for (uint64_t seen = 0; i < n && (limit == 0 || seen < limit); ++i, ++seen) {
        std::string_view k = c->key(i);
        if (!end.empty() && k >= end) break;
        if (!fn(ctx, k, c->value(i))) break;
      }
      return Status::Ok();
    }
  }
  if (limit > 0 && limit <= kShortScanEntries) {
    // A short scan reads as a point read does: under the epoch guard, on the SuperVersion that was
    // current when its sequence was read, taking no DB mutex and registering no snapshot (that
    // SuperVersion's tables hold every version <= seq, whatever background work does meanwhile).
    // Short, so that it delays the freeing of replaced SuperVersions only briefly.
    Epoch::Guard guard(epoch_.get());
    uint64_t seq;
    const SuperVersion* current = AcquireView(o, &seq);
    if (current == nullptr) return Status::InvalidArgument("database is closed");
    // Not owning: the guard keeps it alive until ScanMerged returns.
    std::shared_ptr<const SuperVersion> view(std::shared_ptr<const SuperVersion>(), current);
    return ScanMerged(seq, std::move(view), start, end, limit, fn, ctx, false);
  }
  std::shared_ptr<const SuperVersion> sv;
  uint64_t seq;
  PinView(&sv, &seq);
  if (sv == nullptr) {
    UnpinSeq(seq);
    return Status::InvalidArgument("database is closed");
  }
  bool pinned = true;
  if (o.snapshot != nullptr) {
    UnpinSeq(seq);
    pinned = false;
    seq = o.snapshot->sequence();
  }
  bool full = start.empty() && end.empty() && limit == 0 && options_.columnar_cache_bytes > 0 && WorthBuildingCache();
  Status s = ScanMerged(seq, std::move(sv), start, end, limit, fn, ctx, full);
  if (pinned) UnpinSeq(seq);
  return s;
}

bool DBImpl::WorthBuildingCache() {
  const uint64_t fitted = cache_misfit_rows_.load(std::memory_order_relaxed);
  if (fitted == 0 || live_keys_.load(std::memory_order_acquire) < fitted) return true;
  // Every kRetry-th such scan builds anyway: rows may have become smaller since.
  constexpr uint64_t kRetry = 32;
  if (cache_misfit_scans_.fetch_add(1, std::memory_order_relaxed) % kRetry == kRetry - 1) return true;
  stat_cache_skips_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

Status DBImpl::ScanMerged(uint64_t seq, std::shared_ptr<const SuperVersion> sv, std::string_view start,
                          std::string_view end, uint64_t limit, ScanFunction fn, void* ctx, bool build_cache) {
  std::unique_ptr<ColumnarCache::Builder> builder;
  // One build at a time: concurrent full scans would otherwise each hold a cache-sized builder.
  bool building = build_cache && !building_cache_.exchange(true, std::memory_order_acquire);
  if (building) builder = std::make_unique<ColumnarCache::Builder>(options_.columnar_cache_bytes);
  struct BuildGuard {
    std::atomic<bool>* flag;
    ~BuildGuard() {
      if (flag != nullptr) flag->store(false, std::memory_order_release);
    }
  } guard{building ? &building_cache_ : nullptr};
  bool stopped = false;
  if (const SegmentReader* only = sv->OnlySegment(); only != nullptr) {
    // One source (a settled DB): its blocks are walked directly, with no iterator per tier.
    if (builder == nullptr) {
      DBX_RETURN_IF_ERROR(only->ScanVisible(seq, start, end, limit, fn, ctx, &stopped));
    } else {
      struct Building {
        ColumnarCache::Builder* builder;
        ScanFunction fn;
        void* ctx;
        static bool Row(void* p, std::string_view k, std::string_view v) {
          auto* b = static_cast<Building*>(p);
          b->builder->Add(k, v);
          return b->fn(b->ctx, k, v);
        }
      } building_ctx{builder.get(), fn, ctx};
      DBX_RETURN_IF_ERROR(only->ScanVisible(seq, start, end, limit, &Building::Row, &building_ctx, &stopped));
    }
    return FinishCacheBuild(builder.get(), stopped, seq);
  }
  // The version resolution of a DBIter, inline over the merged tiers: no iterator layer (and its
  // virtual calls) per row. `sv` holds the tiers until the scan returns.
  std::vector<std::unique_ptr<InternalIterator>> children;
  sv->AddIterators(&children);
  std::unique_ptr<InternalIterator> it = NewMergingIterator(std::move(children));
  if (start.empty())
    it->SeekToFirst();
  else
    it->Seek(start);
  // The key whose older versions follow (it was returned or deleted); a short one is kept inline,
  // so that a short scan allocates nothing for it.
  char skip_inline[64];
  std::string skip_long;
  std::string_view skip;
  bool skipping = false;
  for (uint64_t seen = 0; it->Valid() && (limit == 0 || seen < limit); it->Next()) {
    const std::string_view k = it->key();
    if (skipping && KeyEqual(k, skip)) continue;
    const uint64_t tag = it->tag();
    if (TagSeq(tag) > seq) continue;  // newer than the snapshot: an older version may be visible
    if (!end.empty() && k >= end) break;
    if (k.size() <= sizeof(skip_inline)) {
      std::memcpy(skip_inline, k.data(), k.size());
      skip = std::string_view(skip_inline, k.size());
    } else {
      skip_long.assign(k);
      skip = skip_long;
    }
    skipping = true;
    if (TagType(tag) == ValueType::kDelete) continue;
    const std::string_view v = it->value();
    if (builder != nullptr) builder->Add(k, v);
    ++seen;
    if (!fn(ctx, k, v)) {
      stopped = true;
      break;
    }
  }
  DBX_RETURN_IF_ERROR(it->status());
  return FinishCacheBuild(builder.get(), stopped, seq);
}

Status DBImpl::FinishCacheBuild(ColumnarCache::Builder* builder, bool stopped, uint64_t seq) {
  if (builder != nullptr && !stopped) cache_misfit_rows_.store(builder->full() ? builder->rows() : 0);
  if (builder != nullptr && !stopped && !builder->full()) {
    std::shared_ptr<const ColumnarCache> c = builder->Finish(seq);
    MutexLock l(&cache_mu_);
    if (columnar_ == nullptr || columnar_->seq() <= seq) {
      c.swap(columnar_);  // the old one is freed unlocked
      columnar_seq_.store(seq, std::memory_order_release);
    }
    stat_cache_builds_.fetch_add(1, std::memory_order_relaxed);
  }
  return Status::Ok();
}

Status DBImpl::Count(const ReadOptions& o, uint64_t* count) {
  if (o.snapshot == nullptr) {
    // Maintained exactly by the commit leader, updated once per commit group.
    *count = live_keys_.load(std::memory_order_acquire);
    return Status::Ok();
  }
  if (auto c = CacheAt(o.snapshot->sequence()); c != nullptr) {
    *count = c->size();
    return Status::Ok();
  }
  uint64_t n = 0;
  auto counter = [&n](std::string_view, std::string_view) {
    ++n;
    return true;
  };
  DBX_RETURN_IF_ERROR(Scan(o, {}, {}, 0, counter));
  *count = n;
  return Status::Ok();
}

const Snapshot* DBImpl::GetSnapshot() {
  MutexLock l(&mu_);
  uint64_t seq = last_seq_.load(std::memory_order_acquire);
  snapshots_.insert(seq);
  return new SnapshotImpl(seq);
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) {
  if (snapshot == nullptr) return;
  UnpinSeq(snapshot->sequence());
  delete static_cast<const SnapshotImpl*>(snapshot);
}

DbStats DBImpl::GetStats() {
  DbStats st;
  MutexLock l(&mu_);
  st.last_sequence = last_seq_.load();
  st.live_keys = live_keys_.load();
  if (sv_ != nullptr) {
    st.delta_entries = sv_->active->entries();
    st.frozen_deltas = sv_->frozen.size();
    st.wos_entries = sv_->wos != nullptr ? sv_->wos->table->entries() : 0;
    st.frozen_wos = sv_->frozen_wos != nullptr ? 1 : 0;
    st.segments = sv_->segments.size();
    for (const auto& s : sv_->segments) {
      st.segment_entries += s->meta().entries;
      st.segment_index_bytes += s->MemoryUsage();
    }
    st.delta_bytes = sv_->active->MemoryUsage();
    for (const FrozenDelta& d : sv_->frozen) st.frozen_delta_bytes += d.table->MemoryUsage();
    st.wos_bytes = sv_->wos != nullptr ? sv_->wos->table->MemoryUsage() : 0;
    st.frozen_wos_bytes = sv_->frozen_wos != nullptr ? sv_->frozen_wos->table->MemoryUsage() : 0;
  }
  st.write_buffer_peak_bytes = stat_write_buffer_peak_.load();
  st.write_stalls = stat_write_stalls_.load();
  st.compaction_peak_bytes = stat_compaction_peak_.load();
  st.block_cache_bytes = block_cache_->usage();
  if (auto c = CurrentCache(); c != nullptr) st.columnar_cache_bytes = c->bytes();
  st.flushes = stat_flushes_.load();
  st.compactions = stat_compactions_.load();
  st.columnar_cache_builds = stat_cache_builds_.load();
  st.columnar_cache_skips = stat_cache_skips_.load();
  st.memory_releases = stat_memory_releases_.load();
  st.block_cache_hits = block_cache_->hits();
  st.block_cache_misses = block_cache_->misses();
  st.wal_syncs = stat_wal_syncs_.load();
  return st;
}

}  // namespace dbx
