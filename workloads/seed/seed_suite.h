// The `seed` suite: the DBX team's official comparison (core/dbx-benchmarks/benches/
// official_db_comparison.rs in the DBX repository, Criterion 0.5) replicated as its code does it, on the
// engines it measured (dbx-core, sqlite, sled, redb): 10,000 rows `key_%08d` / `value_%08d_data`; each
// benchmark samples the body of the seed's closure (adapters/seed_replica.h), with Criterion's defaults
// (3 s warm-up, 5 s measurement, 100 samples, auto linear/flat sampling). What differs from the report's
// stated "fair conditions" is listed by SeedConditionDifferences() and shown by `report`.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace dbxb {

class Suite;
/// The suite for `run --suite seed` (registered in workloads/builtin_suites.cc).
std::unique_ptr<Suite> NewSeedSuite();

/// The seed's workloads: insert, get, scan.
const std::vector<std::string>& SeedWorkloadNames();

/// Each point where the report's stated "fair comparison conditions" (batch commits, durability None,
/// `PRAGMA synchronous = OFF`, identical workloads) differ from what its benchmark code does, one
/// sentence each, as read in the code (the suite replicates the code, not the stated conditions).
const std::vector<std::string>& SeedConditionDifferences();

}  // namespace dbxb
