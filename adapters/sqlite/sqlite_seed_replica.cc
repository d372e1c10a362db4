// The seed's SQLite benchmark (official_db_comparison.rs, through rusqlite 0.32) written against the C
// API the way rusqlite runs it: Connection::open_in_memory is sqlite3_open_v2(":memory:",
// READWRITE|CREATE|URI|NOMUTEX); Connection::execute and query_row prepare, bind, step and finalize the
// statement on every call (rusqlite caches statements only for prepare_cached, which the seed does not
// use); Vec<u8> parameters are bound as BLOBs (copied: SQLITE_TRANSIENT) and read back as copies.
//   insert  open_in_memory, CREATE TABLE bench (key BLOB PRIMARY KEY, value BLOB), one autocommit
//           INSERT per row, close: all inside the body
//   get     one query_row("SELECT value FROM bench WHERE key = ?1") per key, the value copied out
//   scan    prepare "SELECT key, value FROM bench", every row copied into a vector as rusqlite 0.32's
//           query_map with row.get::<_, Vec<u8>>(i) does it (ScanAll)
#include "adapters/sqlite/sqlite_seed_replica.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dbxb {
namespace {

constexpr const char* kCreate = "CREATE TABLE bench (key BLOB PRIMARY KEY, value BLOB)";
constexpr const char* kInsert = "INSERT INTO bench (key, value) VALUES (?1, ?2)";
constexpr const char* kGet = "SELECT value FROM bench WHERE key = ?1";
constexpr const char* kScan = "SELECT key, value FROM bench";

using Rows = std::vector<std::pair<std::string, std::string>>;
using Blob = std::vector<uint8_t>;

Status Error(sqlite3* db, const char* what) {
  return Status::IOError(std::string("sqlite seed replica: ") + what + ": " + sqlite3_errmsg(db));
}

// Connection::open_in_memory.
Status OpenInMemory(sqlite3** db) {
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(":memory:", db, flags, nullptr) != SQLITE_OK) {
    Status s = Error(*db, "open");
    sqlite3_close(*db);
    *db = nullptr;
    return s;
  }
  return Status::Ok();
}

// Connection::execute: prepare, bind the BLOBs, step to the end, finalize.
Status Execute(sqlite3* db, const char* sql, const std::string* a = nullptr, const std::string* b = nullptr) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) return Error(db, "prepare");
  if (a != nullptr) sqlite3_bind_blob(stmt, 1, a->data(), static_cast<int>(a->size()), SQLITE_TRANSIENT);
  if (b != nullptr) sqlite3_bind_blob(stmt, 2, b->data(), static_cast<int>(b->size()), SQLITE_TRANSIENT);
  const int rc = sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  return rc == SQLITE_DONE ? Status::Ok() : Error(db, "step");
}

// The seed's insert loop into a fresh in-memory database (`db` is opened here, closed by the caller).
Status CreateAndInsert(sqlite3* db, const Rows& rows) {
  DBXB_RETURN_IF_ERROR(Execute(db, kCreate));
  for (const auto& [key, value] : rows) DBXB_RETURN_IF_ERROR(Execute(db, kInsert, &key, &value));
  return Status::Ok();
}

// row.get::<_, Vec<u8>>(col) in rusqlite 0.32: the index check, the type, then the copy.
Status GetBlob(sqlite3_stmt* stmt, int col, Blob* out) {
  if (col >= sqlite3_column_count(stmt)) return Status::InvalidArgument("sqlite seed replica: column index");
  if (sqlite3_column_type(stmt, col) != SQLITE_BLOB) return Status::InvalidArgument("sqlite seed replica: not a BLOB");
  const auto* blob = static_cast<const uint8_t*>(sqlite3_column_blob(stmt, col));
  const int len = sqlite3_column_bytes(stmt, col);
  if (len > 0) out->assign(blob, blob + len);
  return Status::Ok();
}

class SqliteSeedReplica final : public SeedReplica {
 public:
  explicit SqliteSeedReplica(Rows rows) : rows_(std::move(rows)) {}
  ~SqliteSeedReplica() override { sqlite3_close(loaded_); }

  Status Insert() override {
    sqlite3* db = nullptr;
    DBXB_RETURN_IF_ERROR(OpenInMemory(&db));
    Status s = CreateAndInsert(db, rows_);
    sqlite3_close(db);
    return s;
  }

  Status Load() override {
    sqlite3_close(loaded_);
    loaded_ = nullptr;
    DBXB_RETURN_IF_ERROR(OpenInMemory(&loaded_));
    return CreateAndInsert(loaded_, rows_);
  }

  // query_row per key: prepare, bind, step, copy the value out, finalize.
  Status GetAll(uint64_t* found) override {
    uint64_t n = 0;
    std::vector<char> value;
    for (const auto& row : rows_) {
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v2(loaded_, kGet, -1, &stmt, nullptr) != SQLITE_OK) return Error(loaded_, "prepare");
      sqlite3_bind_blob(stmt, 1, row.first.data(), static_cast<int>(row.first.size()), SQLITE_TRANSIENT);
      if (sqlite3_step(stmt) == SQLITE_ROW) {
        const auto* v = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
        value.assign(v, v + sqlite3_column_bytes(stmt, 0));
        ++n;
      }
      sqlite3_finalize(stmt);
    }
    *found = n;
    return Status::Ok();
  }

  // The seed's scan as rusqlite 0.32 runs it, call for call, so that its per-row cost is the seed's:
  // query_map checks the parameter count; each row.get(i) checks i against sqlite3_column_count
  // (RowIndex for usize), reads sqlite3_column_type before the blob and its length
  // (Statement::value_ref) and copies the blob into a fresh heap buffer (FromSql for Vec<u8>: to_vec,
  // no allocation when empty); the end of the rows resets the statement, and dropping it finalizes.
  Status ScanAll(uint64_t* rows) override {
    if (loaded_ == nullptr) return Status::InvalidArgument("sqlite seed replica: Load first");
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(loaded_, kScan, -1, &stmt, nullptr) != SQLITE_OK) return Error(loaded_, "prepare");
    std::vector<std::pair<Blob, Blob>> out;
    Status s = sqlite3_bind_parameter_count(stmt) == 0 ? Status::Ok() : Error(loaded_, "bind");
    int rc = SQLITE_DONE;
    while (s.ok() && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      Blob key, value;
      s = GetBlob(stmt, 0, &key);
      if (s.ok()) s = GetBlob(stmt, 1, &value);
      if (s.ok()) out.emplace_back(std::move(key), std::move(value));
    }
    if (s.ok() && rc != SQLITE_DONE) s = Error(loaded_, "step");
    sqlite3_reset(stmt);
    sqlite3_finalize(stmt);
    *rows = out.size();
    return s;
  }

  Status ReadBack(ScanVisitor visitor) override { return Select("SELECT key, value FROM bench ORDER BY key", visitor); }

  Settings Describe() const override {
    return {{"insert",
             "sqlite3_open_v2(\":memory:\"), CREATE TABLE, one autocommit INSERT per row (prepared, "
             "stepped and finalized each time, as rusqlite's Connection::execute), close"},
            {"get", "one SELECT per key, prepared and finalized each time (rusqlite's query_row)"},
            {"scan",
             "SELECT key, value FROM bench, every row copied into a vector of (key, value) heap buffers, "
             "with rusqlite 0.32's per-column calls (sqlite3_column_count, sqlite3_column_type, then the blob)"},
            {"store", std::string("in memory; SQLite ") + sqlite3_libversion() +
                          " (the seed's rusqlite 0.32 bundles its own SQLite build)"}};
  }

 private:
  Status Select(const char* sql, ScanVisitor visitor) {
    if (loaded_ == nullptr) return Status::InvalidArgument("sqlite seed replica: Load first");
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(loaded_, sql, -1, &stmt, nullptr) != SQLITE_OK) return Error(loaded_, "prepare");
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::string_view k(static_cast<const char*>(sqlite3_column_blob(stmt, 0)), sqlite3_column_bytes(stmt, 0));
      std::string_view v(static_cast<const char*>(sqlite3_column_blob(stmt, 1)), sqlite3_column_bytes(stmt, 1));
      if (!visitor(k, v)) {
        rc = SQLITE_DONE;
        break;
      }
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? Status::Ok() : Error(loaded_, "step");
  }

  Rows rows_;
  sqlite3* loaded_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<SeedReplica>> NewSqliteSeedReplica(const std::string& /*dir*/, const ReferenceData& rows) {
  Rows copy;
  copy.reserve(rows.size());
  for (uint64_t i = 0; i < rows.size(); ++i) copy.emplace_back(std::string(rows.key(i)), std::string(rows.value(i)));
  return std::unique_ptr<SeedReplica>(new SqliteSeedReplica(std::move(copy)));
}

}  // namespace dbxb
