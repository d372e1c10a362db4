#include "adapters/rocksdb/rocksdb_adapter.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "adapters/rocksdb/rocksdb_compat.h"

#if !defined(DBXB_LIB_BUILD) || !defined(DBXB_LIB_SOURCE) || !defined(DBXB_LIB_FLAGS) || !defined(DBXB_LIB_RELEASE_DATE)
#error "DBXB_LIB_* must describe the RocksDB build linked (set by cmake/thirdparty.cmake)"
#endif

namespace dbxb {
namespace {

constexpr char kSettle[] =
    "DB::Flush (wait: the memtables written out as an SST file, db_bench's flush), DB::CompactRange over the whole "
    "key range (db_bench's compact), then until no flush or compaction is pending or running (db_bench's "
    "waitforcompaction)";

Status FromRocks(const rocksdb::Status& s, std::string_view what) {
  if (s.ok()) return Status::Ok();
  std::string msg = std::string(what) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsNotSupported()) return Status::NotSupported(msg);
  if (s.IsBusy() || s.IsTryAgain()) return Status::Conflict(msg);
  return Status::IOError(msg);
}

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }
std::string_view ToView(const rocksdb::Slice& s) { return std::string_view(s.data(), s.size()); }

rocksdb::WriteOptions WriteOptionsFor(Durability d) {
  rocksdb::WriteOptions wo;
  wo.disableWAL = d == Durability::kNone;
  wo.sync = d == Durability::kFull;
  return wo;
}

// RocksDB's per-thread perf level defaults to kEnableCount: every Get and Write then counts into the
// thread's PerfContext, a diagnostic (with the shared library each count is a __tls_get_addr call).
// db_bench runs its benchmark threads with kDisable (its --perf_level default), as RocksDB's developers
// measure it, and so does every thread that calls RocksDB here: set once per thread, on its first call.
void PerfCountersOffOnThisThread() {
  thread_local bool off = false;
  if (off) [[likely]]
    return;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  off = true;
}

class RocksdbSession final : public Session {
 public:
  RocksdbSession(rocksdb::DB* db, const rocksdb::WriteOptions* write_options)
      : db_(db), write_options_(write_options) {}

  Status Put(std::string_view key, std::string_view value) override {
    PerfCountersOffOnThisThread();
    if (in_batch()) return FromRocks(batch_.Put(ToSlice(key), ToSlice(value)), "Put");
    return FromRocks(db_->Put(*write_options_, ToSlice(key), ToSlice(value)), "Put");
  }

  Status Get(std::string_view key, std::string* value) override {
    PerfCountersOffOnThisThread();
    rocksdb::Status s = db_->Get(read_options_, ToSlice(key), value);
    if (s.IsNotFound()) return Status::NotFound();
    return FromRocks(s, "Get");
  }

  Status Delete(std::string_view key) override {
    PerfCountersOffOnThisThread();
    if (in_batch()) return FromRocks(batch_.Delete(ToSlice(key)), "Delete");
    return FromRocks(db_->Delete(*write_options_, ToSlice(key)), "Delete");
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    PerfCountersOffOnThisThread();
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read_options_));
    uint64_t seen = 0;
    for (it->Seek(ToSlice(start)); it->Valid(); it->Next()) {
      if (limit != 0 && seen == limit) break;
      ++seen;
      if (!visitor(ToView(it->key()), ToView(it->value()))) break;
    }
    return FromRocks(it->status(), "Scan");
  }

  Status Count(uint64_t* count) override {
    PerfCountersOffOnThisThread();
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;  // a full pass would otherwise evict the workload's cached blocks
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro));
    uint64_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    DBXB_RETURN_IF_ERROR(FromRocks(it->status(), "Count"));
    *count = n;
    return Status::Ok();
  }

 private:
  Status DoBegin() override {
    batch_.Clear();
    return Status::Ok();
  }
  Status DoCommit() override {
    PerfCountersOffOnThisThread();
    Status s = FromRocks(db_->Write(*write_options_, &batch_), "Commit");
    batch_.Clear();
    return s;
  }
  Status DoAbort() override {
    batch_.Clear();
    return Status::Ok();
  }

  rocksdb::DB* db_;
  const rocksdb::WriteOptions* write_options_;
  // Built once, as db_bench's read_options_, not per read (its constructor is out of line, a call
  // through the PLT with the shared library).
  const rocksdb::ReadOptions read_options_;
  rocksdb::WriteBatch batch_;
};

// dbx-micro's loops on rocksdb::DB itself, as db_bench's readrandom, fillseq (batched) and readseq do.
class RocksdbNativeLoop final : public NativeLoop {
 public:
  RocksdbNativeLoop(rocksdb::DB* db, const rocksdb::WriteOptions* write_options)
      : db_(db), write_options_(write_options) {}
  Status GetAll(const ReferenceData& data, const std::vector<uint64_t>& order) override {
    PerfCountersOffOnThisThread();
    const rocksdb::ReadOptions ro;
    for (uint64_t i : order) {
      rocksdb::Status s = db_->Get(ro, ToSlice(data.KeyInto(i, &key_)), &value_);
      if (!s.ok() || !data.ValueEquals(i, value_))
        return s.ok() || s.IsNotFound() ? NativeLoopMismatch(i, s.ok()) : FromRocks(s, "native get");
    }
    return Status::Ok();
  }
  Status PutAll(const ReferenceData& data) override {
    PerfCountersOffOnThisThread();
    rocksdb::WriteBatch batch;
    for (uint64_t i = 0; i < data.size(); ++i)
      DBXB_RETURN_IF_ERROR(FromRocks(batch.Put(ToSlice(data.key(i)), ToSlice(data.value(i))), "native put"));
    return FromRocks(db_->Write(*write_options_, &batch), "native write");
  }
  Status ScanAll(uint64_t* rows, uint64_t* byte_sum) override {
    PerfCountersOffOnThisThread();
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) AddScanRow(ToView(it->key()), ToView(it->value()), rows, byte_sum);
    return FromRocks(it->status(), "native scan");
  }

 private:
  rocksdb::DB* db_;
  const rocksdb::WriteOptions* write_options_;
  std::string key_;  // the key being read, built by ReferenceData::KeyInto
  std::string value_;
};

std::string Bool(bool b) { return b ? "true" : "false"; }

std::string CompressionName(rocksdb::CompressionType type) {
  std::string name;
  if (!rocksdb::GetStringFromCompressionType(&name, type).ok()) name = std::to_string(static_cast<int>(type));
  return name;
}

std::string CompactionStyleName(rocksdb::CompactionStyle style) {
  switch (style) {
    case rocksdb::kCompactionStyleLevel:
      return "level";
    case rocksdb::kCompactionStyleUniversal:
      return "universal";
    case rocksdb::kCompactionStyleFIFO:
      return "fifo";
    case rocksdb::kCompactionStyleNone:
      return "none";
  }
  return std::to_string(static_cast<int>(style));
}

constexpr char kCompressionKey[] = "rocksdb.compression";

// Applies AdapterOptions::native_options with the "rocksdb." prefix:
//   rocksdb.compression = none | snappy (RocksDB's default) | lz4 | lz4hc | zstd | zlib | bzip2: the
//                         compression of every level's blocks (Options::compression; the bottommost level
//                         follows it), one this librocksdb supports.
Status ApplyNativeOptions(const AdapterOptions& options, rocksdb::Options* db_options) {
  static const struct {
    const char* name;
    rocksdb::CompressionType type;
  } kCompressions[] = {
      {"none", rocksdb::kNoCompression},
      {"snappy", rocksdb::kSnappyCompression},
      {"lz4", rocksdb::kLZ4Compression},
      {"lz4hc", rocksdb::kLZ4HCCompression},
      {"zstd", rocksdb::kZSTD},
      {"zlib", rocksdb::kZlibCompression},
      {"bzip2", rocksdb::kBZip2Compression},
  };
  for (const auto& [key, given] : options.native_options) {
    if (key != kCompressionKey) continue;  // other engines' keys; the registry rejects unknown rocksdb. ones
    const std::string& value = given;      // a plain reference: a lambda may not capture a structured binding
    const auto* found = std::find_if(std::begin(kCompressions), std::end(kCompressions),
                                     [&](const auto& c) { return value == c.name; });
    if (found == std::end(kCompressions))
      return Status::InvalidArgument(key + ": expected none, snappy, lz4, lz4hc, zstd, zlib or bzip2, got '" + value +
                                     "'");
    const std::vector<rocksdb::CompressionType> supported = rocksdb::GetSupportedCompressions();
    if (found->type != rocksdb::kNoCompression &&
        std::find(supported.begin(), supported.end(), found->type) == supported.end())
      return Status::InvalidArgument(key + ": this librocksdb was built without " + value);
    db_options->compression = found->type;
  }
  return Status::Ok();
}

class RocksdbAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    rocksdb::Options db_options;
    DBXB_RETURN_IF_ERROR(ApplyNativeOptions(options, &db_options));
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());

    db_options.create_if_missing = true;
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = rocksdb::NewLRUCache(options.cache_bytes);
    db_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

    std::unique_ptr<rocksdb::DB> db;
    DBXB_RETURN_IF_ERROR(FromRocks(rocks::Open(db_options, options.dir, &db), "open " + options.dir));
    return std::unique_ptr<Adapter>(new RocksdbAdapter(std::move(db), WriteOptionsFor(options.durability)));
  }

  ~RocksdbAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (db_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return std::unique_ptr<Session>(new RocksdbSession(db_.get(), &write_options_));
  }

  // Read back from the open DB (its options as applied) plus the WriteOptions every write uses.
  Settings NativeSettings() override {
    Settings s;
    if (db_ == nullptr) return s;
    rocksdb::Options o = db_->GetOptions();
    s.emplace_back("write_options.disableWAL", Bool(write_options_.disableWAL));
    s.emplace_back("write_options.sync", Bool(write_options_.sync));
    s.emplace_back("use_fsync", Bool(o.use_fsync));
    s.emplace_back("manual_wal_flush", Bool(o.manual_wal_flush));
    const auto* table = o.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    if (table != nullptr) {
      s.emplace_back("block_cache_capacity",
                     table->block_cache ? std::to_string(table->block_cache->GetCapacity()) : "none");
      s.emplace_back("block_cache", table->block_cache ? table->block_cache->Name() : "none");
      s.emplace_back("block_size", std::to_string(table->block_size));
      s.emplace_back("filter_policy", table->filter_policy ? table->filter_policy->Name() : "none");
      s.emplace_back("cache_index_and_filter_blocks", Bool(table->cache_index_and_filter_blocks));
      s.emplace_back("format_version", std::to_string(table->format_version));
    } else {
      s.emplace_back("table_factory", o.table_factory->Name());
    }
    s.emplace_back("compression", CompressionName(o.compression));
    s.emplace_back("bottommost_compression", CompressionName(o.bottommost_compression));
    s.emplace_back("compaction_style", CompactionStyleName(o.compaction_style));
    s.emplace_back("num_levels", std::to_string(o.num_levels));
    s.emplace_back("write_buffer_size", std::to_string(o.write_buffer_size));
    s.emplace_back("max_write_buffer_number", std::to_string(o.max_write_buffer_number));
    s.emplace_back("level0_file_num_compaction_trigger", std::to_string(o.level0_file_num_compaction_trigger));
    s.emplace_back("target_file_size_base", std::to_string(o.target_file_size_base));
    s.emplace_back("max_bytes_for_level_base", std::to_string(o.max_bytes_for_level_base));
    s.emplace_back("max_background_jobs", std::to_string(o.max_background_jobs));
    s.emplace_back("max_open_files", std::to_string(o.max_open_files));
    s.emplace_back("bytes_per_sync", std::to_string(o.bytes_per_sync));
    s.emplace_back("wal_bytes_per_sync", std::to_string(o.wal_bytes_per_sync));
    s.emplace_back("allow_mmap_reads", Bool(o.allow_mmap_reads));
    s.emplace_back("use_direct_reads", Bool(o.use_direct_reads));
    s.emplace_back("batch", "WriteBatch written by DB::Write at Commit");
    s.emplace_back("perf_level", "kDisable on every calling thread (db_bench's --perf_level default)");
    s.emplace_back("settle", kSettle);
    return s;
  }

  Result<std::unique_ptr<NativeLoop>> NewNativeLoop() override {
    if (db_ == nullptr) return Status::InvalidArgument("NewNativeLoop: adapter is closed");
    return std::unique_ptr<NativeLoop>(new RocksdbNativeLoop(db_.get(), &write_options_));
  }

  // The memtables are flushed first (db_bench's `flush`: RocksDB's own read benchmarks run on a flushed,
  // compacted database), then, as RocksDB 7.8 has no DB::WaitForCompact, the properties db_bench's
  // waitforcompaction reads are polled until the compactions that flush made due have run.
  Status Settle() override {
    if (db_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    rocksdb::FlushOptions flush;
    flush.wait = true;
    DBXB_RETURN_IF_ERROR(FromRocks(db_->Flush(flush), "Settle: flush"));
    // The whole key range compacted, as db_bench's `compact` (and RocksDB's benchmark scripts before their
    // read benchmarks) does: the read-optimal layout, not where the load's compactions happened to stop.
    DBXB_RETURN_IF_ERROR(
        FromRocks(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr), "Settle: compact range"));
    static const char* const kBusy[] = {"rocksdb.mem-table-flush-pending", "rocksdb.num-running-flushes",
                                        "rocksdb.compaction-pending", "rocksdb.num-running-compactions"};
    for (;;) {
      bool busy = false;
      for (const char* property : kBusy) {
        uint64_t value = 0;
        if (!db_->GetIntProperty(property, &value))
          return Status::Internal(std::string("Settle: RocksDB has no property ") + property);
        busy = busy || value != 0;
      }
      if (!busy) return Status::Ok();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  // With the WAL off the memtables hold the only copy of recent writes: flush them explicitly (rather
  // than rely on avoid_flush_during_shutdown's default) so a clean Close keeps them.
  Status Close() override {
    if (db_ == nullptr) return Status::Ok();
    Status s;
    if (write_options_.disableWAL) s = FromRocks(db_->Flush(rocksdb::FlushOptions()), "flush on close");
    Status closed = FromRocks(db_->Close(), "close");
    db_.reset();
    return s.ok() ? closed : s;
  }

 private:
  RocksdbAdapter(std::unique_ptr<rocksdb::DB> db, rocksdb::WriteOptions write_options)
      : db_(std::move(db)), write_options_(write_options) {}

  std::unique_ptr<rocksdb::DB> db_;
  const rocksdb::WriteOptions write_options_;
};

}  // namespace

AdapterFactory RocksdbAdapterFactory() {
  AdapterFactory f;
  f.name = "rocksdb";
  f.native_loop = true;
  f.description = "RocksDB: LSM tree with a WAL, WriteBatch per batch, LRU block cache";
  f.library_version = [] { return "RocksDB " + rocksdb::GetRocksVersionAsString(true); };
  f.library_build = [] { return std::string(DBXB_LIB_BUILD); };
  f.library_source = DBXB_LIB_SOURCE;
  f.library_flags = DBXB_LIB_FLAGS;
  f.library_release_date = DBXB_LIB_RELEASE_DATE;
  f.native_options = {
      {kCompressionKey,
       "`none`, `snappy`, `lz4`, `lz4hc`, `zstd`, `zlib` or `bzip2` (one the linked librocksdb supports): every "
       "level's block compression",
       "RocksDB's default (`Options::compression`): `snappy` up to 7.x, `lz4` from 8.x when linked"},
  };
  f.durability = {{
      {"`disableWAL`", {{"write_options.disableWAL", "true"}, {"write_options.sync", "false"}}, 0},
      {"WAL, no sync", {{"write_options.disableWAL", "false"}, {"write_options.sync", "false"}}, 0},
      {"`WriteOptions::sync`", {{"write_options.disableWAL", "false"}, {"write_options.sync", "true"}}, 1},
  }};
  f.settle = kSettle;
  f.debian_packages = {"librocksdb-dev"};
  f.check_native_values = [](const AdapterOptions& options) {
    rocksdb::Options o;
    return ApplyNativeOptions(options, &o);
  };
  f.open = [](const AdapterOptions& options) { return RocksdbAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
