#include "adapters/postgres/postgres_connection.h"

#include <cstdlib>
#include <cstring>
#include <string_view>

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

namespace {

// The parameters of a prepared statement, in binary format.
struct BinaryParams {
  static constexpr int kMax = 8;
  const char* values[kMax];
  int lengths[kMax];
  int formats[kMax];
  int n = 0;
};

Status Fill(const std::vector<Param>& params, BinaryParams* p) {
  p->n = static_cast<int>(params.size());
  if (p->n > BinaryParams::kMax) return Status::Internal("postgres: too many parameters");
  for (int i = 0; i < p->n; ++i) {
    p->values[i] = params[i].data();
    p->lengths[i] = params[i].size();
    p->formats[i] = 1;
  }
  return Status::Ok();
}

}  // namespace

Result<PgResult> Connection::Exec(const char* name, const std::vector<Param>& params, const char* what) {
  if (pipelined_) {
    DBXB_RETURN_IF_ERROR(Send(name, params, what));
    return Wait();
  }
  BinaryParams p;
  DBXB_RETURN_IF_ERROR(Fill(params, &p));
  return Check(PQexecPrepared(conn_, name, p.n, p.values, p.lengths, p.formats, /*resultFormat=*/1), what);
}

Result<PgResult> Connection::Query(const char* sql, const char* what) {
  if (!pipelined_) return Check(PQexec(conn_, sql), what);
  if (PQsendQueryParams(conn_, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) != 1)
    return ResultError(conn_, nullptr, what);
  sent_.push_back(what);
  return Wait();
}

Status Connection::Send(const char* name, const std::vector<Param>& params, const char* what) {
  if (!pipelined_) return Exec(name, params, what).status();
  BinaryParams p;
  DBXB_RETURN_IF_ERROR(Fill(params, &p));
  if (PQsendQueryPrepared(conn_, name, p.n, p.values, p.lengths, p.formats, /*resultFormat=*/1) != 1)
    return ResultError(conn_, nullptr, what);
  sent_.push_back(what);
  if (static_cast<int>(sent_.size()) >= kPipelineDepth) return Wait().status();
  return Status::Ok();
}

Result<PgResult> Connection::Wait() {
  if (PQpipelineSync(conn_) != 1) return ResultError(conn_, nullptr, "pipeline sync");
  PgResult last;
  for (size_t i = 0; i < sent_.size(); ++i) {
    // Each statement's results end with a null; a statement the server skipped after an error is
    // PGRES_PIPELINE_ABORTED.
    for (PGresult* r; (r = PQgetResult(conn_)) != nullptr;) {
      const ExecStatusType st = PQresultStatus(r);
      if (st == PGRES_PIPELINE_ABORTED) {
        PQclear(r);
        continue;
      }
      Result<PgResult> checked = Check(r, sent_[i]);
      if (!checked.ok() && failed_.ok()) failed_ = checked.status();
      if (checked.ok()) last = std::move(*checked);
    }
  }
  sent_.clear();
  PgResult sync(PQgetResult(conn_));
  if (sync == nullptr || PQresultStatus(sync.get()) != PGRES_PIPELINE_SYNC) {
    if (failed_.ok()) failed_ = ResultError(conn_, sync.get(), "pipeline sync");
  }
  if (!failed_.ok()) return failed_;
  return last;
}

Status Connection::Begin() {
  if (PQenterPipelineMode(conn_) != 1) return ResultError(conn_, nullptr, "BEGIN: pipeline mode");
  pipelined_ = true;
  failed_ = Status::Ok();
  if (PQsendQueryParams(conn_, "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 1) != 1) {
    Status s = ResultError(conn_, nullptr, "BEGIN");
    (void)EndPipeline("ROLLBACK", "ROLLBACK");
    return s;
  }
  sent_.push_back("BEGIN");
  return Status::Ok();
}

// Queues the batch's last statement, waits for every result, and leaves pipeline mode; a transaction
// the server left failed (its COMMIT skipped after an error) is rolled back.
Status Connection::EndPipeline(const char* sql, const char* what) {
  Result<PgResult> r = Query(sql, what);
  pipelined_ = false;
  (void)PQexitPipelineMode(conn_);
  if (PQtransactionStatus(conn_) == PQTRANS_INERROR) (void)Check(PQexec(conn_, "ROLLBACK"), "ROLLBACK");
  if (!r.ok()) return r.status();
  if (std::string_view(PQcmdStatus(r->get())) == "ROLLBACK" && std::string_view(sql) == "COMMIT")
    return Status::Conflict("COMMIT: the transaction had failed and was rolled back");
  return Status::Ok();
}

Status Connection::Commit() {
  if (!pipelined_) return Status::InvalidArgument("COMMIT: no batch is open");
  return EndPipeline("COMMIT", "COMMIT");
}

Status Connection::Rollback() {
  if (!pipelined_) return Query("ROLLBACK", "ROLLBACK").status();
  Status s = EndPipeline("ROLLBACK", "ROLLBACK");
  // The batch's own errors are what Rollback drops: only a failure to roll back is its error.
  return failed_.ok() ? s : Status::Ok();
}

uint64_t Connection::Changed(const PGresult* r) {
  return std::strtoull(PQcmdTuples(const_cast<PGresult*>(r)), nullptr, 10);
}

}  // namespace dbxb::postgres_internal
