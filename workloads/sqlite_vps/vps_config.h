// The sqlite-vps suite's options and how they resolve into one plan per data set.
//
// Data sets:
//   cached      1,000,000 rows x 200 B payload (--records overrides): fits any cache.
//   disk-bound  500 B payloads, N = ceil(2 x memory limit / 500) rows unless --records is given, so the
//               payloads alone are twice the memory the run may use. Memory limit: --memory-limit, or
//               1 GiB when not given (the study's box had 3.7 GiB of RAM under a 6 GB database; 1 GiB
//               keeps a full run to minutes).
//
// Engine settings, the same for every engine: cache_bytes 256 MiB (disk-bound: at most 1/8 of the
// memory limit, so that the engines' own caches leave room for the page cache inside the limit; an
// explicit cache size overrides both), the durability of options.engine_options (AdapterOptions'
// default, and the CLI's default for this suite, is normal: the study's synchronous=NORMAL; none and
// full map SQLite to synchronous=OFF / FULL, see each adapter), and SQLite's production settings (WAL
// is the adapter's own; synchronous comes from the durability):
//   sqlite.page_size=8192, sqlite.mmap_size=268435456, sqlite.temp_store=memory, sqlite.busy_timeout_ms=5000
// and, disk-bound only, lmdb.readahead=off (MDB_NORDAHEAD, LMDB's advice for random reads of a
// database larger than RAM).
//
// Phases, in order (each a PhaseSpec; see vps_phases.h for what one operation is):
//   bulk-insert        all N rows, one row per operation, a transaction per `batch_rows` rows; always by
//                      count (never by --duration), 1 thread; its warm-up rows are part of the N.
//   select-pk          100,000 random primary-key reads
//   range-scan         20,000 index range reads of range_length (10) rows on a
//   update             20,000 single-row updates (b and payload) by random primary key, one transaction each
//   mixed-oltp         50,000 operations: 70 % select-pk, 25 % update, 5 % insert of a new row
//   concurrent-reads   select-pk on `readers` threads (4) for 5 s
//   concurrent-writes  single-row updates on `writers` threads (1) for 5 s
// --operations replaces every count above but bulk-insert's; --duration bounds every phase but
// bulk-insert by time instead. --threads sets the threads of select-pk, range-scan, update and
// mixed-oltp (default 1) and of concurrent-reads when --readers is not given. Warm-up: 1,000 operations
// per thread, or --phase-warmup seconds when given.
// --quick (SqliteVpsConfig::quick): cached 100,000 rows, a tenth of every default count above, 100
// warm-up operations, concurrent phases 1 s; the disk-bound data set keeps its size (it must exceed
// the memory limit). Given options override the quick defaults as they override the normal ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "workloads/phase.h"

namespace dbxb {

enum class VpsDataset { kCached, kDiskBound };

std::string_view VpsDatasetName(VpsDataset d);
/// Parses "cached", "disk-bound" or "both" (= cached, then disk-bound). InvalidArgument otherwise.
Status ParseVpsDatasets(std::string_view text, std::vector<VpsDataset>* out);

/// The phase names, in run order.
const std::vector<std::string>& VpsPhaseNames();

/// What the CLI can set beyond PhaseSuiteOptions. Zero / empty = the default described above.
struct SqliteVpsConfig {
  std::vector<VpsDataset> datasets = {VpsDataset::kCached};
  uint64_t memory_limit_bytes = 0;  ///< --memory-limit; disk-bound sizing and cache budget
  uint64_t range_length = 0;        ///< --range-length: rows per range-scan operation (10)
  uint64_t cache_bytes = 0;         ///< an explicit cache size for every engine (overrides 256 MiB)
  std::vector<std::string> phases;  ///< a subset of VpsPhaseNames(), run in suite order (empty = all)
  bool quick = false;               ///< --quick: the short defaults (VpsQuickSummary)
};

/// One data set's resolved plan: everything a sequence needs, with the defaults filled in.
struct VpsPlan {
  VpsDataset dataset = VpsDataset::kCached;
  uint64_t records = 0;
  uint32_t payload_bytes = 0;
  uint64_t memory_limit_bytes = 0;  ///< disk-bound only (0 for cached)
  uint64_t batch_rows = 1000;       ///< bulk-insert rows per transaction
  uint64_t range_length = 10;
  uint64_t seed = 1;
  AdapterOptions engine_options;  ///< dir left empty: the sequence sets it
  std::string work_dir;
  /// The specs of the phases to run, in order (op_types and parameters filled by vps_phases).
  std::vector<PhaseSpec> phases;
};

constexpr uint64_t kVpsCachedRecords = 1'000'000;
constexpr uint32_t kVpsCachedPayloadBytes = 200;
constexpr uint32_t kVpsDiskBoundPayloadBytes = 500;
constexpr uint64_t kVpsDefaultMemoryLimit = 1ull << 30;
constexpr uint64_t kVpsCacheBytes = 256ull << 20;
/// --quick: cached rows, and the divisor of every default operation count and duration.
constexpr uint64_t kVpsQuickCachedRecords = 100'000;
constexpr uint64_t kVpsQuickDivisor = 10;

/// What --quick changes, for --help: "cached 100000 rows, a tenth of the operations, ...".
std::string VpsQuickSummary();

/// The memory the disk-bound data set is sized for and confined to: config.memory_limit_bytes, or
/// kVpsDefaultMemoryLimit when it is 0. The runner passes it to harness/memory/memory_limit.h's WithMemoryLimit.
uint64_t VpsDiskBoundMemoryLimit(const SqliteVpsConfig& config);

/// SQLite's production settings of the study, as native options.
std::vector<std::pair<std::string, std::string>> VpsSqliteNativeOptions();

/// The plan of one data set. InvalidArgument for options the suite cannot honour (an unknown phase,
/// --records smaller than range_length, ...), naming the option.
Result<VpsPlan> ResolveVpsPlan(VpsDataset dataset, const PhaseSuiteOptions& options, const SqliteVpsConfig& config);

}  // namespace dbxb
