// The dbx-micro suite: the DBX team's official comparison (INSERT / GET / SCAN of N records, plus an
// exact COUNT), the same for every engine, every result verified.
//
// A MicroBenchmark is driven by the harness's sampler: SetUp once (untimed), then iterations of
// RunIteration (timed), each framed by PrepareIteration / FinishIteration (untimed) when the
// benchmark needs fresh state per iteration (Criterion's iter_batched). Workloads never read a clock.
// A wrong answer (missing key, wrong value, wrong count) is returned as Status::Corruption naming
// the key and the problem — a failed benchmark, never a fast wrong number.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "workloads/dataset.h"
#include "workloads/write_tally.h"

namespace dbxb {

class Suite;
/// The suite for `run --suite`, its options and plan (workloads/suite.h); registered in builtin_suites.cc.
std::unique_ptr<Suite> NewDbxMicroSuite();

/// The workloads of the suite, in their default order.
const std::vector<std::string>& MicroWorkloadNames();

struct MicroConfig {
  std::shared_ptr<const Dataset> dataset;
  /// Durability and cache budget for the engine; `dir` is set per database by the benchmark.
  AdapterOptions engine_options;
  /// A directory the benchmark may create databases in (it removes what it creates).
  std::string work_dir;
  uint64_t seed = 1;
  /// Rows per write batch when loading the data set for get/scan/count.
  uint64_t load_batch = 10000;
  /// Settle the engine after loading (false: --no-settle). The harness calls Settle and times it.
  bool settle = true;
  /// Threads that share each iteration of get and scan (--threads), one session each: thread i reads
  /// the i-th of `threads` equal slices of the key order (get) or of the key range (scan). insert and
  /// count run on one thread. REQUIRES: >= 1.
  uint32_t threads = 1;
};

/// The workloads --threads above 1 applies to.
bool MicroWorkloadTakesThreads(std::string_view workload);

class MicroBenchmark {
 public:
  virtual ~MicroBenchmark() = default;

  /// Records one iteration touches (the throughput unit).
  virtual uint64_t elements_per_iteration() const = 0;
  /// Untimed: opens the engine, loads and verifies the data set.
  virtual Status SetUp() = 0;
  /// True when the benchmark loaded data before measuring and config.settle: the harness then calls
  /// Settle (the engine's Adapter::Settle) after SetUp and records how long it took.
  virtual bool settles() const { return false; }
  virtual Status Settle() { return Status::Ok(); }
  /// True when each iteration needs fresh state, built by PrepareIteration outside the timed region.
  virtual bool fresh_state_per_iteration() const { return false; }
  virtual Status PrepareIteration() { return Status::Ok(); }
  /// The timed body: one iteration, verified.
  virtual Status RunIteration() = 0;
  /// Untimed, after each iteration when fresh_state_per_iteration().
  virtual Status FinishIteration() { return Status::Ok(); }
  /// Untimed: closes the engine and removes the databases this benchmark created.
  virtual Status TearDown() = 0;

  /// The open engine: after SetUp for get/scan/count, after PrepareIteration for insert; else null.
  /// For `dbx-bench calibrate`, which runs the engine's native loop on the same database.
  virtual Adapter* adapter() = 0;
  /// The engine's native settings, as the adapter reported them (valid after SetUp).
  virtual const Settings& engine_settings() const = 0;
  /// Hex FNV-1a digest of the rows read back during verification, in key order. Equal across
  /// engines holding the same data.
  virtual std::string checksum() const = 0;

  /// What one iteration writes and commits (nothing for the read workloads).
  virtual WriteTally written_per_iteration() const { return {}; }
  /// Key + value bytes of the data set the database holds.
  virtual uint64_t live_logical_bytes() const = 0;
  /// Allocated bytes of the database's files: the open database's directory, or for a benchmark with
  /// fresh state per iteration the last iteration's, measured after it closed and before its removal.
  virtual uint64_t disk_bytes() const = 0;
};

/// The digest of rows read back in key order (FNV-1a over each key, then its value), equal across engines
/// and suites holding the same rows; ToString() is the `checksum` of results.json ("fnv1a64:<hex>").
class RowDigest {
 public:
  void Add(std::string_view key, std::string_view value);
  std::string ToString() const;

 private:
  uint64_t h_ = 1469598103934665603ull;  // dbx-bench's seed of the digest since its first results
};

/// The order the get workload reads rows 0..n-1 in: a seeded random permutation.
std::vector<uint64_t> MicroGetOrder(uint64_t n, uint64_t seed);

/// Creates one benchmark of the suite. InvalidArgument for an unknown workload name.
Result<std::unique_ptr<MicroBenchmark>> MakeMicroBenchmark(std::string_view workload, const AdapterFactory& engine,
                                                           const MicroConfig& config);

}  // namespace dbxb
