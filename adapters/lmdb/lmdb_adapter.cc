#include "adapters/lmdb/lmdb_adapter.h"

#include <lmdb.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "adapters/lmdb/lmdb_env_config.h"

#if !defined(DBXB_LIB_BUILD) || !defined(DBXB_LIB_SOURCE) || !defined(DBXB_LIB_FLAGS) || !defined(DBXB_LIB_RELEASE_DATE)
#error "DBXB_LIB_* must describe the LMDB build linked (set by cmake/thirdparty.cmake)"
#endif

namespace dbxb {
namespace {

using lmdb_internal::EnvConfig;
using lmdb_internal::EnvConfigFor;
using lmdb_internal::FilesystemBytes;
using lmdb_internal::FlagNames;
using lmdb_internal::kMapSizeKey;
using lmdb_internal::kMinMapBytes;
using lmdb_internal::kReadaheadKey;
using lmdb_internal::RoundDownToPage;

constexpr char kSettle[] = "nothing: no background work (writes are in the B-tree at commit)";

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

// *out = the bytes of v, which live in the map only until the read transaction ends. A caller reading
// values of one size into one string (every read of a fixed-size workload) gets them copied in place:
// std::string::assign takes its general path (aliasing, growth) on every call, 70 instructions for a
// 19-byte value, about 5 % of an LMDB lookup; other sizes take it too, out of line.
[[gnu::noinline]] void AssignValue(const MDB_val& v, std::string* out) {
  out->assign(static_cast<const char*>(v.mv_data), v.mv_size);
}
inline void CopyValue(const MDB_val& v, std::string* out) {
  if (v.mv_size != out->size()) [[unlikely]]
    return AssignValue(v, out);
  std::memcpy(out->data(), v.mv_data, v.mv_size);
}

// The environment, shared by the adapter and its sessions. Its map is sized once, before any session
// exists, and never changes, so no transaction has to guard against a resize (see lmdb_adapter.h).
struct LmdbEnv {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  size_t max_key = 0;
  size_t map_bytes = 0;  // the map's real size, read back after mdb_env_open
};

// What failed, with LMDB's message; MDB_MAP_FULL says how large the map is.
Status WriteError(const LmdbEnv& e, int rc, std::string_view what) {
  if (rc != MDB_MAP_FULL) return LmdbError(rc, what);
  return Status::IOError(std::string(what) + ": the LMDB map of " + std::to_string(e.map_bytes) +
                         " bytes is full (MDB_MAP_FULL; the map is sized once, at open)");
}

enum class Op { kPut, kDelete };

int Apply(const LmdbEnv& e, MDB_txn* txn, Op op, std::string_view key, std::string_view value) {
  MDB_val k = Val(key);
  if (op == Op::kDelete) {
    int rc = mdb_del(txn, e.dbi, &k, nullptr);
    return rc == MDB_NOTFOUND ? 0 : rc;
  }
  MDB_val v = Val(value);
  return mdb_put(txn, e.dbi, &k, &v, 0);
}

// The open batch's write transaction: begun by Begin and ended by Commit, Abort or destruction, so
// that no path can leave it open.
class WriteTxn {
 public:
  WriteTxn() = default;
  ~WriteTxn() { Abort(); }
  WriteTxn(const WriteTxn&) = delete;
  WriteTxn& operator=(const WriteTxn&) = delete;

  /// Begins a write transaction; on failure holds nothing and returns the LMDB error. REQUIRES: !active().
  int Begin(MDB_env* env) {
    int rc = mdb_txn_begin(env, nullptr, 0, &txn_);
    if (rc != 0) txn_ = nullptr;
    return rc;
  }
  /// Commits; the transaction is gone whatever the outcome. REQUIRES: active().
  int Commit() {
    int rc = mdb_txn_commit(txn_);
    txn_ = nullptr;
    return rc;
  }
  /// Aborts, if active.
  void Abort() {
    if (txn_ == nullptr) return;
    mdb_txn_abort(txn_);
    txn_ = nullptr;
  }
  bool active() const { return txn_ != nullptr; }
  MDB_txn* get() const { return txn_; }

 private:
  MDB_txn* txn_ = nullptr;
};

// dbx-micro's loops on the environment itself: each read in a renewed read-only transaction (the
// snapshot per read a Session gives), the insert in one write transaction.
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
      MDB_val k = Val(data.KeyInto(i, &key_)), v;
      rc = mdb_get(read_txn_, e_->dbi, &k, &v);
      const bool same = rc == 0 && data.ValueEquals(i, View(v));
      mdb_txn_reset(read_txn_);
      if (!same) return rc == 0 || rc == MDB_NOTFOUND ? NativeLoopMismatch(i, rc == 0) : LmdbError(rc, "native get");
    }
    return Status::Ok();
  }
  Status PutAll(const ReferenceData& data) override {
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
    return rc == 0 ? Status::Ok() : WriteError(*e_, rc, "native put");
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
  std::string key_;  // the key being read, built by ReferenceData::KeyInto
};

class LmdbSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(LmdbEnv* env) {
    std::unique_ptr<LmdbSession> session(new LmdbSession(env));
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
    if (key.empty() || key.size() > e_->max_key) [[unlikely]]
      return GetError(MDB_NOTFOUND);  // cannot be stored, so absent
    if (txn_.active()) return GetIn(txn_.get(), key, value);
    // Read(), written out: the session's read transaction renewed for this read and reset after it (a
    // fresh snapshot per read, as the native loop reads), with the errors out of line, so that a found
    // key costs the native loop's renew, mdb_get and reset plus the copy out of the map and little more.
    int rc = mdb_txn_renew(read_txn_);
    if (rc != 0) [[unlikely]]
      return LmdbError(rc, "renew read transaction");
    MDB_val k = Val(key), v;
    rc = mdb_get(read_txn_, e_->dbi, &k, &v);
    if (rc == 0) [[likely]]
      CopyValue(v, value);
    mdb_txn_reset(read_txn_);
    if (rc != 0) [[unlikely]]
      return GetError(rc);
    return Status::Ok();
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
    batch_error_ = Status::Ok();
    int rc = txn_.Begin(e_->env);
    return rc == 0 ? Status::Ok() : LmdbError(rc, "Begin");
  }

  Status DoCommit() override {
    if (!txn_.active()) return batch_error_;  // the batch failed earlier and is gone
    int rc = txn_.Commit();
    return rc == 0 ? Status::Ok() : WriteError(*e_, rc, "Commit");
  }

  Status DoAbort() override {
    txn_.Abort();
    return Status::Ok();
  }

  // A read inside the open batch, on its write transaction.
  Status GetIn(MDB_txn* txn, std::string_view key, std::string* value) {
    MDB_val k = Val(key), v;
    int rc = mdb_get(txn, e_->dbi, &k, &v);
    if (rc != 0) return GetError(rc);
    CopyValue(v, value);
    return Status::Ok();
  }

  // NotFound or the LMDB error: out of line, off the path of a found key.
  [[gnu::noinline]] static Status GetError(int rc) {
    return rc == MDB_NOTFOUND ? Status::NotFound() : LmdbError(rc, "Get");
  }

  // Runs fn(txn) on a fresh snapshot: the session's read transaction, renewed for the call and reset
  // after it. Inside a batch, on the write transaction instead (LMDB allows one transaction per thread).
  template <typename Fn>
  Status Read(Fn&& fn) {
    if (txn_.active()) return fn(txn_.get());
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
    const char* what = op == Op::kPut ? "Put" : "Delete";
    if (in_batch()) {
      if (!txn_.active()) return batch_error_;
      int rc = Apply(*e_, txn_.get(), op, key, value);
      // After a failed write LMDB allows only an abort of the transaction.
      return rc == 0 ? Status::Ok() : FailBatch(WriteError(*e_, rc, what));
    }
    MDB_txn* txn = nullptr;  // autocommit: one write transaction per call
    int rc = mdb_txn_begin(e_->env, nullptr, 0, &txn);
    if (rc != 0) return LmdbError(rc, what);
    rc = Apply(*e_, txn, op, key, value);
    if (rc == 0)
      rc = mdb_txn_commit(txn);  // frees the transaction whatever the outcome
    else
      mdb_txn_abort(txn);
    return rc == 0 ? Status::Ok() : WriteError(*e_, rc, what);
  }

  // Ends a failed batch: its transaction is aborted, and later writes and Commit of this batch return
  // `error` until the caller's Commit or Abort.
  Status FailBatch(Status error) {
    txn_.Abort();
    batch_error_ = error;
    return error;
  }

  LmdbEnv* e_;
  MDB_txn* read_txn_ = nullptr;        // reset while idle
  MDB_cursor* read_cursor_ = nullptr;  // bound to read_txn_, renewed per scan
  WriteTxn txn_;                       // the open batch's transaction, if any
  Status batch_error_;                 // why txn_ is gone while in_batch()
};

class LmdbAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    Result<EnvConfig> parsed = EnvConfigFor(options);
    if (!parsed.ok()) return parsed.status();
    const EnvConfig& config = parsed.value();
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());
    size_t map_bytes = config.map_bytes;
    if (map_bytes == 0) {
      Result<size_t> fs_bytes = FilesystemBytes(options.dir);
      if (!fs_bytes.ok()) return fs_bytes.status();
      map_bytes = fs_bytes.value();
    }
    map_bytes = RoundDownToPage(std::max(map_bytes, kMinMapBytes));

    std::unique_ptr<LmdbAdapter> adapter(new LmdbAdapter());
    LmdbEnv& e = adapter->env_;
    std::string& sizing = adapter->map_sizing_;
    sizing = config.map_bytes != 0 ? "lmdb.map_size" : "the filesystem's size (statvfs of the database directory)";
    // The map reserves address space only. Where there is less of it than the filesystem's size (a
    // sanitizer's reservations, a ulimit -v), mmap fails with ENOMEM: halve until it fits, then once
    // more, so that the rest of the process keeps half of what was free.
    int halvings = 0;
    int rc = 0;
    for (;;) {
      rc = mdb_env_create(&e.env);
      if (rc != 0) {
        e.env = nullptr;
        return LmdbError(rc, "mdb_env_create");
      }
      rc = mdb_env_set_mapsize(e.env, map_bytes);
      if (rc == 0) rc = mdb_env_open(e.env, options.dir.c_str(), config.flags, 0644);
      if (rc != ENOMEM || config.map_bytes != 0 || map_bytes / 2 < kMinMapBytes) break;
      mdb_env_close(e.env);  // a failed mdb_env_open leaves a handle that can only be closed
      e.env = nullptr;
      map_bytes = RoundDownToPage(map_bytes / 2);
      ++halvings;
    }
    if (rc != 0) return LmdbError(rc, "open " + options.dir);
    if (halvings > 0 && map_bytes / 2 >= kMinMapBytes) {
      // No transaction is active yet, as mdb_env_set_mapsize requires.
      rc = mdb_env_set_mapsize(e.env, RoundDownToPage(map_bytes / 2));
      if (rc != 0) return LmdbError(rc, "set map size of " + options.dir);
      ++halvings;
    }
    if (halvings > 0) {
      sizing += ", halved " + std::to_string(halvings) + " times to fit the address space: it may fill before the disk";
    } else if (config.map_bytes == 0) {
      sizing += ": without MDB_WRITEMAP the file grows with the data only, so the map cannot fill before the disk does";
    }
    adapter->opened_ = true;
    e.max_key = static_cast<size_t>(mdb_env_get_maxkeysize(e.env));
    MDB_envinfo info;
    mdb_env_info(e.env, &info);
    e.map_bytes = info.me_mapsize;  // LMDB raises a map smaller than the database's used pages to them

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
    MDB_stat stat;
    mdb_env_stat(env_.env, &stat);
    settings.emplace_back("env_flags", FlagNames(flags));
    settings.emplace_back("readahead", (flags & MDB_NORDAHEAD) != 0 ? "off" : "on");
    settings.emplace_back("map_size_bytes", std::to_string(env_.map_bytes));
    settings.emplace_back("map_sizing", map_sizing_ +
                                            "; set once at open, never grown: a write that finds it full fails "
                                            "with MDB_MAP_FULL");
    settings.emplace_back("page_size", std::to_string(stat.ms_psize));
    settings.emplace_back("max_readers", std::to_string(max_readers));
    settings.emplace_back("max_key_size", std::to_string(env_.max_key));
    settings.emplace_back("cache", "none of its own: reads go through the OS page cache");
    settings.emplace_back("read_txn", "one per session, renewed before and reset after each read");
    settings.emplace_back("write_txn", "one per batch; one per Put/Delete outside a batch");
    settings.emplace_back("settle", kSettle);
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
  bool opened_ = false;     // mdb_env_open succeeded
  std::string map_sizing_;  // where the map's size came from
};

}  // namespace

namespace {

// LMDB's compile-time key limit (MDB_MAXKEYSIZE), which an environment reports without being opened.
size_t MaxKeyBytes() {
  MDB_env* env = nullptr;
  if (mdb_env_create(&env) != 0) return 0;
  const int max = mdb_env_get_maxkeysize(env);
  mdb_env_close(env);
  return max > 0 ? static_cast<size_t>(max) : 0;
}

}  // namespace

AdapterFactory LmdbAdapterFactory() {
  AdapterFactory f;
  f.name = "lmdb";
  f.multi_process = true;  // LMDB locks its environment across processes (lock.mdb)
  f.native_loop = true;
  f.description = "LMDB: copy-on-write B+tree in a memory map, one write transaction at a time";
  f.library_version = [] {
    int major = 0, minor = 0, patch = 0;
    mdb_version(&major, &minor, &patch);
    return "LMDB " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  };
  f.library_build = [] { return std::string(DBXB_LIB_BUILD); };
  f.library_source = DBXB_LIB_SOURCE;
  f.library_flags = DBXB_LIB_FLAGS;
  f.library_release_date = DBXB_LIB_RELEASE_DATE;
  f.native_options = {
      {kReadaheadKey, "`on`, or `off` (`MDB_NORDAHEAD`)", "`on`; `off` on sqlite-vps's disk-bound data set"},
      {kMapSizeKey, "bytes, at least 1 MiB", "the size of the filesystem that holds the database"},
  };
  f.durability = {{
      {"`MDB_NOSYNC|MDB_NOMETASYNC`", {{"env_flags", "MDB_NOSYNC|MDB_NOMETASYNC|MDB_NOTLS"}}, 0},
      {"`MDB_NOMETASYNC`", {{"env_flags", "MDB_NOMETASYNC|MDB_NOTLS"}}, 1},
      {"LMDB's default (sync; the meta page also through an `O_DSYNC` descriptor, not a counted call)",
       {{"env_flags", "MDB_NOTLS"}},
       1},
  }};
  f.allows_empty_key = false;
  f.settle = kSettle;
  f.debian_packages = {"liblmdb-dev"};
  f.max_key_bytes = MaxKeyBytes();
  f.check_native_values = [](const AdapterOptions& options) { return EnvConfigFor(options).status(); };
  f.open = [](const AdapterOptions& options) { return LmdbAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
