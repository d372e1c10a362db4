#include "workloads/sqlite_vps/vps_config.h"

#include <algorithm>
#include <string>

#include "workloads/sqlite_vps/vps_data.h"

namespace dbxb {
namespace {

constexpr uint64_t kDefaultRangeLength = 10;
constexpr uint64_t kSelectOps = 100'000;
constexpr uint64_t kRangeOps = 20'000;
constexpr uint64_t kUpdateOps = 20'000;
constexpr uint64_t kMixedOps = 50'000;
constexpr double kConcurrentSeconds = 5.0;
constexpr uint32_t kConcurrentReaders = 4;
constexpr uint32_t kConcurrentWriters = 1;
constexpr uint64_t kWarmupOps = 1000;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace

std::string_view VpsDatasetName(VpsDataset d) { return d == VpsDataset::kCached ? "cached" : "disk-bound"; }

Status ParseVpsDatasets(std::string_view text, std::vector<VpsDataset>* out) {
  if (text == "cached")
    *out = {VpsDataset::kCached};
  else if (text == "disk-bound")
    *out = {VpsDataset::kDiskBound};
  else if (text == "both")
    *out = {VpsDataset::kCached, VpsDataset::kDiskBound};
  else
    return Status::InvalidArgument("--dataset: expected cached, disk-bound or both, got '" + std::string(text) + "'");
  return Status::Ok();
}

const std::vector<std::string>& VpsPhaseNames() {
  static const std::vector<std::string> names = {"bulk-insert", "select-pk",        "range-scan",       "update",
                                                 "mixed-oltp",  "concurrent-reads", "concurrent-writes"};
  return names;
}

std::string VpsQuickSummary() {
  return "cached " + std::to_string(kVpsQuickCachedRecords) + " rows, a tenth of the operations, " +
         std::to_string(kWarmupOps / kVpsQuickDivisor) + " warm-up operations, concurrent phases 1 s";
}

uint64_t VpsDiskBoundMemoryLimit(const SqliteVpsConfig& config) {
  return config.memory_limit_bytes > 0 ? config.memory_limit_bytes : kVpsDefaultMemoryLimit;
}

std::vector<std::pair<std::string, std::string>> VpsSqliteNativeOptions() {
  return {{"sqlite.page_size", "8192"},
          {"sqlite.mmap_size", std::to_string(256ull << 20)},
          {"sqlite.temp_store", "memory"},
          {"sqlite.busy_timeout_ms", "5000"}};
}

Result<VpsPlan> ResolveVpsPlan(VpsDataset dataset, const PhaseSuiteOptions& options, const SqliteVpsConfig& config) {
  VpsPlan plan;
  plan.dataset = dataset;
  plan.seed = options.seed;
  plan.work_dir = options.work_dir;
  plan.batch_rows = options.load_batch > 0 ? options.load_batch : 1000;
  plan.range_length = config.range_length > 0 ? config.range_length : kDefaultRangeLength;
  uint64_t cache = kVpsCacheBytes;
  if (dataset == VpsDataset::kCached) {
    plan.payload_bytes = kVpsCachedPayloadBytes;
    plan.records = options.records > 0 ? options.records : config.quick ? kVpsQuickCachedRecords : kVpsCachedRecords;
  } else {
    plan.payload_bytes = kVpsDiskBoundPayloadBytes;
    plan.memory_limit_bytes = VpsDiskBoundMemoryLimit(config);
    plan.records = options.records > 0 ? options.records : CeilDiv(2 * plan.memory_limit_bytes, plan.payload_bytes);
    cache = std::min(cache, plan.memory_limit_bytes / 8);
  }
  if (config.cache_bytes > 0) cache = config.cache_bytes;
  if (plan.records < plan.range_length)
    return Status::InvalidArgument("--records (" + std::to_string(plan.records) +
                                   ") must be at least --range-length (" + std::to_string(plan.range_length) + ")");
  if (plan.records > 999'999'999'999ull) return Status::InvalidArgument("--records: at most 999999999999 rows");

  // Durability is the caller's (--durability; the CLI's default for phase suites is normal, the
  // study's synchronous=NORMAL): each adapter maps it to its engine and reports what it applied.
  plan.engine_options = options.engine_options;
  plan.engine_options.dir.clear();
  plan.engine_options.cache_bytes = cache;
  plan.engine_options.native_options = VpsSqliteNativeOptions();
  // Larger than memory, random reads: LMDB's own advice is MDB_NORDAHEAD, or each page fault reads
  // neighbours nobody asked for into the limited memory (RocksDB does the same by default with
  // advise_random_on_open; SQLite's reads past its mmap_size use pread of the page alone).
  if (dataset == VpsDataset::kDiskBound) plan.engine_options.native_options.emplace_back("lmdb.readahead", "off");
  // DBX reads its segments mapped with MADV_RANDOM (the block alone) and gets SQLite's page size here:
  // every phase starts with the page cache evicted, so the rows one device read brings into memory
  // decide how many later lookups need none; a block of two pages is still one request.
  if (dataset == VpsDataset::kDiskBound) plan.engine_options.native_options.emplace_back("dbx.block_size", "8192");
  // The user's --engine-option settings come last: each adapter applies its keys in order, so they win.
  for (const auto& kv : options.engine_options.native_options) plan.engine_options.native_options.push_back(kv);

  for (const std::string& name : config.phases) {
    if (std::find(VpsPhaseNames().begin(), VpsPhaseNames().end(), name) == VpsPhaseNames().end())
      return Status::InvalidArgument("unknown sqlite-vps phase '" + name + "'");
  }
  const uint32_t threads = options.threads > 0 ? options.threads : 1;
  const uint64_t divisor = config.quick ? kVpsQuickDivisor : 1;
  const uint64_t warmup_ops = kWarmupOps / divisor;
  for (const std::string& name : VpsPhaseNames()) {
    if (!config.phases.empty() && std::find(config.phases.begin(), config.phases.end(), name) == config.phases.end())
      continue;
    PhaseSpec spec;
    spec.name = name;
    spec.settle = options.settle && name != "bulk-insert";  // every phase after the rows are written
    spec.threads = threads;
    spec.target_rate = options.target_rate;
    spec.warmup_operations = options.warmup_seconds > 0 ? 0 : warmup_ops;
    spec.warmup_seconds = options.warmup_seconds;
    uint64_t default_ops = 0;
    double default_seconds = 0;
    if (name == "bulk-insert") {
      spec.op_types = {"insert"};
      spec.repeatable = false;  // it fills the empty table once
      spec.threads = 1;
      spec.target_rate = 0;
      // Every row is inserted exactly once: the warm-up rows are the first of the N.
      spec.warmup_operations = std::min<uint64_t>(warmup_ops, plan.records / 10);
      spec.warmup_seconds = 0;
      spec.operations = plan.records - spec.warmup_operations;
      spec.parameters = {{"batch_rows", std::to_string(plan.batch_rows)}};
    } else if (name == "select-pk") {
      spec.op_types = {"read"};
      default_ops = kSelectOps;
    } else if (name == "range-scan") {
      spec.op_types = {"scan"};
      spec.rows_per_operation = plan.range_length;
      spec.parameters = {{"range_length", std::to_string(plan.range_length)}};
      default_ops = kRangeOps;
    } else if (name == "update") {
      spec.op_types = {"update"};
      default_ops = kUpdateOps;
    } else if (name == "mixed-oltp") {
      spec.op_types = {"read", "update", "insert"};
      spec.parameters = {{"mix", "70% read, 25% update, 5% insert"}};
      default_ops = kMixedOps;
    } else if (name == "concurrent-reads") {
      spec.op_types = {"read"};
      spec.threads = options.readers > 0 ? options.readers : options.threads > 0 ? options.threads : kConcurrentReaders;
      default_seconds = kConcurrentSeconds;
    } else {  // concurrent-writes
      spec.op_types = {"update"};
      spec.threads = options.writers > 0 ? options.writers : kConcurrentWriters;
      default_seconds = kConcurrentSeconds;
    }
    if (name != "bulk-insert") {
      // Given bounds replace the defaults; with both given, whichever comes first ends the phase.
      const bool given = options.operations > 0 || options.duration_seconds > 0;
      spec.operations = given ? options.operations : default_ops / divisor;
      spec.duration_seconds = given ? options.duration_seconds : config.quick ? default_seconds / 5 : default_seconds;
    }
    spec.parameters.insert(spec.parameters.begin(), {{"dataset", std::string(VpsDatasetName(dataset))},
                                                     {"records", std::to_string(plan.records)},
                                                     {"payload_bytes", std::to_string(plan.payload_bytes)}});
    plan.phases.push_back(std::move(spec));
  }
  if (plan.phases.empty()) return Status::InvalidArgument("no sqlite-vps phase selected");
  return plan;
}

}  // namespace dbxb
