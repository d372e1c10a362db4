#include "adapters/postgres/postgres_row_session.h"

#include <cstdint>
#include <limits>
#include <string>

#include "adapters/postgres/postgres_connection.h"

namespace dbxb::postgres_internal {

// (a, id) and (b, id): the order the range reads ask for, as SQLite's index on a (whose entries end in
// the rowid) gives it.
const char* const kCreateRowsTable[3] = {
    "CREATE TABLE IF NOT EXISTS rows(id bigint PRIMARY KEY, a bigint NOT NULL, b bigint NOT NULL, payload text)",
    "CREATE INDEX IF NOT EXISTS rows_a ON rows(a, id)",
    "CREATE INDEX IF NOT EXISTS rows_b ON rows(b, id)",
};

namespace {

Param Limit(uint64_t limit) {
  // LIMIT NULL is no limit.
  if (limit == 0 || limit > uint64_t{std::numeric_limits<int64_t>::max()}) return Param::Null();
  return Param::Int8(static_cast<int64_t>(limit));
}

class PostgresRowSession final : public RowSession {
 public:
  explicit PostgresRowSession(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}

  Status DoBegin() override { return conn_->Begin(); }
  Status DoCommit() override { return conn_->Commit(); }
  Status DoAbort() override { return conn_->Rollback(); }

  Status InsertRow(const Row& row) override { return conn_->Send("insert", RowParams(row), "INSERT"); }

  Status GetById(int64_t id, Row* row) override {
    Result<PgResult> r = conn_->Exec("get", {Param::Int8(id)}, "SELECT by id");
    if (!r.ok()) return r.status();
    if (PQntuples(r->get()) == 0) return Status::NotFound("row " + std::to_string(id));
    row->id = id;
    row->a = ColumnInt8(r->get(), 0, 0);
    row->b = ColumnInt8(r->get(), 0, 1);
    row->payload.assign(ColumnBytes(r->get(), 0, 2));
    return Status::Ok();
  }

  Status RangeByIndexA(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range("range_a", lo, limit, visitor);
  }
  Status RangeByIndexB(int64_t lo, uint64_t limit, RowVisitor visitor) override {
    return Range("range_b", lo, limit, visitor);
  }

  Status UpdateRow(const Row& row) override {
    Result<PgResult> r = conn_->Exec("update", RowParams(row), "UPDATE");
    if (!r.ok()) return r.status();
    if (Connection::Changed(r->get()) != 1) return Status::NotFound("row " + std::to_string(row.id));
    return Status::Ok();
  }

  Status Count(uint64_t* count) override {
    Result<PgResult> r = conn_->Exec("count", {}, "count");
    if (!r.ok()) return r.status();
    *count = static_cast<uint64_t>(ColumnInt8(r->get(), 0, 0));
    return Status::Ok();
  }

 private:
  static std::vector<Param> RowParams(const Row& row) {
    return {Param::Int8(row.id), Param::Int8(row.a), Param::Int8(row.b), Param::Bytes(row.payload)};
  }

  Status Range(const char* statement, int64_t lo, uint64_t limit, RowVisitor visitor) {
    Result<PgResult> r = conn_->Exec(statement, {Param::Int8(lo), Limit(limit)}, "range");
    if (!r.ok()) return r.status();
    const PGresult* rows = r->get();
    for (int i = 0, n = PQntuples(rows); i < n; ++i) {
      row_.id = ColumnInt8(rows, i, 0);
      row_.a = ColumnInt8(rows, i, 1);
      row_.b = ColumnInt8(rows, i, 2);
      row_.payload.assign(ColumnBytes(rows, i, 3));
      if (!visitor(row_)) break;
    }
    return Status::Ok();
  }

  std::unique_ptr<Connection> conn_;
  Row row_;  // reused by the range reads
};

}  // namespace

Result<std::unique_ptr<RowSession>> OpenRowSession(const std::string& conninfo) {
  Result<std::unique_ptr<Connection>> conn = Connection::Open(
      conninfo,
      {
          {"insert",
           "INSERT INTO rows(id, a, b, payload) VALUES($1, $2, $3, $4)",
           {kInt8Oid, kInt8Oid, kInt8Oid, kTextOid}},
          {"get", "SELECT a, b, payload FROM rows WHERE id = $1", {kInt8Oid}},
          {"range_a", "SELECT id, a, b, payload FROM rows WHERE a >= $1 ORDER BY a, id LIMIT $2", {kInt8Oid, kInt8Oid}},
          {"range_b", "SELECT id, a, b, payload FROM rows WHERE b >= $1 ORDER BY b, id LIMIT $2", {kInt8Oid, kInt8Oid}},
          {"update",
           "UPDATE rows SET a = $2, b = $3, payload = $4 WHERE id = $1",
           {kInt8Oid, kInt8Oid, kInt8Oid, kTextOid}},
          {"count", "SELECT count(*) FROM rows", {}},
      });
  if (!conn.ok()) return conn.status();
  return std::unique_ptr<RowSession>(new PostgresRowSession(std::move(conn.value())));
}

}  // namespace dbxb::postgres_internal
