// Internal to the SQLite adapter (adapters/sqlite/*.cc only): opening a configured connection, error
// mapping and statement helpers shared by the key/value session and the native row session.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/row_session.h"
#include "common/status.h"

namespace dbxb::sqlite_internal {

/// The settings every connection of one adapter shares. synchronous, cache_size, mmap_size,
/// temp_store and busy_timeout are per connection in SQLite, so each connection applies them at open.
struct ConnectionConfig {
  std::string path;
  Durability durability = Durability::kNormal;
  uint64_t cache_kib = 0;
  int busy_timeout_ms = 60'000;
  std::optional<int64_t> mmap_size;       ///< PRAGMA mmap_size, when asked for
  std::optional<std::string> temp_store;  ///< PRAGMA temp_store (DEFAULT, FILE or MEMORY), when asked for
};

/// Maps a SQLite result code to a Status whose message names `what` and SQLite's error text.
Status SqliteError(sqlite3* db, int rc, std::string_view what);

/// Runs SQL that returns no rows.
Status Exec(sqlite3* db, const char* sql);

/// Runs a one-row query and returns its first column as text ("" when there is no row).
Result<std::string> QueryText(sqlite3* db, const std::string& sql);

/// Opens a read-write connection (created if missing, SQLITE_OPEN_NOMUTEX) with `config` applied.
Status OpenConnection(const ConnectionConfig& config, sqlite3** out);

/// Prepares each (statement, sql) pair with SQLITE_PREPARE_PERSISTENT.
Status PrepareAll(sqlite3* db, const std::vector<std::pair<sqlite3_stmt**, const char*>>& statements);

/// Resets a reused statement however the call using it ends.
class ResetOnExit {
 public:
  explicit ResetOnExit(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~ResetOnExit() { sqlite3_reset(stmt_); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  sqlite3_stmt* stmt_;
};

/// The DDL of the native row table and its two indexes (idempotent).
extern const char kCreateRowsSchema[];

/// Opens a native row session (sqlite_row_session.cc) on a new connection.
/// REQUIRES: kCreateRowsSchema has been run on the database.
Result<std::unique_ptr<RowSession>> OpenRowSession(const ConnectionConfig& config);

}  // namespace dbxb::sqlite_internal
