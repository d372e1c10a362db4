#include "adapters/postgres/postgres_kv_session.h"

#include <libpq-fe.h>

#include <algorithm>

#include "adapters/postgres/postgres_connection.h"

namespace dbxb::postgres_internal {
namespace {

// Rows per fetch of a Scan: bounds the memory of one result (libpq holds a whole result at once).
constexpr uint64_t kScanChunkRows = 1000;

class PostgresSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(const std::string& conninfo) {
    Result<std::unique_ptr<Connection>> conn = Connection::Open(
        conninfo, {
                      {"put",
                       "INSERT INTO kv(k, v) VALUES($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
                       {kByteaOid, kByteaOid}},
                      {"get", "SELECT v FROM kv WHERE k = $1", {kByteaOid}},
                      {"del", "DELETE FROM kv WHERE k = $1", {kByteaOid}},
                      {"scan_from", "SELECT k, v FROM kv WHERE k >= $1 ORDER BY k LIMIT $2", {kByteaOid, kInt8Oid}},
                      {"scan_after", "SELECT k, v FROM kv WHERE k > $1 ORDER BY k LIMIT $2", {kByteaOid, kInt8Oid}},
                      {"count", "SELECT count(*) FROM kv", {}},
                  });
    if (!conn.ok()) return conn.status();
    return std::unique_ptr<Session>(new PostgresSession(std::move(conn.value())));
  }

  Status Put(std::string_view key, std::string_view value) override {
    return conn_->Send("put", {Param::Bytes(key), Param::Bytes(value)}, "Put");
  }

  Status Get(std::string_view key, std::string* value) override {
    Result<PgResult> r = conn_->Exec("get", {Param::Bytes(key)}, "Get");
    if (!r.ok()) return r.status();
    if (PQntuples(r->get()) == 0) return Status::NotFound();
    value->assign(ColumnBytes(r->get(), 0, 0));
    return Status::Ok();
  }

  Status Delete(std::string_view key) override { return conn_->Send("del", {Param::Bytes(key)}, "Delete"); }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    const bool own_txn = !in_batch() && (limit == 0 || limit > kScanChunkRows);
    if (own_txn) {
      DBXB_RETURN_IF_ERROR(conn_->Query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "Scan begin").status());
    }
    Status s = ScanChunks(start, limit, visitor);
    if (own_txn) {
      Status ended = conn_->Query(s.ok() ? "COMMIT" : "ROLLBACK", "Scan end").status();
      if (s.ok()) s = ended;
    }
    return s;
  }

  Status Count(uint64_t* count) override {
    Result<PgResult> r = conn_->Exec("count", {}, "Count");
    if (!r.ok()) return r.status();
    *count = static_cast<uint64_t>(ColumnInt8(r->get(), 0, 0));
    return Status::Ok();
  }

  Status DoBegin() override { return conn_->Begin(); }
  Status DoCommit() override { return conn_->Commit(); }
  Status DoAbort() override { return conn_->Rollback(); }

 private:
  explicit PostgresSession(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}

  // Fetches kScanChunkRows at a time, each fetch continuing after the last key of the one before.
  Status ScanChunks(std::string_view start, uint64_t limit, ScanVisitor visitor) {
    std::string last;
    uint64_t seen = 0;
    for (bool first = true;; first = false) {
      const uint64_t want = limit == 0 ? kScanChunkRows : std::min(kScanChunkRows, limit - seen);
      Result<PgResult> r = conn_->Exec(
          first ? "scan_from" : "scan_after",
          {Param::Bytes(first ? start : std::string_view(last)), Param::Int8(static_cast<int64_t>(want))}, "Scan");
      if (!r.ok()) return r.status();
      const PGresult* rows = r->get();
      const int n = PQntuples(rows);
      for (int i = 0; i < n; ++i) {
        ++seen;
        if (!visitor(ColumnBytes(rows, i, 0), ColumnBytes(rows, i, 1))) return Status::Ok();
      }
      if (static_cast<uint64_t>(n) < want || (limit != 0 && seen == limit)) return Status::Ok();
      last.assign(ColumnBytes(rows, n - 1, 0));
    }
  }

  std::unique_ptr<Connection> conn_;
};

}  // namespace

Result<std::unique_ptr<Session>> OpenKvSession(const std::string& conninfo) { return PostgresSession::Open(conninfo); }

}  // namespace dbxb::postgres_internal
