// The DBX team's official comparison (core/dbx-benchmarks/benches/official_db_comparison.rs in the DBX
// repository) as its code runs it, on one of the engines it measured: the body of each of its Criterion
// closures, written against the engine's own API the way the seed wrote it. The `seed` suite
// (workloads/seed/) samples these bodies; it is the replica the report sets beside the seed's published
// figures and beside the fair dbx-micro.
//
// Each engine that the seed measured implements it in its adapter (dbx-core, sled and redb in the Rust
// bridge's src/seed.rs, SQLite in adapters/sqlite/sqlite_seed_replica.cc) and offers it through
// AdapterFactory::seed_replica. Not thread-safe: one thread drives a replica.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "adapters/adapter.h"

namespace dbxb {

class SeedReplica {
 public:
  virtual ~SeedReplica() = default;

  /// The timed body of the seed's insert benchmark: a fresh store opened, every row inserted as the seed
  /// does, the store dropped (all inside the body, as in the seed).
  virtual Status Insert() = 0;
  /// Untimed: loads the store the get and scan bodies read, as the seed's setup code does.
  virtual Status Load() = 0;
  /// The timed body of the seed's get benchmark: every key read once, in the data's order. *found =
  /// how many were found. REQUIRES: Load succeeded.
  virtual Status GetAll(uint64_t* found) = 0;
  /// The timed body of the seed's scan benchmark: every row collected into a vector. *rows = its length.
  /// REQUIRES: Load succeeded.
  virtual Status ScanAll(uint64_t* rows) = 0;
  /// Untimed verification: every row of the loaded store in key order. REQUIRES: Load succeeded.
  virtual Status ReadBack(ScanVisitor visitor) = 0;
  /// What the bodies do on this engine, as (workload, description) pairs, and the store's settings.
  virtual Settings Describe() const = 0;
};

}  // namespace dbxb
