// SQLite's part of the DBX team's official comparison as its code runs it (adapters/seed_replica.h).
#pragma once

#include <memory>
#include <string>

#include "adapters/seed_replica.h"

namespace dbxb {

/// The seed's SQLite closures on `rows` (copied). Their stores are in memory; `dir` is not used.
Result<std::unique_ptr<SeedReplica>> NewSqliteSeedReplica(const std::string& dir, const ReferenceData& rows);

}  // namespace dbxb
