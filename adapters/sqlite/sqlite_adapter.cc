#include "adapters/sqlite/sqlite_adapter.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>

namespace dbxb {
namespace {

constexpr char kFileName[] = "kv.sqlite";
constexpr char kCreateTable[] = "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID";
// Long enough that a writer waits out any batch of a benchmark rather than failing with SQLITE_BUSY.
constexpr int kBusyTimeoutMs = 60'000;

Status SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string msg(what);
  msg += ": ";
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return Status::Corruption(msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return Status::Conflict(msg);
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISUSE: return Status::InvalidArgument(msg);
    default: return Status::IOError(msg);
  }
}

// Binds without copying: every statement is stepped to completion and reset before the call that bound
// it returns, so the caller's bytes outlive their use. A non-null pointer keeps an empty view a
// zero-length BLOB rather than NULL (which the primary key would reject).
int BindBlob(sqlite3_stmt* stmt, int index, std::string_view bytes) {
  return sqlite3_bind_blob64(stmt, index, bytes.empty() ? "" : bytes.data(), bytes.size(), SQLITE_STATIC);
}

std::string_view ColumnBlob(sqlite3_stmt* stmt, int column) {
  const void* data = sqlite3_column_blob(stmt, column);
  int size = sqlite3_column_bytes(stmt, column);
  return data == nullptr ? std::string_view() : std::string_view(static_cast<const char*>(data), size);
}

// Resets a reused statement however the call using it ends.
class ResetOnExit {
 public:
  explicit ResetOnExit(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~ResetOnExit() { sqlite3_reset(stmt_); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  sqlite3_stmt* stmt_;
};

Status Exec(sqlite3* db, const char* sql) {
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : SqliteError(db, rc, sql);
}

// Runs a one-row query and returns its first column as text ("" when there is no row).
Result<std::string> QueryText(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, sql);
  std::string text;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const unsigned char* p = sqlite3_column_text(stmt, 0);
    if (p != nullptr) text = reinterpret_cast<const char*>(p);
    rc = SQLITE_DONE;
  }
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) return SqliteError(db, rc, sql);
  return text;
}

const char* SynchronousFor(Durability d) {
  switch (d) {
    case Durability::kNone: return "OFF";
    case Durability::kNormal: return "NORMAL";
    case Durability::kFull: return "FULL";
  }
  return "FULL";
}

struct ConnectionConfig {
  std::string path;
  Durability durability;
  uint64_t cache_kib;
};

// Opens a connection with the per-connection settings every connection of one adapter shares
// (synchronous, cache_size and busy_timeout are not stored in the file).
Status OpenConnection(const ConnectionConfig& config, sqlite3** out) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(config.path.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status s = SqliteError(db, rc, "open " + config.path);
    sqlite3_close(db);
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  std::string pragmas = std::string("PRAGMA synchronous=") + SynchronousFor(config.durability) +
                        "; PRAGMA cache_size=-" + std::to_string(config.cache_kib) + ";";
  Status s = Exec(db, pragmas.c_str());
  if (!s.ok()) {
    sqlite3_close(db);
    return s;
  }
  *out = db;
  return Status::Ok();
}

class SqliteSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(const ConnectionConfig& config) {
    std::unique_ptr<SqliteSession> session(new SqliteSession());
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &session->db_));
    DBXB_RETURN_IF_ERROR(session->Prepare());
    return std::unique_ptr<Session>(std::move(session));
  }

  ~SqliteSession() override {
    if (db_ == nullptr) return;
    if (in_batch_) (void)Step(rollback_, "ROLLBACK");
    for (sqlite3_stmt* stmt : {put_, get_, del_, scan_, count_, begin_, commit_, rollback_})
      sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  Status Put(std::string_view key, std::string_view value) override {
    ResetOnExit reset(put_);
    if (BindBlob(put_, 1, key) != SQLITE_OK || BindBlob(put_, 2, value) != SQLITE_OK)
      return SqliteError(db_, sqlite3_errcode(db_), "Put bind");
    return Step(put_, "Put");
  }

  Status Get(std::string_view key, std::string* value) override {
    ResetOnExit reset(get_);
    if (BindBlob(get_, 1, key) != SQLITE_OK) return SqliteError(db_, sqlite3_errcode(db_), "Get bind");
    int rc = sqlite3_step(get_);
    if (rc == SQLITE_DONE) return Status::NotFound();
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "Get");
    value->assign(ColumnBlob(get_, 0));
    return Status::Ok();
  }

  Status Delete(std::string_view key) override {
    ResetOnExit reset(del_);
    if (BindBlob(del_, 1, key) != SQLITE_OK) return SqliteError(db_, sqlite3_errcode(db_), "Delete bind");
    return Step(del_, "Delete");
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    ResetOnExit reset(scan_);
    // A negative LIMIT means no limit to SQLite.
    int64_t sql_limit = (limit == 0 || limit > uint64_t{std::numeric_limits<int64_t>::max()})
                            ? -1
                            : static_cast<int64_t>(limit);
    if (BindBlob(scan_, 1, start) != SQLITE_OK || sqlite3_bind_int64(scan_, 2, sql_limit) != SQLITE_OK)
      return SqliteError(db_, sqlite3_errcode(db_), "Scan bind");
    int rc;
    while ((rc = sqlite3_step(scan_)) == SQLITE_ROW) {
      if (!visitor(ColumnBlob(scan_, 0), ColumnBlob(scan_, 1))) return Status::Ok();
    }
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, "Scan");
  }

  Status Count(uint64_t* count) override {
    ResetOnExit reset(count_);
    int rc = sqlite3_step(count_);
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "Count");
    *count = static_cast<uint64_t>(sqlite3_column_int64(count_, 0));
    return Status::Ok();
  }

  Status Begin() override {
    if (in_batch_) return Status::InvalidArgument("Begin: a batch is already open");
    DBXB_RETURN_IF_ERROR(Step(begin_, "BEGIN IMMEDIATE"));
    in_batch_ = true;
    return Status::Ok();
  }

  Status Commit() override {
    if (!in_batch_) return Status::InvalidArgument("Commit: no batch is open");
    in_batch_ = false;
    Status s = Step(commit_, "COMMIT");
    // A failed COMMIT can leave the transaction open; end it so the session is usable again.
    if (!s.ok() && sqlite3_get_autocommit(db_) == 0) (void)Step(rollback_, "ROLLBACK");
    return s;
  }

  Status Abort() override {
    if (!in_batch_) return Status::InvalidArgument("Abort: no batch is open");
    in_batch_ = false;
    return Step(rollback_, "ROLLBACK");
  }

 private:
  SqliteSession() = default;

  Status Prepare() {
    struct {
      sqlite3_stmt** stmt;
      const char* sql;
    } statements[] = {
        {&put_, "INSERT OR REPLACE INTO kv(k, v) VALUES(?1, ?2)"},
        {&get_, "SELECT v FROM kv WHERE k = ?1"},
        {&del_, "DELETE FROM kv WHERE k = ?1"},
        {&scan_, "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k LIMIT ?2"},
        {&count_, "SELECT count(*) FROM kv"},
        {&begin_, "BEGIN IMMEDIATE"},
        {&commit_, "COMMIT"},
        {&rollback_, "ROLLBACK"},
    };
    for (auto& s : statements) {
      int rc = sqlite3_prepare_v3(db_, s.sql, -1, SQLITE_PREPARE_PERSISTENT, s.stmt, nullptr);
      if (rc != SQLITE_OK) return SqliteError(db_, rc, s.sql);
    }
    return Status::Ok();
  }

  // Steps a statement that returns no rows, then resets it.
  Status Step(sqlite3_stmt* stmt, const char* what) {
    ResetOnExit reset(stmt);
    int rc = sqlite3_step(stmt);
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, what);
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* put_ = nullptr;
  sqlite3_stmt* get_ = nullptr;
  sqlite3_stmt* del_ = nullptr;
  sqlite3_stmt* scan_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  sqlite3_stmt* rollback_ = nullptr;
  bool in_batch_ = false;
};

class SqliteAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());
    ConnectionConfig config;
    config.path = (std::filesystem::path(options.dir) / kFileName).string();
    config.durability = options.durability;
    config.cache_kib = std::max<uint64_t>(1, options.cache_bytes / 1024);

    std::unique_ptr<SqliteAdapter> adapter(new SqliteAdapter(config));
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &adapter->control_));
    // journal_mode=WAL is a property of the file: set once here, before any session connects.
    Result<std::string> mode = QueryText(adapter->control_, "PRAGMA journal_mode=WAL");
    if (!mode.ok()) return mode.status();
    if (*mode != "wal") return Status::IOError("SQLite refused journal_mode=WAL (got '" + *mode + "')");
    DBXB_RETURN_IF_ERROR(Exec(adapter->control_, kCreateTable));
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~SqliteAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (control_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return SqliteSession::Open(config_);
  }

  // Read back from the control connection, which is configured exactly like every session's.
  Settings NativeSettings() override {
    Settings settings;
    if (control_ == nullptr) return settings;
    auto add = [&](const std::string& key, const std::string& sql) {
      Result<std::string> v = QueryText(control_, sql);
      settings.emplace_back(key, v.ok() ? *v : "error: " + v.status().ToString());
    };
    add("journal_mode", "PRAGMA journal_mode");
    Result<std::string> sync = QueryText(control_, "PRAGMA synchronous");
    static const char* const kSyncNames[] = {"off", "normal", "full", "extra"};
    std::string sync_name = sync.ok() ? *sync : "error: " + sync.status().ToString();
    if (sync.ok() && sync->size() == 1 && (*sync)[0] >= '0' && (*sync)[0] <= '3')
      sync_name = kSyncNames[(*sync)[0] - '0'];
    settings.emplace_back("synchronous", sync_name);
    add("cache_size", "PRAGMA cache_size");
    settings.emplace_back("cache_scope", "per connection; one connection per session");
    add("page_size", "PRAGMA page_size");
    add("mmap_size", "PRAGMA mmap_size");
    add("wal_autocheckpoint", "PRAGMA wal_autocheckpoint");
    add("busy_timeout_ms", "PRAGMA busy_timeout");
    add("locking_mode", "PRAGMA locking_mode");
    add("table", "SELECT sql FROM sqlite_schema WHERE name = 'kv'");
    settings.emplace_back("connection", "one per session, SQLITE_OPEN_NOMUTEX, statements prepared once");
    settings.emplace_back("batch", "BEGIN IMMEDIATE .. COMMIT / ROLLBACK");
    settings.emplace_back("threadsafe", std::to_string(sqlite3_threadsafe()));
    return settings;
  }

  // Closing the last connection checkpoints the WAL into the database file.
  Status Close() override {
    if (control_ == nullptr) return Status::Ok();
    int rc = sqlite3_close(control_);
    if (rc != SQLITE_OK) return SqliteError(control_, rc, "close");
    control_ = nullptr;
    return Status::Ok();
  }

 private:
  explicit SqliteAdapter(ConnectionConfig config) : config_(std::move(config)) {}

  const ConnectionConfig config_;
  sqlite3* control_ = nullptr;  // used for setup and NativeSettings only
};

}  // namespace

AdapterFactory SqliteAdapterFactory() {
  AdapterFactory f;
  f.name = "sqlite";
  f.description = "SQLite: WITHOUT ROWID B-tree table in WAL mode, one connection per session";
  f.library_version = [] { return std::string("SQLite ") + sqlite3_libversion(); };
  f.library_build = [] { return std::string("debian-package"); };
  f.open = [](const AdapterOptions& options) { return SqliteAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
