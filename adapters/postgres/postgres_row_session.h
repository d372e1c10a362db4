// The native sqlite-vps table on PostgreSQL: one libpq connection per RowSession. Internal to the
// postgres adapter.
#pragma once

#include <memory>
#include <string>

#include "adapters/row_session.h"
#include "common/status.h"

namespace dbxb::postgres_internal {

/// The statements that create rows(id bigint PRIMARY KEY, a bigint, b bigint, payload text) and its
/// indexes rows_a(a, id) and rows_b(b, id), if missing.
extern const char* const kCreateRowsTable[3];

/// A RowSession on its own connection to the server at `conninfo`.
Result<std::unique_ptr<RowSession>> OpenRowSession(const std::string& conninfo);

}  // namespace dbxb::postgres_internal
