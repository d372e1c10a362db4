#include "adapters/dbx/dbx_adapter.h"

#include <string>

#include "adapters/native_options.h"
#include "dbx/db.h"

namespace dbxb {
namespace {

constexpr char kSettle[] =
    "DB::Flush (the delta store and the WOS written out as a segment), DB::WaitForIdle (until no flush or "
    "compaction is queued or running), then DB::Compact when more than one segment is left (all merged into one)";

// REQUIRES: !s.ok(). Out of line, so that the OK path of FromDbx is a compare and nothing else.
[[gnu::noinline]] Status FromDbxError(const dbx::Status& s) {
  using C = dbx::Status::Code;
  switch (s.code()) {
    case C::kOk:
      return Status::Ok();
    case C::kNotFound:
      return Status::NotFound(s.message());
    case C::kInvalidArgument:
      return Status::InvalidArgument(s.message());
    case C::kIOError:
      return Status::IOError(s.message());
    case C::kCorruption:
      return Status::Corruption(s.message());
    case C::kConflict:
      return Status::Conflict(s.message());
    case C::kNotSupported:
      return Status::NotSupported(s.message());
    case C::kBusy:
      return Status::IOError("busy: " + s.message());
  }
  return Status::Internal(s.ToString());
}

// The adapter's Status for the engine's: every operation of a session passes through here.
Status FromDbx(const dbx::Status& s) { return s.ok() ? Status::Ok() : FromDbxError(s); }

dbx::Durability ToDbx(Durability d) {
  switch (d) {
    case Durability::kNone:
      return dbx::Durability::kNone;
    case Durability::kNormal:
      return dbx::Durability::kNormal;
    case Durability::kFull:
      return dbx::Durability::kFull;
  }
  return dbx::Durability::kFull;
}

class DbxSession final : public Session {
 public:
  explicit DbxSession(dbx::DB* db) : db_(db) {}

  Status Put(std::string_view key, std::string_view value) override {
    if (in_batch()) {
      batch_.Put(key, value);
      return Status::Ok();
    }
    return FromDbx(db_->Put(dbx::WriteOptions(), key, value));
  }
  Status Get(std::string_view key, std::string* value) override {
    return FromDbx(db_->Get(dbx::ReadOptions(), key, value));
  }
  Status Delete(std::string_view key) override {
    if (in_batch()) {
      batch_.Delete(key);
      return Status::Ok();
    }
    return FromDbx(db_->Delete(dbx::WriteOptions(), key));
  }
  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    // The visitor's own callback goes to the engine: no trampoline per row in between.
    return FromDbx(db_->ScanWith(dbx::ReadOptions(), start, {}, limit, visitor.function(), visitor.object()));
  }
  Status Count(uint64_t* count) override { return FromDbx(db_->Count(dbx::ReadOptions(), count)); }

 private:
  Status DoBegin() override {
    batch_.Clear();
    return Status::Ok();
  }
  Status DoCommit() override {
    Status s = FromDbx(db_->Write(dbx::WriteOptions(), batch_));
    batch_.Clear();
    return s;
  }
  Status DoAbort() override {
    batch_.Clear();
    return Status::Ok();
  }

  dbx::DB* db_;
  dbx::WriteBatch batch_;
};

// dbx-micro's loops on dbx::DB itself, with the calls a DbxSession makes.
class DbxNativeLoop final : public NativeLoop {
 public:
  explicit DbxNativeLoop(dbx::DB* db) : db_(db) {}
  Status GetAll(const ReferenceData& data, const std::vector<uint64_t>& order) override {
    const dbx::ReadOptions ro;
    for (uint64_t i : order) {
      dbx::Status s = db_->Get(ro, data.KeyInto(i, &key_), &value_);
      if (!s.ok() || !data.ValueEquals(i, value_))
        return s.IsNotFound() || s.ok() ? NativeLoopMismatch(i, s.ok()) : FromDbx(s);
    }
    return Status::Ok();
  }
  Status PutAll(const ReferenceData& data) override {
    dbx::WriteBatch batch;
    for (uint64_t i = 0; i < data.size(); ++i) batch.Put(data.key(i), data.value(i));
    return FromDbx(db_->Write(dbx::WriteOptions(), batch));
  }
  Status ScanAll(uint64_t* rows, uint64_t* byte_sum) override {
    return FromDbx(db_->Scan(dbx::ReadOptions(), {}, {}, 0, [&](std::string_view k, std::string_view v) {
      AddScanRow(k, v, rows, byte_sum);
      return true;
    }));
  }

 private:
  dbx::DB* db_;
  std::string key_;  // the key being read, built by ReferenceData::KeyInto
  std::string value_;
};

class DbxAdapter final : public Adapter {
 public:
  explicit DbxAdapter(std::unique_ptr<dbx::DB> db) : db_(std::move(db)) {}
  ~DbxAdapter() override {
    if (db_ != nullptr) (void)Close();
  }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (db_ == nullptr) return Status::InvalidArgument("dbx: adapter is closed");
    return std::unique_ptr<Session>(new DbxSession(db_.get()));
  }

  Settings NativeSettings() override {
    if (db_ == nullptr) return {};
    const dbx::Options& o = db_->GetOptions();  // as the engine runs, not as requested
    std::string wal_sync = o.durability == dbx::Durability::kNone     ? "never"
                           : o.durability == dbx::Durability::kNormal ? "background"
                                                                      : "per_commit_group";
    return {
        {"durability", dbx::DurabilityName(o.durability)},
        {"wal", o.durability == dbx::Durability::kNone ? "off" : "on"},
        {"wal_sync", wal_sync},
        {"wal_sync_interval_ms", std::to_string(o.wal_sync_interval_ms)},
        {"memory_budget_bytes", std::to_string(o.memory_budget_bytes)},
        {"delta_flush_entries", std::to_string(o.delta_flush_entries)},
        {"delta_flush_bytes", std::to_string(o.delta_flush_bytes)},
        {"wos_flush_bytes", std::to_string(o.wos_flush_bytes)},
        {"write_buffer_limit_bytes", std::to_string(o.write_buffer_limit_bytes)},
        {"columnar_cache_bytes", std::to_string(o.columnar_cache_bytes)},
        {"block_size", std::to_string(o.block_size)},
        {"block_cache_bytes", std::to_string(o.block_cache_bytes)},
        {"compression", dbx::CompressionName(o.compression)},
        {"bloom_bits_per_key", std::to_string(o.bloom_bits_per_key)},
        {"compaction_trigger", std::to_string(o.compaction_trigger)},
        {"bytes_per_sync", std::to_string(o.bytes_per_sync)},
        {"release_freed_memory", o.release_freed_memory ? "malloc_trim after each flush and compaction" : "off"},
        {"segment_reads",
         "mapped (MADV_RANDOM): uncompressed blocks are searched in place in the OS page cache, the block cache "
         "holds their descriptors and decoded compressed blocks"},
        {"settle", kSettle},
    };
  }

  Result<std::unique_ptr<NativeLoop>> NewNativeLoop() override {
    if (db_ == nullptr) return Status::InvalidArgument("dbx: adapter is closed");
    return std::unique_ptr<NativeLoop>(new DbxNativeLoop(db_.get()));
  }

  // As the other engines' settles move recent writes into their main structure (a WAL checkpoint, a
  // CHECKPOINT, a memtable flush), the write tiers go into a segment first, so a measured read does not
  // pay for the skiplists of whatever arrived since the last WOS flush; then whatever compaction that
  // flush makes due runs to its end. Whatever segments the size-tiered policy left side by side (it merges
  // a run only once `compaction_trigger` similar ones exist) are then merged into one, as RocksDB's settle
  // compacts its whole key range (db_bench's `compact`): the read-optimal layout, which the policy would
  // otherwise reach only at the next run of writes, so that a phase does not measure where the load
  // happened to stop. Durability is unchanged: neither acknowledges anything.
  Status Settle() override {
    if (db_ == nullptr) return Status::InvalidArgument("dbx: adapter is closed");
    DBXB_RETURN_IF_ERROR(FromDbx(db_->Flush()));
    DBXB_RETURN_IF_ERROR(FromDbx(db_->WaitForIdle()));
    if (db_->GetStats().segments > 1) DBXB_RETURN_IF_ERROR(FromDbx(db_->Compact()));
    return FromDbx(db_->WaitForIdle());
  }

  Status Close() override {
    if (db_ == nullptr) return Status::InvalidArgument("dbx: adapter is already closed");
    Status s = FromDbx(db_->Close());
    db_.reset();
    return s;
  }

 private:
  std::unique_ptr<dbx::DB> db_;
};

constexpr char kReleaseFreedMemoryKey[] = "dbx.release_freed_memory";
constexpr char kBlockSizeKey[] = "dbx.block_size";
constexpr size_t kMinBlockSize = 512;
constexpr size_t kMaxBlockSize = 1 << 20;

// Applies AdapterOptions::native_options with the "dbx." prefix to *o:
//   dbx.release_freed_memory = on (the default) | off: whether the background thread hands the heap a
//                              flush or compaction freed back to the OS (Options::release_freed_memory).
//   dbx.block_size           = bytes in [512, 1 MiB]: the most a segment data block takes
//                              (Options::block_size).
Status ApplyNativeOptions(const AdapterOptions& options, dbx::Options* o) {
  for (const auto& [key, value] : options.native_options) {
    if (key.rfind("dbx.", 0) != 0) continue;
    if (key == kReleaseFreedMemoryKey) {
      DBXB_RETURN_IF_ERROR(ParseNativeSwitch(key, value, &o->release_freed_memory));
    } else if (key == kBlockSizeKey) {
      DBXB_RETURN_IF_ERROR(ParseNativeNumber(key, value, "a byte count", kMinBlockSize, kMaxBlockSize, &o->block_size));
    } else {
      return Status::InvalidArgument("unknown native option '" + key + "' for engine dbx");
    }
  }
  return Status::Ok();
}

}  // namespace

AdapterFactory DbxAdapterFactory() {
  AdapterFactory f;
  f.name = "dbx";
  f.native_loop = true;
  f.description = "DBX 5-tier hybrid storage (in-tree engine): delta store, columnar cache, WOS, index, ROS";
  f.library_version = [] { return std::string("dbx-engine (in-tree)"); };
  f.library_build = [] { return std::string("built-in (same build as dbx-bench)"); };
  f.library_source = "in-tree (engine/)";
  f.native_options = {
      {kReleaseFreedMemoryKey,
       "`on` or `off`: hand the heap a flush or compaction freed back to the OS (`malloc_trim`)", "`on`"},
      {kBlockSizeKey, "bytes, 512 to 1 MiB: the most a segment data block takes",
       "4096; 8192 on sqlite-vps's disk-bound data set"},
  };
  f.durability = {{
      {"no WAL", {{"wal", "off"}, {"wal_sync", "never"}}, 0},
      {"WAL, fsync in the background (not in the commit)", {{"wal", "on"}, {"wal_sync", "background"}}, 0},
      {"WAL fsync before the commit returns (group commit)", {{"wal", "on"}, {"wal_sync", "per_commit_group"}}, 1},
  }};
  f.settle = kSettle;
  f.debian_packages = {"libzstd-dev", "liblz4-dev"};
  f.check_native_values = [](const AdapterOptions& options) {
    dbx::Options o;
    return ApplyNativeOptions(options, &o);
  };
  f.open = [](const AdapterOptions& options) -> Result<std::unique_ptr<Adapter>> {
    dbx::Options o;
    o.durability = ToDbx(options.durability);
    // The cache budget every engine gets is DBX's read cache, as it is RocksDB's block cache and
    // SQLite's page cache. The write tiers and the columnar cache are sized from the same budget
    // (the engine's shares of it, 3/4 in all) and writers stall to stay within them, as RocksDB's
    // memtables come on top of its block cache: DBX holds at most about 1.75 x cache_bytes.
    o.memory_budget_bytes = options.cache_bytes;
    if (options.cache_bytes > 0) o.block_cache_bytes = options.cache_bytes;
    DBXB_RETURN_IF_ERROR(ApplyNativeOptions(options, &o));
    std::unique_ptr<dbx::DB> db;
    Status s = FromDbx(dbx::DB::Open(o, options.dir, &db));
    if (!s.ok()) return s;
    return std::unique_ptr<Adapter>(new DbxAdapter(std::move(db)));
  };
  return f;
}

}  // namespace dbxb
