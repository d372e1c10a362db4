#include "adapters/lmdb/lmdb_adapter.h"

#include <lmdb.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "adapters/lmdb/map_gate.h"

namespace dbxb {
namespace {

using lmdb_internal::MapGate;
using lmdb_internal::SharedHold;

constexpr size_t kMinMapBytes = size_t{1} << 20;

Status LmdbError(int rc, std::string_view what) {
  std::string msg = std::string(what) + ": " + mdb_strerror(rc);
  switch (rc) {
    case MDB_CORRUPTED:
    case MDB_PAGE_NOTFOUND:
    case MDB_INVALID:
    case MDB_VERSION_MISMATCH:
      return Status::Corruption(msg);
    case MDB_BAD_VALSIZE:
    case EINVAL:
      return Status::InvalidArgument(msg);
    default:
      return Status::IOError(msg);
  }
}

MDB_val Val(std::string_view bytes) { return MDB_val{bytes.size(), const_cast<char*>(bytes.data())}; }
std::string_view View(const MDB_val& v) { return {static_cast<const char*>(v.mv_data), v.mv_size}; }

// The environment, shared by the adapter and its sessions.
struct LmdbEnv {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  size_t max_key = 0;
  MapGate gate;

  // REQUIRES: the gate is held (shared or exclusive).
  size_t MapSize() const {
    MDB_envinfo info;
    mdb_env_info(env, &info);
    return info.me_mapsize;
  }

  // Doubles the map, unless another session already grew it since `seen_map_size` was read.
  // REQUIRES: the calling thread holds no transaction and does not hold the gate.
  Status Grow(size_t seen_map_size) {
    gate.LockExclusive();
    int rc = 0;
    if (MapSize() == seen_map_size) rc = mdb_env_set_mapsize(env, seen_map_size * 2);
    gate.UnlockExclusive();
    return rc == 0 ? Status::Ok() : LmdbError(rc, "grow map");
  }
};

enum class Op : char { kPut = 'P', kDelete = 'D' };

int Apply(const LmdbEnv& e, MDB_txn* txn, Op op, std::string_view key, std::string_view value) {
  MDB_val k = Val(key);
  if (op == Op::kDelete) {
    int rc = mdb_del(txn, e.dbi, &k, nullptr);
    return rc == MDB_NOTFOUND ? 0 : rc;
  }
  MDB_val v = Val(value);
  return mdb_put(txn, e.dbi, &k, &v, 0);
}

// A batch's writes in order, kept until Commit so the batch can be replayed after growing the map.
class BatchLog {
 public:
  void Clear() { bytes_.clear(); }
  void Append(Op op, std::string_view key, std::string_view value) {
    uint64_t sizes[2] = {key.size(), value.size()};
    bytes_.push_back(static_cast<char>(op));
    bytes_.append(reinterpret_cast<const char*>(sizes), sizeof(sizes));
    bytes_.append(key);
    bytes_.append(value);
  }
  // Calls fn(op, key, value) for each write in order; stops at and returns the first non-zero result.
  template <typename Fn>
  int ForEach(Fn&& fn) const {
    size_t pos = 0;
    while (pos < bytes_.size()) {
      Op op = static_cast<Op>(bytes_[pos]);
      uint64_t sizes[2];
      std::memcpy(sizes, bytes_.data() + pos + 1, sizeof(sizes));
      pos += 1 + sizeof(sizes);
      std::string_view key(bytes_.data() + pos, sizes[0]);
      std::string_view value(bytes_.data() + pos + sizes[0], sizes[1]);
      pos += sizes[0] + sizes[1];
      if (int rc = fn(op, key, value); rc != 0) return rc;
    }
    return 0;
  }

 private:
  std::string bytes_;
};

// A write transaction together with its shared hold on the map gate: both are taken by Begin and
// released together by Commit, Abort or destruction, so that no path can keep one without the other.
class WriteTxn {
 public:
  WriteTxn() = default;
  ~WriteTxn() { Abort(); }
  WriteTxn(const WriteTxn&) = delete;
  WriteTxn& operator=(const WriteTxn&) = delete;

  /// Takes the gate shared and begins a write transaction; on failure holds nothing and returns the
  /// LMDB error. REQUIRES: !active().
  int Begin(LmdbEnv* env) {
    env->gate.LockShared();
    int rc = mdb_txn_begin(env->env, nullptr, 0, &txn_);
    if (rc != 0) {
      txn_ = nullptr;
      env->gate.UnlockShared();
      return rc;
    }
    env_ = env;
    return 0;
  }
  /// Commits, then releases the transaction and the gate whatever the outcome. REQUIRES: active().
  int Commit() {
    int rc = mdb_txn_commit(txn_);
    Release();
    return rc;
  }
  /// Aborts and releases both, if active.
  void Abort() {
    if (txn_ == nullptr) return;
    mdb_txn_abort(txn_);
    Release();
  }
  bool active() const { return txn_ != nullptr; }
  MDB_txn* get() const { return txn_; }

 private:
  void Release() {
    txn_ = nullptr;
    env_->gate.UnlockShared();
    env_ = nullptr;
  }

  LmdbEnv* env_ = nullptr;
  MDB_txn* txn_ = nullptr;
};

// dbx-micro's loops on the environment itself: each read in a renewed read-only transaction (the
// snapshot per read a Session gives), the insert in one write transaction. No map gate: calibration
// writes nothing while it reads, and grows the map itself on MDB_MAP_FULL.
class LmdbNativeLoop final : public NativeLoop {
 public:
  explicit LmdbNativeLoop(LmdbEnv* env) : e_(env) {}
  ~LmdbNativeLoop() override {
    if (read_txn_ != nullptr) mdb_txn_abort(read_txn_);
  }
  Status GetAll(const ReferenceData& data, const std::vector<uint64_t>& order) override {
    DBXB_RETURN_IF_ERROR(EnsureReadTxn());
    for (uint64_t i : order) {
      int rc = mdb_txn_renew(read_txn_);
      if (rc != 0) return LmdbError(rc, "native renew");
      MDB_val k = Val(data.key(i)), v;
      rc = mdb_get(read_txn_, e_->dbi, &k, &v);
      const bool same = rc == 0 && View(v) == data.value(i);
      mdb_txn_reset(read_txn_);
      if (!same) return rc == 0 || rc == MDB_NOTFOUND ? NativeLoopMismatch(i, rc == 0) : LmdbError(rc, "native get");
    }
    return Status::Ok();
  }
  Status PutAll(const ReferenceData& data) override {
    for (;;) {
      const size_t seen = e_->MapSize();
      MDB_txn* txn = nullptr;
      int rc = mdb_txn_begin(e_->env, nullptr, 0, &txn);
      if (rc != 0) return LmdbError(rc, "native begin");
      for (uint64_t i = 0; i < data.size() && rc == 0; ++i) {
        MDB_val k = Val(data.key(i)), v = Val(data.value(i));
        rc = mdb_put(txn, e_->dbi, &k, &v, 0);
      }
      if (rc == 0)
        rc = mdb_txn_commit(txn);  // frees the transaction whatever the outcome
      else
        mdb_txn_abort(txn);
      if (rc != MDB_MAP_FULL) return rc == 0 ? Status::Ok() : LmdbError(rc, "native put");
      DBXB_RETURN_IF_ERROR(e_->Grow(seen));
    }
  }
  Status ScanAll(uint64_t* rows, uint64_t* byte_sum) override {
    DBXB_RETURN_IF_ERROR(EnsureReadTxn());
    int rc = mdb_txn_renew(read_txn_);
    if (rc != 0) return LmdbError(rc, "native renew");
    MDB_cursor* cursor = nullptr;
    rc = mdb_cursor_open(read_txn_, e_->dbi, &cursor);
    MDB_val k, v;
    for (rc = rc != 0 ? rc : mdb_cursor_get(cursor, &k, &v, MDB_FIRST); rc == 0;
         rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT))
      AddScanRow(View(k), View(v), rows, byte_sum);
    if (cursor != nullptr) mdb_cursor_close(cursor);
    mdb_txn_reset(read_txn_);
    return rc == MDB_NOTFOUND ? Status::Ok() : LmdbError(rc, "native scan");
  }

 private:
  Status EnsureReadTxn() {
    if (read_txn_ != nullptr) return Status::Ok();
    int rc = mdb_txn_begin(e_->env, nullptr, MDB_RDONLY, &read_txn_);
    if (rc != 0) {
      read_txn_ = nullptr;
      return LmdbError(rc, "native read transaction");
    }
    mdb_txn_reset(read_txn_);
    return Status::Ok();
  }

  LmdbEnv* e_;
  MDB_txn* read_txn_ = nullptr;
};

class LmdbSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(LmdbEnv* env) {
    std::unique_ptr<LmdbSession> session(new LmdbSession(env));
    SharedHold hold(&env->gate);
    int rc = mdb_txn_begin(env->env, nullptr, MDB_RDONLY, &session->read_txn_);
    if (rc != 0) return LmdbError(rc, "begin read transaction");
    rc = mdb_cursor_open(session->read_txn_, env->dbi, &session->read_cursor_);
    mdb_txn_reset(session->read_txn_);
    if (rc != 0) return LmdbError(rc, "open cursor");
    return std::unique_ptr<Session>(std::move(session));
  }

  ~LmdbSession() override {
    txn_.Abort();
    if (read_cursor_ != nullptr) mdb_cursor_close(read_cursor_);
    if (read_txn_ != nullptr) mdb_txn_abort(read_txn_);
  }

  Status Put(std::string_view key, std::string_view value) override {
    if (key.empty()) return Status::InvalidArgument("LMDB does not allow an empty key");
    if (key.size() > e_->max_key)
      return Status::InvalidArgument("key longer than LMDB's maximum of " + std::to_string(e_->max_key));
    return Write(Op::kPut, key, value);
  }

  Status Delete(std::string_view key) override {
    if (key.empty() || key.size() > e_->max_key) return Status::Ok();  // cannot be stored, so absent
    return Write(Op::kDelete, key, {});
  }

  Status Get(std::string_view key, std::string* value) override {
    if (key.empty() || key.size() > e_->max_key) return Status::NotFound();
    return Read([&](MDB_txn* txn) {
      MDB_val k = Val(key), v;
      int rc = mdb_get(txn, e_->dbi, &k, &v);
      if (rc == MDB_NOTFOUND) return Status::NotFound();
      if (rc != 0) return LmdbError(rc, "Get");
      value->assign(View(v));
      return Status::Ok();
    });
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    return Read([&](MDB_txn* txn) {
      MDB_cursor* cursor = read_cursor_;
      int rc = txn == read_txn_ ? mdb_cursor_renew(txn, cursor) : mdb_cursor_open(txn, e_->dbi, &cursor);
      if (rc != 0) return LmdbError(rc, "Scan cursor");
      Status s = ScanWith(cursor, start, limit, visitor);
      if (cursor != read_cursor_) mdb_cursor_close(cursor);
      return s;
    });
  }

  Status Count(uint64_t* count) override {
    return Read([&](MDB_txn* txn) {
      MDB_stat stat;
      int rc = mdb_stat(txn, e_->dbi, &stat);
      if (rc != 0) return LmdbError(rc, "Count");
      *count = stat.ms_entries;
      return Status::Ok();
    });
  }

 private:
  explicit LmdbSession(LmdbEnv* env) : e_(env) {}

  Status DoBegin() override {
    log_.Clear();
    batch_error_ = Status::Ok();
    int rc = txn_.Begin(e_);
    return rc == 0 ? Status::Ok() : LmdbError(rc, "Begin");
  }

  Status DoCommit() override {
    if (!txn_.active()) return batch_error_;  // the batch failed earlier and is gone
    for (;;) {
      size_t seen = e_->MapSize();
      int rc = txn_.Commit();
      if (rc != MDB_MAP_FULL) {
        log_.Clear();
        return rc == 0 ? Status::Ok() : LmdbError(rc, "Commit");
      }
      DBXB_RETURN_IF_ERROR(GrowAndReplay(seen));
    }
  }

  Status DoAbort() override {
    txn_.Abort();
    log_.Clear();
    return Status::Ok();
  }

  // Runs fn(txn) on a fresh snapshot: the session's read transaction, renewed for the call and reset
  // after it. Inside a batch, on the write transaction instead (LMDB allows one transaction per thread).
  template <typename Fn>
  Status Read(Fn&& fn) {
    if (txn_.active()) return fn(txn_.get());
    SharedHold hold(&e_->gate);
    int rc = mdb_txn_renew(read_txn_);
    if (rc != 0) return LmdbError(rc, "renew read transaction");
    Status s = fn(read_txn_);
    mdb_txn_reset(read_txn_);
    return s;
  }

  Status ScanWith(MDB_cursor* cursor, std::string_view start, uint64_t limit, ScanVisitor visitor) {
    // LMDB cannot seek to an empty key or to one longer than its maximum: seek to the first key, or to
    // the longest allowed prefix of `start` and skip the keys that sort before `start`.
    MDB_val k = Val(start.substr(0, e_->max_key)), v;
    int rc = mdb_cursor_get(cursor, &k, &v, start.empty() ? MDB_FIRST : MDB_SET_RANGE);
    while (rc == 0 && start.size() > e_->max_key && View(k) < start) rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT);
    for (uint64_t seen = 0; rc == 0; rc = mdb_cursor_get(cursor, &k, &v, MDB_NEXT)) {
      if (limit != 0 && seen == limit) return Status::Ok();
      ++seen;
      if (!visitor(View(k), View(v))) return Status::Ok();
    }
    return rc == MDB_NOTFOUND ? Status::Ok() : LmdbError(rc, "Scan");
  }

  Status Write(Op op, std::string_view key, std::string_view value) {
    if (in_batch()) return BatchWrite(op, key, value);
    for (;;) {  // autocommit: one write transaction per call
      size_t seen;
      int rc;
      {
        SharedHold hold(&e_->gate);
        seen = e_->MapSize();
        MDB_txn* txn = nullptr;
        rc = mdb_txn_begin(e_->env, nullptr, 0, &txn);
        if (rc == 0) {
          rc = Apply(*e_, txn, op, key, value);
          if (rc == 0) {
            rc = mdb_txn_commit(txn);
          } else {
            mdb_txn_abort(txn);
          }
        }
      }
      if (rc != MDB_MAP_FULL) return rc == 0 ? Status::Ok() : LmdbError(rc, op == Op::kPut ? "Put" : "Delete");
      DBXB_RETURN_IF_ERROR(e_->Grow(seen));
    }
  }

  Status BatchWrite(Op op, std::string_view key, std::string_view value) {
    if (!txn_.active()) return batch_error_;
    for (;;) {
      int rc = Apply(*e_, txn_.get(), op, key, value);
      if (rc == 0) break;
      if (rc != MDB_MAP_FULL) return FailBatch(LmdbError(rc, op == Op::kPut ? "Put" : "Delete"));
      size_t seen = e_->MapSize();
      txn_.Abort();
      DBXB_RETURN_IF_ERROR(GrowAndReplay(seen));
    }
    log_.Append(op, key, value);
    return Status::Ok();
  }

  // The batch's transaction has ended with MDB_MAP_FULL: grow the map, start a new transaction and
  // replay the batch's writes so far, as often as needed. REQUIRES: !txn_.active().
  Status GrowAndReplay(size_t seen) {
    for (;;) {
      if (Status grown = e_->Grow(seen); !grown.ok()) return FailBatch(grown);
      if (int rc = txn_.Begin(e_); rc != 0) return FailBatch(LmdbError(rc, "Begin (after growing the map)"));
      seen = e_->MapSize();
      int rc =
          log_.ForEach([&](Op op, std::string_view k, std::string_view v) { return Apply(*e_, txn_.get(), op, k, v); });
      if (rc == 0) return Status::Ok();
      txn_.Abort();
      if (rc != MDB_MAP_FULL) return FailBatch(LmdbError(rc, "replay batch"));
    }
  }

  // Ends a failed batch: its transaction is aborted, and later writes and Commit of this batch return
  // `error` until the caller's Commit or Abort.
  Status FailBatch(Status error) {
    txn_.Abort();
    log_.Clear();
    batch_error_ = error;
    return error;
  }

  LmdbEnv* e_;
  MDB_txn* read_txn_ = nullptr;        // reset while idle
  MDB_cursor* read_cursor_ = nullptr;  // bound to read_txn_, renewed per scan
  WriteTxn txn_;                       // the open batch's transaction (and gate hold), if any
  Status batch_error_;                 // why txn_ is gone while in_batch()
  BatchLog log_;
};

unsigned EnvFlagsFor(Durability d) {
  switch (d) {
    case Durability::kNone:
      return MDB_NOTLS | MDB_NOSYNC | MDB_NOMETASYNC;
    case Durability::kNormal:
      return MDB_NOTLS | MDB_NOMETASYNC;
    case Durability::kFull:
      return MDB_NOTLS;
  }
  return MDB_NOTLS;
}

std::string FlagNames(unsigned flags) {
  static const struct {
    unsigned flag;
    const char* name;
  } kFlags[] = {
      {MDB_FIXEDMAP, "MDB_FIXEDMAP"},   {MDB_NOSUBDIR, "MDB_NOSUBDIR"},     {MDB_NOSYNC, "MDB_NOSYNC"},
      {MDB_RDONLY, "MDB_RDONLY"},       {MDB_NOMETASYNC, "MDB_NOMETASYNC"}, {MDB_WRITEMAP, "MDB_WRITEMAP"},
      {MDB_MAPASYNC, "MDB_MAPASYNC"},   {MDB_NOTLS, "MDB_NOTLS"},           {MDB_NOLOCK, "MDB_NOLOCK"},
      {MDB_NORDAHEAD, "MDB_NORDAHEAD"}, {MDB_NOMEMINIT, "MDB_NOMEMINIT"},
  };
  std::string names;
  for (const auto& f : kFlags) {
    if ((flags & f.flag) == 0) continue;
    if (!names.empty()) names += '|';
    names += f.name;
  }
  return names.empty() ? "0" : names;
}

constexpr char kReadaheadKey[] = "lmdb.readahead";

// Applies AdapterOptions::native_options with the "lmdb." prefix to the environment flags. One today:
// lmdb.readahead = on (LMDB's default) | off (MDB_NORDAHEAD: the OS does not read ahead around the
// page a random read faults in, which LMDB recommends once the database is larger than RAM).
Status ApplyNativeOptions(const AdapterOptions& options, unsigned* flags) {
  for (const auto& [key, value] : options.native_options) {
    if (key.rfind("lmdb.", 0) != 0) continue;
    if (key != kReadaheadKey) return Status::InvalidArgument("unknown native option '" + key + "' for engine lmdb");
    if (value == "off")
      *flags |= MDB_NORDAHEAD;
    else if (value == "on")
      *flags &= ~static_cast<unsigned>(MDB_NORDAHEAD);
    else
      return Status::InvalidArgument(key + ": expected on or off, got '" + value + "'");
  }
  return Status::Ok();
}

class LmdbAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    unsigned flags = EnvFlagsFor(options.durability);
    DBXB_RETURN_IF_ERROR(ApplyNativeOptions(options, &flags));
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());

    std::unique_ptr<LmdbAdapter> adapter(new LmdbAdapter());
    LmdbEnv& e = adapter->env_;
    int rc = mdb_env_create(&e.env);
    if (rc != 0) return LmdbError(rc, "mdb_env_create");
    // An existing database larger than this keeps its size: LMDB never maps less than the used pages.
    size_t map_bytes = std::max<uint64_t>(kMinMapBytes, 2 * options.cache_bytes);
    rc = mdb_env_set_mapsize(e.env, map_bytes);
    if (rc == 0) rc = mdb_env_open(e.env, options.dir.c_str(), flags, 0644);
    if (rc != 0) return LmdbError(rc, "open " + options.dir);
    adapter->opened_ = true;
    e.max_key = static_cast<size_t>(mdb_env_get_maxkeysize(e.env));

    MDB_txn* txn = nullptr;
    rc = mdb_txn_begin(e.env, nullptr, 0, &txn);
    if (rc != 0) return LmdbError(rc, "open main database");
    rc = mdb_dbi_open(txn, nullptr, 0, &e.dbi);
    if (rc != 0) {
      mdb_txn_abort(txn);
      return LmdbError(rc, "open main database");
    }
    rc = mdb_txn_commit(txn);
    if (rc != 0) return LmdbError(rc, "open main database");
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~LmdbAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (env_.env == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return LmdbSession::Open(&env_);
  }

  Result<std::unique_ptr<NativeLoop>> NewNativeLoop() override {
    if (env_.env == nullptr) return Status::InvalidArgument("NewNativeLoop: adapter is closed");
    return std::unique_ptr<NativeLoop>(new LmdbNativeLoop(&env_));
  }

  Settings NativeSettings() override {
    Settings settings;
    if (env_.env == nullptr) return settings;
    unsigned flags = 0;
    mdb_env_get_flags(env_.env, &flags);
    unsigned max_readers = 0;
    mdb_env_get_maxreaders(env_.env, &max_readers);
    MDB_envinfo info;
    MDB_stat stat;
    {
      SharedHold hold(&env_.gate);
      mdb_env_info(env_.env, &info);
      mdb_env_stat(env_.env, &stat);
    }
    settings.emplace_back("env_flags", FlagNames(flags));
    settings.emplace_back("readahead", (flags & MDB_NORDAHEAD) != 0 ? "off" : "on");
    settings.emplace_back("map_size_bytes", std::to_string(info.me_mapsize));
    settings.emplace_back("map_growth", "doubles on MDB_MAP_FULL; starts at max(1 MiB, 2 x cache_bytes)");
    settings.emplace_back("page_size", std::to_string(stat.ms_psize));
    settings.emplace_back("max_readers", std::to_string(max_readers));
    settings.emplace_back("max_key_size", std::to_string(env_.max_key));
    settings.emplace_back("cache", "none of its own: reads go through the OS page cache");
    settings.emplace_back("read_txn", "one per session, renewed before and reset after each read");
    settings.emplace_back("write_txn", "one per batch; one per Put/Delete outside a batch");
    settings.emplace_back("settle", "nothing: no background work (writes are in the B-tree at commit)");
    return settings;
  }

  // A forced sync first, so that even with MDB_NOSYNC a clean Close leaves everything on disk.
  Status Close() override {
    if (env_.env == nullptr) return Status::Ok();
    int rc = opened_ ? mdb_env_sync(env_.env, 1) : 0;
    mdb_env_close(env_.env);
    env_.env = nullptr;
    return rc == 0 ? Status::Ok() : LmdbError(rc, "sync on close");
  }

 private:
  LmdbAdapter() = default;

  LmdbEnv env_;
  bool opened_ = false;  // mdb_env_open succeeded
};

}  // namespace

AdapterFactory LmdbAdapterFactory() {
  AdapterFactory f;
  f.name = "lmdb";
  f.native_loop = true;
  f.description = "LMDB: copy-on-write B+tree in a memory map, one write transaction at a time";
  f.library_version = [] {
    int major = 0, minor = 0, patch = 0;
    mdb_version(&major, &minor, &patch);
    return "LMDB " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  };
  f.library_build = [] { return std::string("debian-package"); };
  f.native_option_keys = {kReadaheadKey};
  f.open = [](const AdapterOptions& options) { return LmdbAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
