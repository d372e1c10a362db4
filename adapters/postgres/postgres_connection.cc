#include "adapters/postgres/postgres_connection.h"

#include <cstdlib>
#include <cstring>

namespace dbxb::postgres_internal {
namespace {

// The error of a failed result, as a Status whose code follows the SQLSTATE class.
Status ResultError(PGconn* conn, const PGresult* r, const char* what) {
  std::string msg = std::string(what) + ": ";
  msg += r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(conn);
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
  const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  if (state != nullptr) {
    if (std::strcmp(state, "40001") == 0 || std::strcmp(state, "40P01") == 0) return Status::Conflict(msg);
    if (std::strncmp(state, "23", 2) == 0 || std::strncmp(state, "22", 2) == 0) return Status::InvalidArgument(msg);
  }
  return Status::IOError(msg);
}

}  // namespace

Param Param::Int8(int64_t v) {
  Param p(Kind::kInt8, {});
  uint64_t u = static_cast<uint64_t>(v);
  for (int i = 7; i >= 0; --i, u >>= 8) p.int8_[i] = static_cast<char>(u & 0xff);
  return p;
}

int64_t ColumnInt8(const PGresult* r, int row, int column) {
  const auto* p = reinterpret_cast<const unsigned char*>(PQgetvalue(r, row, column));
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | p[i];
  return static_cast<int64_t>(u);
}

std::string_view ColumnBytes(const PGresult* r, int row, int column) {
  return std::string_view(PQgetvalue(r, row, column), static_cast<size_t>(PQgetlength(r, row, column)));
}

Result<std::unique_ptr<Connection>> Connection::Open(const std::string& conninfo,
                                                     const std::vector<Statement>& statements) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) return Status::IOError("postgres: out of memory for a connection");
  std::unique_ptr<Connection> c(new Connection(conn));
  if (PQstatus(conn) != CONNECTION_OK) {
    // libpq's message may span lines ("...failed: Connection refused\n\tIs the server running..."): one line.
    std::string msg;
    for (char ch : std::string(PQerrorMessage(conn))) {
      if (ch == '\n' || ch == '\t' || ch == '\r') ch = ' ';
      if (ch != ' ' || (!msg.empty() && msg.back() != ' ')) msg += ch;
    }
    while (!msg.empty() && msg.back() == ' ') msg.pop_back();
    return Status::IOError("postgres: connect: " + msg);
  }
  // NOTICEs ("relation already exists, skipping") are not errors and must not reach the console.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  for (const Statement& s : statements) {
    Result<PgResult> r =
        c->Check(PQprepare(conn, s.name, s.sql, static_cast<int>(s.types.size()), s.types.data()), s.name);
    if (!r.ok()) return r.status();
  }
  return c;
}

Connection::~Connection() { PQfinish(conn_); }

Result<PgResult> Connection::Check(PGresult* r, const char* what) {
  PgResult owned(r);
  ExecStatusType status = r != nullptr ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return owned;
  return ResultError(conn_, r, what);
}

Result<PgResult> Connection::Exec(const char* name, const std::vector<Param>& params, const char* what) {
  constexpr int kMaxParams = 8;
  const char* values[kMaxParams];
  int lengths[kMaxParams];
  int formats[kMaxParams];
  const int n = static_cast<int>(params.size());
  if (n > kMaxParams) return Status::Internal("postgres: too many parameters");
  for (int i = 0; i < n; ++i) {
    values[i] = params[i].data();
    lengths[i] = params[i].size();
    formats[i] = 1;
  }
  return Check(PQexecPrepared(conn_, name, n, values, lengths, formats, /*resultFormat=*/1), what);
}

Result<PgResult> Connection::Query(const char* sql, const char* what) { return Check(PQexec(conn_, sql), what); }

Status Connection::Begin() { return Query("BEGIN", "BEGIN").status(); }

Status Connection::Commit() {
  Result<PgResult> r = Query("COMMIT", "COMMIT");
  if (!r.ok()) return r.status();
  if (std::string_view(PQcmdStatus(r->get())) == "ROLLBACK")
    return Status::Conflict("COMMIT: the transaction had failed and was rolled back");
  return Status::Ok();
}

Status Connection::Rollback() { return Query("ROLLBACK", "ROLLBACK").status(); }

uint64_t Connection::Changed(const PGresult* r) {
  return std::strtoull(PQcmdTuples(const_cast<PGresult*>(r)), nullptr, 10);
}

}  // namespace dbxb::postgres_internal
