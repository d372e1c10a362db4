#include "adapters/sqlite/sqlite_adapter.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>

#include "adapters/native_options.h"
#include "adapters/sqlite/sqlite_connection.h"
#include "adapters/sqlite/sqlite_seed_replica.h"

#if !defined(DBXB_LIB_BUILD) || !defined(DBXB_LIB_SOURCE) || !defined(DBXB_LIB_FLAGS) || !defined(DBXB_LIB_RELEASE_DATE)
#error "DBXB_LIB_* must describe the SQLite build linked (set by cmake/thirdparty.cmake)"
#endif

namespace dbxb {
namespace {

constexpr char kSettle[] = "PRAGMA wal_checkpoint(TRUNCATE)";

using sqlite_internal::ConnectionConfig;
using sqlite_internal::Exec;
using sqlite_internal::OpenConnection;
using sqlite_internal::QueryText;
using sqlite_internal::ResetOnExit;
using sqlite_internal::SqliteError;

constexpr char kFileName[] = "kv.sqlite";

// The two layouts of the key/value table (see sqlite_adapter.h for the rule that picks one).
enum class Layout { kWithoutRowid, kRowid };

const char* LayoutName(Layout layout) { return layout == Layout::kRowid ? "rowid" : "without-rowid"; }

const char* CreateTableSql(Layout layout) {
  return layout == Layout::kRowid ? "CREATE TABLE kv(k BLOB PRIMARY KEY NOT NULL, v BLOB)"
                                  : "CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID";
}

// A rowid table updates an existing key in place (UPSERT keeps its rowid and index entry); REPLACE
// would delete the row and insert it under a new rowid. In a WITHOUT ROWID table both are one write.
const char* PutSql(Layout layout) {
  return layout == Layout::kRowid ? "INSERT INTO kv(k, v) VALUES(?1, ?2) ON CONFLICT(k) DO UPDATE SET v = excluded.v"
                                  : "INSERT OR REPLACE INTO kv(k, v) VALUES(?1, ?2)";
}

// SQLite's guidance (withoutrowid.html, "When to use WITHOUT ROWID"): WITHOUT ROWID works best when the
// average row is smaller than about 1/20 of a database page; larger rows belong in an ordinary rowid
// table, where the unique index on the key stays small and the rows sit in the table's leaves.
constexpr uint64_t kWithoutRowidPageFraction = 20;
// Long enough that a writer waits out any batch of a benchmark rather than failing with SQLITE_BUSY.
constexpr int kBusyTimeoutMs = 60'000;

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

class SqliteSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(const ConnectionConfig& config, Layout layout) {
    std::unique_ptr<SqliteSession> session(new SqliteSession());
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &session->db_));
    DBXB_RETURN_IF_ERROR(session->Prepare(layout));
    return std::unique_ptr<Session>(std::move(session));
  }

  ~SqliteSession() override {
    if (db_ == nullptr) return;
    if (in_batch()) (void)Step(rollback_, "ROLLBACK");
    for (sqlite3_stmt* stmt : {put_, get_, del_, scan_, count_, begin_, commit_, rollback_}) sqlite3_finalize(stmt);
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
    int64_t sql_limit =
        (limit == 0 || limit > uint64_t{std::numeric_limits<int64_t>::max()}) ? -1 : static_cast<int64_t>(limit);
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

 private:
  SqliteSession() = default;

  Status DoBegin() override { return Step(begin_, "BEGIN IMMEDIATE"); }
  Status DoCommit() override {
    Status s = Step(commit_, "COMMIT");
    // A failed COMMIT can leave the transaction open; end it so the session is usable again.
    if (!s.ok() && sqlite3_get_autocommit(db_) == 0) (void)Step(rollback_, "ROLLBACK");
    return s;
  }
  Status DoAbort() override { return Step(rollback_, "ROLLBACK"); }

  Status Prepare(Layout layout) {
    return sqlite_internal::PrepareAll(db_, {
                                                {&put_, PutSql(layout)},
                                                {&get_, "SELECT v FROM kv WHERE k = ?1"},
                                                {&del_, "DELETE FROM kv WHERE k = ?1"},
                                                {&scan_, "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k LIMIT ?2"},
                                                {&count_, "SELECT count(*) FROM kv"},
                                                {&begin_, "BEGIN IMMEDIATE"},
                                                {&commit_, "COMMIT"},
                                                {&rollback_, "ROLLBACK"},
                                            });
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
};

// dbx-micro's loops on a connection of its own with the session's statements: autocommit reads (each
// sees the latest commit), the insert between BEGIN IMMEDIATE and COMMIT.
class SqliteNativeLoop final : public NativeLoop {
 public:
  static Result<std::unique_ptr<NativeLoop>> Open(const ConnectionConfig& config, Layout layout) {
    std::unique_ptr<SqliteNativeLoop> loop(new SqliteNativeLoop());
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &loop->db_));
    DBXB_RETURN_IF_ERROR(sqlite_internal::PrepareAll(loop->db_, {{&loop->get_, "SELECT v FROM kv WHERE k = ?1"},
                                                                 {&loop->put_, PutSql(layout)},
                                                                 {&loop->scan_, "SELECT k, v FROM kv ORDER BY k"}}));
    return std::unique_ptr<NativeLoop>(std::move(loop));
  }
  ~SqliteNativeLoop() override {
    for (sqlite3_stmt* stmt : {get_, put_, scan_}) sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }
  Status GetAll(const ReferenceData& data, const std::vector<uint64_t>& order) override {
    for (uint64_t i : order) {
      const std::string_view key = data.KeyInto(i, &key_);
      sqlite3_bind_blob64(get_, 1, key.data(), key.size(), SQLITE_STATIC);
      int rc = sqlite3_step(get_);
      const bool same = rc == SQLITE_ROW && data.ValueEquals(i, ColumnBlob(get_, 0));
      sqlite3_reset(get_);
      if (!same)
        return rc == SQLITE_ROW || rc == SQLITE_DONE ? NativeLoopMismatch(i, rc == SQLITE_ROW)
                                                     : SqliteError(db_, rc, "native get");
    }
    return Status::Ok();
  }
  Status PutAll(const ReferenceData& data) override {
    DBXB_RETURN_IF_ERROR(Exec(db_, "BEGIN IMMEDIATE"));
    for (uint64_t i = 0; i < data.size(); ++i) {
      BindBlob(put_, 1, data.key(i));
      BindBlob(put_, 2, data.value(i));
      int rc = sqlite3_step(put_);
      sqlite3_reset(put_);
      if (rc != SQLITE_DONE) {
        Status s = SqliteError(db_, rc, "native put");
        (void)Exec(db_, "ROLLBACK");
        return s;
      }
    }
    return Exec(db_, "COMMIT");
  }
  Status ScanAll(uint64_t* rows, uint64_t* byte_sum) override {
    ResetOnExit reset(scan_);
    int rc;
    while ((rc = sqlite3_step(scan_)) == SQLITE_ROW)
      AddScanRow(ColumnBlob(scan_, 0), ColumnBlob(scan_, 1), rows, byte_sum);
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, "native scan");
  }

 private:
  SqliteNativeLoop() = default;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* get_ = nullptr;
  sqlite3_stmt* put_ = nullptr;
  sqlite3_stmt* scan_ = nullptr;
  std::string key_;  // the key being read, built by ReferenceData::KeyInto
};

constexpr char kPageSizeKey[] = "sqlite.page_size";
constexpr char kMmapSizeKey[] = "sqlite.mmap_size";
constexpr char kTempStoreKey[] = "sqlite.temp_store";
constexpr char kBusyTimeoutKey[] = "sqlite.busy_timeout_ms";
constexpr char kLayoutKey[] = "sqlite.layout";

// Applies AdapterOptions::native_options with the "sqlite." prefix to *config; *page_size stays 0 and
// *layout empty when not asked for. Keys of other engines are ignored (see AdapterOptions::native_options).
Status ApplyNativeOptions(const AdapterOptions& options, ConnectionConfig* config, int64_t* page_size,
                          std::optional<Layout>* layout) {
  *page_size = 0;
  layout->reset();
  for (const auto& [key, value] : options.native_options) {
    if (key.rfind("sqlite.", 0) != 0) continue;
    int64_t v = 0;
    if (key == kLayoutKey) {
      if (value == "rowid")
        *layout = Layout::kRowid;
      else if (value == "without-rowid")
        *layout = Layout::kWithoutRowid;
      else
        return Status::InvalidArgument(key + ": expected without-rowid or rowid, got '" + value + "'");
    } else if (key == kPageSizeKey) {
      DBXB_RETURN_IF_ERROR(ParseNativeNumber<int64_t>(key, value, "an integer", 512, 65536, &v));
      if ((v & (v - 1)) != 0) return Status::InvalidArgument(key + ": not a power of two: " + value);
      *page_size = v;
    } else if (key == kMmapSizeKey) {
      DBXB_RETURN_IF_ERROR(
          ParseNativeNumber<int64_t>(key, value, "an integer", 0, std::numeric_limits<int64_t>::max(), &v));
      config->mmap_size = v;
    } else if (key == kBusyTimeoutKey) {
      DBXB_RETURN_IF_ERROR(
          ParseNativeNumber<int64_t>(key, value, "an integer", 0, std::numeric_limits<int>::max(), &v));
      config->busy_timeout_ms = static_cast<int>(v);
    } else if (key == kTempStoreKey) {
      std::string upper = value;
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (upper != "DEFAULT" && upper != "FILE" && upper != "MEMORY")
        return Status::InvalidArgument(key + ": expected default, file or memory, got '" + value + "'");
      config->temp_store = upper;
    } else {
      return Status::InvalidArgument("unknown native option '" + key + "' for engine sqlite");
    }
  }
  return Status::Ok();
}

// PRAGMA journal_mode=WAL, retried while another process (a --clients sibling) opens the same new
// file: the pragma reads under a shared lock and then needs the exclusive one, and SQLite answers
// SQLITE_BUSY at once rather than call the busy handler when two connections could wait on each other.
Result<std::string> SetWalMode(sqlite3* db, int busy_timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
  for (;;) {
    Result<std::string> mode = QueryText(db, "PRAGMA journal_mode=WAL");
    if (mode.ok() || !mode.status().IsConflict() || std::chrono::steady_clock::now() >= deadline) return mode;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

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
    config.busy_timeout_ms = kBusyTimeoutMs;
    int64_t page_size = 0;
    std::optional<Layout> forced_layout;
    DBXB_RETURN_IF_ERROR(ApplyNativeOptions(options, &config, &page_size, &forced_layout));

    std::unique_ptr<SqliteAdapter> adapter(new SqliteAdapter(config));
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &adapter->control_));
    // page_size takes effect only while the file is still empty, so before WAL mode and the first table.
    if (page_size != 0) {
      DBXB_RETURN_IF_ERROR(Exec(adapter->control_, ("PRAGMA page_size=" + std::to_string(page_size)).c_str()));
    }
    // journal_mode=WAL is a property of the file: set once here, before any session connects.
    Result<std::string> mode = SetWalMode(adapter->control_, config.busy_timeout_ms);
    if (!mode.ok()) return mode.status();
    if (*mode != "wal") return Status::IOError("SQLite refused journal_mode=WAL (got '" + *mode + "')");
    DBXB_RETURN_IF_ERROR(adapter->ChooseLayout(options, forced_layout));
    if (page_size != 0) {
      Result<std::string> actual = QueryText(adapter->control_, "PRAGMA page_size");
      if (!actual.ok()) return actual.status();
      if (*actual != std::to_string(page_size))
        return Status::InvalidArgument(std::string(kPageSizeKey) + "=" + std::to_string(page_size) +
                                       ": the database in " + options.dir + " was created with page_size " + *actual +
                                       ", which is fixed at creation");
    }
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~SqliteAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (control_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return SqliteSession::Open(config_, layout_);
  }

  // The native table rows(id INTEGER PRIMARY KEY, a, b, payload) with indexes on a and b, created on
  // first use so that suites without rows (dbx-micro) see the same file as before.
  Result<std::unique_ptr<RowSession>> NewRowSession() override {
    {
      std::lock_guard<std::mutex> lock(schema_mu_);
      if (control_ == nullptr) return Status::InvalidArgument("NewRowSession: adapter is closed");
      if (!rows_schema_created_) {
        DBXB_RETURN_IF_ERROR(Exec(control_, sqlite_internal::kCreateRowsSchema));
        rows_schema_created_ = true;
      }
    }
    return sqlite_internal::OpenRowSession(config_);
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
    Result<std::string> temp = QueryText(control_, "PRAGMA temp_store");
    static const char* const kTempNames[] = {"default", "file", "memory"};
    std::string temp_name = temp.ok() ? *temp : "error: " + temp.status().ToString();
    if (temp.ok() && temp->size() == 1 && (*temp)[0] >= '0' && (*temp)[0] <= '2')
      temp_name = kTempNames[(*temp)[0] - '0'];
    settings.emplace_back("temp_store", temp_name);
    settings.emplace_back("layout", LayoutName(layout_));
    settings.emplace_back("layout_reason", layout_reason_);
    add("table", "SELECT sql FROM sqlite_schema WHERE name = 'kv'");
    bool rows_schema_created;
    {
      std::lock_guard<std::mutex> lock(schema_mu_);
      rows_schema_created = rows_schema_created_;
    }
    if (rows_schema_created) {
      add("rows_table", "SELECT sql FROM sqlite_schema WHERE name = 'rows'");
      add("rows_index_a", "SELECT sql FROM sqlite_schema WHERE name = 'rows_a'");
      add("rows_index_b", "SELECT sql FROM sqlite_schema WHERE name = 'rows_b'");
    }
    settings.emplace_back("connection", "one per session, SQLITE_OPEN_NOMUTEX, statements prepared once");
    settings.emplace_back("batch", "BEGIN IMMEDIATE .. COMMIT / ROLLBACK");
    settings.emplace_back("threadsafe", std::to_string(sqlite3_threadsafe()));
    settings.emplace_back("settle", kSettle);
    return settings;
  }

  Result<std::unique_ptr<NativeLoop>> NewNativeLoop() override {
    if (control_ == nullptr) return Status::InvalidArgument("NewNativeLoop: adapter is closed");
    return SqliteNativeLoop::Open(config_, layout_);
  }

  // A TRUNCATE checkpoint copies every WAL frame into the database and empties the WAL, waiting
  // (busy_timeout) for readers; between phases there are none.
  Status Settle() override {
    if (control_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    int rc = sqlite3_wal_checkpoint_v2(control_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    return rc == SQLITE_OK ? Status::Ok() : SqliteError(control_, rc, "wal_checkpoint(TRUNCATE)");
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

  // The layout is fixed when the table is created: an existing table keeps its own (a forced layout it
  // does not have is InvalidArgument); a new one gets the forced layout or the one SQLite's guidance
  // picks for options.row_bytes_hint.
  // The layout the options choose, or the existing table's (reported with the same reason when they
  // agree, so that every process opening one database reports the same settings). The check and the
  // creation are one write transaction: processes opening a new database together create it once.
  Status ChooseLayout(const AdapterOptions& options, std::optional<Layout> forced) {
    if (forced.has_value()) {
      layout_ = *forced;
      layout_reason_ = std::string("forced by ") + kLayoutKey;
    } else {
      Result<std::string> page = QueryText(control_, "PRAGMA page_size");
      if (!page.ok()) return page.status();
      const uint64_t limit = std::stoull(*page) / kWithoutRowidPageFraction;
      const uint64_t row = options.row_bytes_hint;
      layout_ = row != 0 && row < limit ? Layout::kWithoutRowid : Layout::kRowid;
      layout_reason_ = row == 0
                           ? "row size unknown: SQLite's ordinary rowid table"
                           : "rows of about " + std::to_string(row) + " B " + (row < limit ? "<" : ">=") +
                                 " page_size/20 = " + std::to_string(limit) + " B (SQLite's WITHOUT ROWID guidance)";
    }
    DBXB_RETURN_IF_ERROR(Exec(control_, "BEGIN IMMEDIATE"));
    Status st = CreateOrCheckTable(options, forced);
    Status end = Exec(control_, st.ok() ? "COMMIT" : "ROLLBACK");
    return st.ok() ? end : st;
  }

  Status CreateOrCheckTable(const AdapterOptions& options, std::optional<Layout> forced) {
    Result<std::string> existing =
        QueryText(control_, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'kv'");
    if (!existing.ok()) return existing.status();
    if (existing->empty()) return Exec(control_, CreateTableSql(layout_));
    std::string upper = *existing;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const Layout found = upper.find("WITHOUT ROWID") != std::string::npos ? Layout::kWithoutRowid : Layout::kRowid;
    if (forced.has_value() && *forced != found)
      return Status::InvalidArgument(std::string(kLayoutKey) + "=" + LayoutName(*forced) + ": the database in " +
                                     options.dir + " was created with layout " + LayoutName(found) +
                                     ", which is fixed at creation");
    if (found != layout_) layout_reason_ = "the existing table's";
    layout_ = found;
    return Status::Ok();
  }

  const ConnectionConfig config_;
  Layout layout_ = Layout::kRowid;
  std::string layout_reason_;
  sqlite3* control_ = nullptr;  // used for setup and NativeSettings only
  std::mutex schema_mu_;
  bool rows_schema_created_ = false;  // GUARDED_BY(schema_mu_)
};

}  // namespace

AdapterFactory SqliteAdapterFactory() {
  AdapterFactory f;
  f.name = "sqlite";
  f.multi_process = true;  // WAL mode: several processes read and write one database (busy_timeout waits)
  f.native_loop = true;
  f.description = "SQLite: B-tree table (WITHOUT ROWID for small rows, rowid otherwise) in WAL mode";
  f.library_version = [] { return std::string("SQLite ") + sqlite3_libversion(); };
  f.library_build = [] { return std::string(DBXB_LIB_BUILD); };
  f.library_source = DBXB_LIB_SOURCE;
  f.library_flags = DBXB_LIB_FLAGS;
  f.library_release_date = DBXB_LIB_RELEASE_DATE;
  f.open = [](const AdapterOptions& options) { return SqliteAdapter::Open(options); };
  f.seed_replica = NewSqliteSeedReplica;
  f.native_options = {
      {kLayoutKey, "`without-rowid` or `rowid`: the key/value table's layout",
       "by row size: WITHOUT ROWID below page_size / 20"},
      {kPageSizeKey, "a power of two, 512 to 65536 (a new database only)", "4096; sqlite-vps 8192"},
      {kMmapSizeKey, "bytes of the file read through a mapping (0: none)", "0; sqlite-vps 256 MiB"},
      {kTempStoreKey, "`default`, `file` or `memory`", "`default`; sqlite-vps `memory`"},
      {kBusyTimeoutKey, "milliseconds a connection waits for a lock", "60000; sqlite-vps 5000"},
  };
  f.durability = {{
      {"WAL, `synchronous=OFF`", {{"journal_mode", "wal"}, {"synchronous", "off"}}, 0},
      {"WAL, `synchronous=NORMAL`", {{"journal_mode", "wal"}, {"synchronous", "normal"}}, 0},
      {"WAL, `synchronous=FULL`", {{"journal_mode", "wal"}, {"synchronous", "full"}}, 1},
  }};
  f.settle = kSettle;
  f.debian_packages = {"libsqlite3-dev"};
  f.check_native_values = [](const AdapterOptions& options) {
    ConnectionConfig config;
    int64_t page_size = 0;
    std::optional<Layout> layout;
    return ApplyNativeOptions(options, &config, &page_size, &layout);
  };
  return f;
}

}  // namespace dbxb
