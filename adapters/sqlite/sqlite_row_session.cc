// The native row session: SQL on the real table rows(id INTEGER PRIMARY KEY, a, b, payload) with the
// indexes rows_a(a) and rows_b(b), through statements prepared once per connection.
#include <sqlite3.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "adapters/sqlite/sqlite_connection.h"

namespace dbxb::sqlite_internal {
namespace {

int BindText(sqlite3_stmt* stmt, int index, const std::string& text) {
  // SQLITE_STATIC: every statement is stepped and reset before the call that bound it returns.
  return sqlite3_bind_text64(stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

int64_t SqlLimit(uint64_t limit) {
  // A negative LIMIT means no limit to SQLite.
  return (limit == 0 || limit > uint64_t{std::numeric_limits<int64_t>::max()}) ? -1 : static_cast<int64_t>(limit);
}

class SqliteRowSession final : public RowSession {
 public:
  static Result<std::unique_ptr<RowSession>> Open(const ConnectionConfig& config) {
    std::unique_ptr<SqliteRowSession> session(new SqliteRowSession());
    DBXB_RETURN_IF_ERROR(OpenConnection(config, &session->db_));
    DBXB_RETURN_IF_ERROR(
        PrepareAll(session->db_,
                   {
                       {&session->insert_, "INSERT INTO rows(id, a, b, payload) VALUES(?1, ?2, ?3, ?4)"},
                       {&session->get_, "SELECT a, b, payload FROM rows WHERE id = ?1"},
                       {&session->range_a_, "SELECT id, a, b, payload FROM rows WHERE a >= ?1 ORDER BY a, id LIMIT ?2"},
                       {&session->range_b_, "SELECT id, a, b, payload FROM rows WHERE b >= ?1 ORDER BY b, id LIMIT ?2"},
                       // Tried first: when a keeps its value the index on a is not touched, as in the key/value
                       // mapping; otherwise (no row changed) the full update below moves both index entries.
                       {&session->update_same_a_, "UPDATE rows SET b = ?3, payload = ?4 WHERE id = ?1 AND a = ?2"},
                       {&session->update_, "UPDATE rows SET a = ?2, b = ?3, payload = ?4 WHERE id = ?1"},
                       {&session->count_, "SELECT count(*) FROM rows"},
                       {&session->begin_, "BEGIN IMMEDIATE"},
                       {&session->commit_, "COMMIT"},
                       {&session->rollback_, "ROLLBACK"},
                   }));
    return std::unique_ptr<RowSession>(std::move(session));
  }

  ~SqliteRowSession() override {
    if (db_ == nullptr) return;
    if (sqlite3_get_autocommit(db_) == 0) (void)Step(rollback_, "ROLLBACK");
    for (sqlite3_stmt* stmt :
         {insert_, get_, range_a_, range_b_, update_same_a_, update_, count_, begin_, commit_, rollback_})
      sqlite3_finalize(stmt);
    sqlite3_close(db_);
  }

  Status DoBegin() override { return Step(begin_, "BEGIN IMMEDIATE"); }
  Status DoCommit() override {
    Status s = Step(commit_, "COMMIT");
    // A failed COMMIT can leave the transaction open; end it so the session stays usable.
    if (!s.ok() && sqlite3_get_autocommit(db_) == 0) (void)Step(rollback_, "ROLLBACK");
    return s;
  }
  Status DoAbort() override { return Step(rollback_, "ROLLBACK"); }

  Status InsertRow(const Row& row) override { return Write(insert_, row, "INSERT"); }

  Status GetById(int64_t id, Row* row) override {
    ResetOnExit reset(get_);
    if (sqlite3_bind_int64(get_, 1, id) != SQLITE_OK) return SqliteError(db_, sqlite3_errcode(db_), "get bind");
    int rc = sqlite3_step(get_);
    if (rc == SQLITE_DONE) return Status::NotFound("row " + std::to_string(id));
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "SELECT by id");
    row->id = id;
    row->a = sqlite3_column_int64(get_, 0);
    row->b = sqlite3_column_int64(get_, 1);
    AssignText(get_, 2, &row->payload);
    return Status::Ok();
  }

  Status RangeByIndexA(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range(range_a_, lo, limit, visitor);
  }
  Status RangeByIndexB(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range(range_b_, lo, limit, visitor);
  }

  // Outside Begin..Commit each UPDATE statement is its own (autocommit) transaction; the first one
  // changes nothing when a differs, so the row is updated by exactly one of them.
  Status UpdateRow(const Row& row) override {
    DBXB_RETURN_IF_ERROR(Write(update_same_a_, row, "UPDATE"));
    if (sqlite3_changes(db_) == 1) return Status::Ok();
    DBXB_RETURN_IF_ERROR(Write(update_, row, "UPDATE"));
    if (sqlite3_changes(db_) == 1) return Status::Ok();
    return Status::NotFound("row " + std::to_string(row.id));
  }

  Status Count(uint64_t* count) override {
    ResetOnExit reset(count_);
    int rc = sqlite3_step(count_);
    if (rc != SQLITE_ROW) return SqliteError(db_, rc, "count");
    *count = static_cast<uint64_t>(sqlite3_column_int64(count_, 0));
    return Status::Ok();
  }

 private:
  SqliteRowSession() = default;

  static void AssignText(sqlite3_stmt* stmt, int column, std::string* out) {
    const unsigned char* p = sqlite3_column_text(stmt, column);
    int n = sqlite3_column_bytes(stmt, column);
    if (p == nullptr)
      out->clear();
    else
      out->assign(reinterpret_cast<const char*>(p), static_cast<size_t>(n));
  }

  // Binds (id, a, b, payload) as ?1..?4 and steps the statement to completion.
  Status Write(sqlite3_stmt* stmt, const Row& row, const char* what) {
    ResetOnExit reset(stmt);
    if (sqlite3_bind_int64(stmt, 1, row.id) != SQLITE_OK || sqlite3_bind_int64(stmt, 2, row.a) != SQLITE_OK ||
        sqlite3_bind_int64(stmt, 3, row.b) != SQLITE_OK || BindText(stmt, 4, row.payload) != SQLITE_OK)
      return SqliteError(db_, sqlite3_errcode(db_), what);
    int rc = sqlite3_step(stmt);
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, what);
  }

  Status Range(sqlite3_stmt* stmt, int64_t lo, uint64_t limit, RowVisitor visitor) {
    ResetOnExit reset(stmt);
    if (sqlite3_bind_int64(stmt, 1, lo) != SQLITE_OK || sqlite3_bind_int64(stmt, 2, SqlLimit(limit)) != SQLITE_OK)
      return SqliteError(db_, sqlite3_errcode(db_), "range bind");
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      row_.id = sqlite3_column_int64(stmt, 0);
      row_.a = sqlite3_column_int64(stmt, 1);
      row_.b = sqlite3_column_int64(stmt, 2);
      AssignText(stmt, 3, &row_.payload);
      if (!visitor(row_)) return Status::Ok();
    }
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, "range");
  }

  Status Step(sqlite3_stmt* stmt, const char* what) {
    ResetOnExit reset(stmt);
    int rc = sqlite3_step(stmt);
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_, rc, what);
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* get_ = nullptr;
  sqlite3_stmt* range_a_ = nullptr;
  sqlite3_stmt* range_b_ = nullptr;
  sqlite3_stmt* update_same_a_ = nullptr;
  sqlite3_stmt* update_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  sqlite3_stmt* begin_ = nullptr;
  sqlite3_stmt* commit_ = nullptr;
  sqlite3_stmt* rollback_ = nullptr;
  Row row_;  // reused by range reads
};

}  // namespace

Result<std::unique_ptr<RowSession>> OpenRowSession(const ConnectionConfig& config) {
  return SqliteRowSession::Open(config);
}

}  // namespace dbxb::sqlite_internal
