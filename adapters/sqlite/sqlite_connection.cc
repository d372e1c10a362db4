#include "adapters/sqlite/sqlite_connection.h"

namespace dbxb::sqlite_internal {

// The index on a is declared on (a) alone: SQLite appends the rowid (= id) to every index record, so
// the index is already ordered by (a, id) and an `ORDER BY a, id` range read needs no sort.
const char kCreateRowsSchema[] =
    "CREATE TABLE IF NOT EXISTS rows(id INTEGER PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL, "
    "payload TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS rows_a ON rows(a);"
    "CREATE INDEX IF NOT EXISTS rows_b ON rows(b);";

Status SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string msg(what);
  msg += ": ";
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(msg);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Conflict(msg);
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISUSE:
      return Status::InvalidArgument(msg);
    default:
      return Status::IOError(msg);
  }
}

Status Exec(sqlite3* db, const char* sql) {
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : SqliteError(db, rc, sql);
}

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

namespace {

const char* SynchronousFor(Durability d) {
  switch (d) {
    case Durability::kNone:
      return "OFF";
    case Durability::kNormal:
      return "NORMAL";
    case Durability::kFull:
      return "FULL";
  }
  return "FULL";
}

}  // namespace

Status OpenConnection(const ConnectionConfig& config, sqlite3** out) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(config.path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  if (rc != SQLITE_OK) {
    Status s = SqliteError(db, rc, "open " + config.path);
    sqlite3_close(db);
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  sqlite3_busy_timeout(db, config.busy_timeout_ms);
  std::string pragmas = std::string("PRAGMA synchronous=") + SynchronousFor(config.durability) +
                        "; PRAGMA cache_size=-" + std::to_string(config.cache_kib) + ";";
  if (config.mmap_size.has_value()) pragmas += " PRAGMA mmap_size=" + std::to_string(*config.mmap_size) + ";";
  if (config.temp_store.has_value()) pragmas += " PRAGMA temp_store=" + *config.temp_store + ";";
  Status s = Exec(db, pragmas.c_str());
  if (!s.ok()) {
    sqlite3_close(db);
    return s;
  }
  *out = db;
  return Status::Ok();
}

Status PrepareAll(sqlite3* db, const std::vector<std::pair<sqlite3_stmt**, const char*>>& statements) {
  for (const auto& [stmt, sql] : statements) {
    int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, stmt, nullptr);
    if (rc != SQLITE_OK) return SqliteError(db, rc, sql);
  }
  return Status::Ok();
}

}  // namespace dbxb::sqlite_internal
