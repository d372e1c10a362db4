// The key/value Session of the postgres adapter: one libpq connection with its statements prepared, on
// kv(k bytea PRIMARY KEY, v bytea). Internal to the postgres adapter (postgres_adapter.h describes it).
#pragma once

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "common/status.h"

namespace dbxb::postgres_internal {

/// The statement that creates kv, if missing.
inline constexpr char kCreateKv[] = "CREATE TABLE IF NOT EXISTS kv(k bytea PRIMARY KEY, v bytea NOT NULL)";

/// A Session on its own connection to the server at `conninfo`.
Result<std::unique_ptr<Session>> OpenKvSession(const std::string& conninfo);

}  // namespace dbxb::postgres_internal
