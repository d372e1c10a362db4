// The seed's SQLite benchmark (official_db_comparison.rs, through rusqlite 0.32) written against the C
// API the way rusqlite runs it: Connection::open_in_memory is sqlite3_open_v2(":memory:",
// READWRITE|CREATE|URI|NOMUTEX); Connection::execute and query_row prepare, bind, step and finalize the
// statement on every call (rusqlite caches statements only for prepare_cached, which the seed does not
// use); Vec<u8> parameters are bound as BLOBs (copied: SQLITE_TRANSIENT) and read back as copies.
//   insert  open_in_memory, CREATE TABLE bench (key BLOB PRIMARY KEY, value BLOB), one autocommit
//           INSERT per row, close: all inside the body
//   get     one query_row("SELECT value FROM bench WHERE key = ?1") per key, the value copied out
//   scan    prepare "SELECT key, value FROM bench", every row copied into a vector
#include "adapters/sqlite/sqlite_seed_replica.h"

#include <sqlite3.h>

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

  Status ScanAll(uint64_t* rows) override {
    Rows out;
    DBXB_RETURN_IF_ERROR(Select(kScan, [&](std::string_view k, std::string_view v) {
      out.emplace_back(std::string(k), std::string(v));
      return true;
    }));
    *rows = out.size();
    return Status::Ok();
  }

  Status ReadBack(ScanVisitor visitor) override { return Select("SELECT key, value FROM bench ORDER BY key", visitor); }

  Settings Describe() const override {
    return {{"insert",
             "sqlite3_open_v2(\":memory:\"), CREATE TABLE, one autocommit INSERT per row (prepared, "
             "stepped and finalized each time, as rusqlite's Connection::execute), close"},
            {"get", "one SELECT per key, prepared and finalized each time (rusqlite's query_row)"},
            {"scan", "SELECT key, value FROM bench, every row copied into a vector"},
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
