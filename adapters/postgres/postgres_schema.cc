#include "adapters/postgres/postgres_schema.h"

#include <libpq-fe.h>

#include <optional>
#include <vector>

#include "adapters/postgres/postgres_connection.h"

namespace dbxb::postgres_internal {
namespace {

// Runs `body` in a transaction holding the schema's advisory lock; rolls back when it fails.
template <class Body>
Status Locked(Connection& c, const std::string& schema, Body body) {
  DBXB_RETURN_IF_ERROR(c.Begin());
  const std::string lock = "SELECT pg_advisory_xact_lock(hashtext('dbx-bench schema " + schema + "'))";
  Status st = c.Query(lock.c_str(), "lock the schema's name").status();
  if (st.ok()) st = body();
  Status end = st.ok() ? c.Commit() : c.Rollback();
  return st.ok() ? end : st;
}

// The schema's comment: nullopt when the schema does not exist, "" when it has none.
Result<std::optional<std::string>> SchemaComment(Connection& c, const std::string& schema) {
  const std::string sql =
      "SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace WHERE nspname = '" + schema + "'";
  Result<PgResult> r = c.Query(sql.c_str(), "look for the schema");
  if (!r.ok()) return r.status();
  if (PQntuples(r->get()) == 0) return std::optional<std::string>();
  return std::optional<std::string>(PQgetvalue(r->get(), 0, 0));
}

Status NotOurs(const std::string& schema, const std::string& comment) {
  return Status::InvalidArgument("postgres.schema: the server already has a schema '" + schema + "' that is not " +
                                 "this run's (its comment: '" + comment.substr(0, 80) +
                                 "'); dbx-bench touches nothing it did not create: choose another postgres.schema, "
                                 "or drop that schema yourself");
}

}  // namespace

std::string SchemaMarker(const std::string& run_id) { return "dbx-bench run " + run_id; }

Status CheckSchemaIsOurs(Connection& c, const std::string& schema, const std::string& run_id) {
  Result<std::optional<std::string>> comment = SchemaComment(c, schema);
  if (!comment.ok()) return comment.status();
  if (comment->has_value() && **comment != SchemaMarker(run_id)) return NotOurs(schema, **comment);
  return Status::Ok();
}

Result<bool> CreateOrJoinSchema(Connection& c, const std::string& schema, const std::string& run_id,
                                const std::vector<const char*>& create_tables) {
  bool created = false;
  Status st = Locked(c, schema, [&]() -> Status {
    Result<std::optional<std::string>> comment = SchemaComment(c, schema);
    if (!comment.ok()) return comment.status();
    if (comment->has_value()) return **comment == SchemaMarker(run_id) ? Status::Ok() : NotOurs(schema, **comment);
    const std::string create = "CREATE SCHEMA " + schema;
    DBXB_RETURN_IF_ERROR(c.Query(create.c_str(), "create the schema").status());
    const std::string mark = "COMMENT ON SCHEMA " + schema + " IS '" + SchemaMarker(run_id) + "'";
    DBXB_RETURN_IF_ERROR(c.Query(mark.c_str(), "mark the schema").status());
    const std::string path = "SET LOCAL search_path = " + schema;
    DBXB_RETURN_IF_ERROR(c.Query(path.c_str(), "search_path").status());
    for (const char* sql : create_tables) DBXB_RETURN_IF_ERROR(c.Query(sql, "create the tables").status());
    created = true;
    return Status::Ok();
  });
  if (!st.ok()) return st;
  return created;
}

Status DropSchemaIfOurs(Connection& c, const std::string& schema, const std::string& run_id) {
  return Locked(c, schema, [&]() -> Status {
    Result<std::optional<std::string>> comment = SchemaComment(c, schema);
    if (!comment.ok()) return comment.status();
    if (!comment->has_value() || **comment != SchemaMarker(run_id)) return Status::Ok();
    const std::string drop = "DROP SCHEMA " + schema + " CASCADE";
    return c.Query(drop.c_str(), "drop the schema").status();
  });
}

Status DropRunSchemas(Connection& c, const std::string& run_id) {
  const std::string sql =
      "SELECT nspname FROM pg_namespace WHERE obj_description(oid, 'pg_namespace') = '" + SchemaMarker(run_id) + "'";
  Result<PgResult> r = c.Query(sql.c_str(), "look for the run's schemas");
  if (!r.ok()) return r.status();
  Status st;
  for (int i = 0; i < PQntuples(r->get()); ++i) {
    Status dropped = DropSchemaIfOurs(c, PQgetvalue(r->get(), i, 0), run_id);
    if (st.ok()) st = dropped;
  }
  return st;
}

}  // namespace dbxb::postgres_internal
