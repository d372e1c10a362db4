// One libpq connection with its prepared statements: the piece the kv Session and the RowSession share.
// Internal to the postgres adapter. Not thread-safe: one per session, like the sessions.
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace dbxb::postgres_internal {

/// Owns a PGresult.
struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

/// A statement parameter in binary format: bytes (bytea, text; a view of the caller's memory), a
/// big-endian int8 (held inline) or NULL.
class Param {
 public:
  static Param Bytes(std::string_view bytes) { return Param(Kind::kBytes, bytes); }
  static Param Int8(int64_t v);
  static Param Null() { return Param(Kind::kNull, {}); }

  /// nullptr for NULL; never nullptr otherwise, so an empty value is an empty bytea, not NULL.
  const char* data() const {
    if (kind_ == Kind::kNull) return nullptr;
    if (kind_ == Kind::kInt8) return int8_;
    return bytes_.data() != nullptr ? bytes_.data() : "";
  }
  int size() const { return kind_ == Kind::kInt8 ? 8 : static_cast<int>(bytes_.size()); }

 private:
  enum class Kind { kBytes, kInt8, kNull };
  Param(Kind kind, std::string_view bytes) : kind_(kind), bytes_(bytes) {}

  Kind kind_;
  std::string_view bytes_;
  char int8_[8] = {};
};

/// A row's column in binary format: an int8 as a host integer, or a view of the bytes (valid while the
/// PgResult lives).
int64_t ColumnInt8(const PGresult* r, int row, int column);
std::string_view ColumnBytes(const PGresult* r, int row, int column);

/// A batch (Begin..Commit or Rollback) runs in libpq's pipeline mode: Begin queues BEGIN, Send queues a
/// statement without waiting for its result, and Commit queues COMMIT and waits once for every result,
/// so that a batch of writes is one round trip (one more per kPipelineDepth statements, which bounds
/// what the server writes back before it is read). Exec and Query inside a batch send their statement,
/// then wait for it and everything queued before it: a read sees the batch's writes. The first failed
/// statement of a batch is the error of whichever call waits next (Exec, Query, Commit); the server
/// skips the rest of the batch, and Commit rolls it back.
class Connection {
 public:
  /// Connects and prepares each (name, SQL, parameter type OIDs) statement.
  struct Statement {
    const char* name;
    const char* sql;
    std::vector<Oid> types;
  };
  static Result<std::unique_ptr<Connection>> Open(const std::string& conninfo,
                                                  const std::vector<Statement>& statements);
  ~Connection();

  /// Runs a prepared statement with binary parameters and binary results. Returns the result when it
  /// is PGRES_COMMAND_OK or PGRES_TUPLES_OK, else the error (Conflict for serialization failures and
  /// deadlocks, InvalidArgument for constraint violations, IOError for the rest).
  Result<PgResult> Exec(const char* name, const std::vector<Param>& params, const char* what);
  /// Runs SQL text without parameters (BEGIN, COMMIT, SHOW ...).
  Result<PgResult> Query(const char* sql, const char* what);
  /// Queues a prepared statement of the open batch; its error comes from the next call that waits.
  /// Outside a batch, Exec's.
  Status Send(const char* name, const std::vector<Param>& params, const char* what);
  /// BEGIN (queued: no round trip), COMMIT and ROLLBACK. A COMMIT of a transaction that had failed
  /// (which PostgreSQL answers as a ROLLBACK) is Conflict; a failed statement of the batch is its error.
  Status Begin();
  Status Commit();
  Status Rollback();
  /// Statements queued in a batch before the connection waits for their results.
  static constexpr int kPipelineDepth = 1000;
  /// Rows a statement changed (PQcmdTuples), 0 when it reports none.
  static uint64_t Changed(const PGresult* r);

  PGconn* raw() { return conn_; }

 private:
  explicit Connection(PGconn* conn) : conn_(conn) {}
  Result<PgResult> Check(PGresult* r, const char* what);
  // Sends a sync and reads every result up to it: the last statement's, or the first error since the
  // batch began (kept in failed_ until the batch ends).
  Result<PgResult> Wait();
  Status EndPipeline(const char* sql, const char* what);

  PGconn* conn_;
  bool pipelined_ = false;         // a batch is open: libpq's pipeline mode
  std::vector<const char*> sent_;  // what each statement sent since the last sync is, for its error
  Status failed_;                  // the batch's first failed statement
};

/// bytea, int8 and text OIDs (pg_type.h is a server header; these are fixed).
inline constexpr Oid kByteaOid = 17;
inline constexpr Oid kInt8Oid = 20;
inline constexpr Oid kTextOid = 25;

}  // namespace dbxb::postgres_internal
