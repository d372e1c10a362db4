// A schema of our own on a server the tool does not run (postgres.url). Internal to the postgres adapter.
//
// The adapter touches nothing on such a server but one schema: it creates it (CREATE SCHEMA, never IF NOT
// EXISTS) with the comment "dbx-bench run <run id>", creates its tables only in it (every connection's
// search_path is that schema alone), and drops it at Close only while the comment still names its run.
// An existing schema of that name without this run's comment — the user's, or another run's — is refused
// before anything is written. The check, the creation and the drop each run in one transaction holding
// an advisory lock on the schema's name, so that the client processes of one run (same run id) create
// it once and join it.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace dbxb::postgres_internal {

class Connection;

/// The comment that marks the schema as the run's.
std::string SchemaMarker(const std::string& run_id);

/// OK when `schema` does not exist or carries `run_id`'s marker; InvalidArgument naming the schema and
/// its comment otherwise. Changes nothing.
Status CheckSchemaIsOurs(Connection& c, const std::string& schema, const std::string& run_id);

/// Creates `schema` with the marker and the statements `create_tables` in it, or joins it when it
/// already carries the marker. Returns true when this call created it. InvalidArgument (and nothing
/// changed) when it exists without the marker.
Result<bool> CreateOrJoinSchema(Connection& c, const std::string& schema, const std::string& run_id,
                                const std::vector<const char*>& create_tables);

/// Drops `schema` with everything in it, if it still carries the marker; otherwise leaves it.
Status DropSchemaIfOurs(Connection& c, const std::string& schema, const std::string& run_id);

/// Drops every schema that carries `run_id`'s marker (what the clients of a run left). REQUIRES: run_id
/// is a valid postgres.run_id (letters and digits).
Status DropRunSchemas(Connection& c, const std::string& run_id);

}  // namespace dbxb::postgres_internal
