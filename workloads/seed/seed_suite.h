// The `seed` suite: the DBX team's official comparison (core/dbx-benchmarks/benches/
// official_db_comparison.rs in the DBX repository, Criterion 0.5) replicated as its code does it, on the
// engines it measured (dbx-core, sqlite, sled, redb): 10,000 rows `key_%08d` / `value_%08d_data`; each
// benchmark samples the body of the seed's closure (adapters/seed_replica.h), with Criterion's defaults
// (3 s warm-up, 5 s measurement, 100 samples, auto linear/flat sampling). The seed's published figures and
// where its stated "fair conditions" differ from its code are in records/seed_published.h.
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

}  // namespace dbxb
