#include "adapters/rust/rust_adapter.h"

#include <dbxb_rust.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "adapters/seed_replica.h"

namespace dbxb {
namespace {

dbxb_rs_slice Slice(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }
std::string_view View(const uint8_t* data, size_t len) { return {reinterpret_cast<const char*>(data), len}; }

// A sink that copies the byte string into *ctx (a std::string).
void CopyInto(void* ctx, const uint8_t* data, size_t len) noexcept {
  static_cast<std::string*>(ctx)->assign(reinterpret_cast<const char*>(data), len);
}
dbxb_rs_sink SinkTo(std::string* s) { return {&CopyInto, s}; }

// The Status of a bridge call that returned `code`, with the message its error sink received.
Status FromBridge(int code, const std::string& message) {
  switch (code) {
    case DBXB_RS_OK:
      return Status::Ok();
    case DBXB_RS_NOT_FOUND:
      return Status::NotFound(message);
    case DBXB_RS_INVALID_ARGUMENT:
      return Status::InvalidArgument(message);
    case DBXB_RS_NOT_SUPPORTED:
      return Status::NotSupported(message);
    case DBXB_RS_IO_ERROR:
      return Status::IOError(message);
    case DBXB_RS_CORRUPTION:
      return Status::Corruption(message);
    case DBXB_RS_PANIC:
      return Status::Internal(message);
  }
  return Status::Internal("Rust bridge: unknown status " + std::to_string(code) + ": " + message);
}

// Runs a bridge call that reports errors to its last argument, and returns its Status.
template <typename F>
Status Call(F&& call) {
  std::string error;
  const int code = call(SinkTo(&error));
  return code == DBXB_RS_OK ? Status::Ok() : FromBridge(code, error);
}

int VisitRow(void* ctx, const uint8_t* k, size_t kl, const uint8_t* v, size_t vl) noexcept {
  return (*static_cast<ScanVisitor*>(ctx))(View(k, kl), View(v, vl)) ? 1 : 0;
}

int CollectSetting(void* ctx, const uint8_t* k, size_t kl, const uint8_t* v, size_t vl) noexcept {
  static_cast<Settings*>(ctx)->emplace_back(std::string(View(k, kl)), std::string(View(v, vl)));
  return 1;
}

class RustSession final : public Session {
 public:
  explicit RustSession(dbxb_rs_db* db) : db_(db) {}

  Status Put(std::string_view key, std::string_view value) override {
    if (in_batch()) return Add(DBXB_RS_PUT, key, value);
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_put(db_, Slice(key), Slice(value), e); });
  }
  Status Get(std::string_view key, std::string* value) override {
    std::string error;
    const int code = dbxb_rs_get(db_, Slice(key), SinkTo(value), SinkTo(&error));
    if (code == DBXB_RS_OK) return Status::Ok();
    return code == DBXB_RS_NOT_FOUND ? Status::NotFound() : FromBridge(code, error);
  }
  Status Delete(std::string_view key) override {
    if (in_batch()) return Add(DBXB_RS_DELETE, key, {});
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_delete(db_, Slice(key), e); });
  }
  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_scan(db_, Slice(start), limit, {&VisitRow, &visitor}, e); });
  }
  Status Count(uint64_t* count) override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_count(db_, count, e); });
  }

 private:
  // An operation of the open batch: offsets into bytes_, which may move while the batch grows.
  struct PendingOp {
    dbxb_rs_op_kind kind;
    size_t key_at, key_len, value_at, value_len;
  };

  Status Add(dbxb_rs_op_kind kind, std::string_view key, std::string_view value) {
    ops_.push_back({kind, bytes_.size(), key.size(), bytes_.size() + key.size(), value.size()});
    bytes_.append(key);
    bytes_.append(value);
    return Status::Ok();
  }

  Status DoBegin() override {
    Clear();
    return Status::Ok();
  }
  Status DoCommit() override {
    std::vector<dbxb_rs_op> ops;
    ops.reserve(ops_.size());
    const auto* base = reinterpret_cast<const uint8_t*>(bytes_.data());
    for (const PendingOp& op : ops_)
      ops.push_back({op.kind, {base + op.key_at, op.key_len}, {base + op.value_at, op.value_len}});
    Status s = Call([&](dbxb_rs_sink e) { return dbxb_rs_write_batch(db_, ops.data(), ops.size(), e); });
    Clear();
    return s;
  }
  Status DoAbort() override {
    Clear();
    return Status::Ok();
  }
  void Clear() {
    ops_.clear();
    bytes_.clear();
  }

  dbxb_rs_db* db_;
  std::vector<PendingOp> ops_;
  std::string bytes_;
};

class RustAdapter final : public Adapter {
 public:
  explicit RustAdapter(dbxb_rs_db* db) : db_(db) {}
  ~RustAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (db_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return std::unique_ptr<Session>(new RustSession(db_));
  }

  Settings NativeSettings() override {
    Settings s;
    if (db_ == nullptr) return s;
    Status st = Call([&](dbxb_rs_sink e) { return dbxb_rs_settings(db_, {&CollectSetting, &s}, e); });
    if (!st.ok()) s.emplace_back("settings_unavailable", st.ToString());
    return s;
  }

  Status Settle() override {
    if (db_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_settle(db_, e); });
  }

  Status Close() override {
    if (db_ == nullptr) return Status::Ok();
    dbxb_rs_db* db = std::exchange(db_, nullptr);  // released by the bridge whatever it returns
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_close(db, e); });
  }

  dbxb_rs_db* handle() const { return db_; }

 private:
  dbxb_rs_db* db_;
};

// The seed's closures for one engine (adapters/rust/src/seed.rs), through the bridge.
class RustSeedReplica final : public SeedReplica {
 public:
  RustSeedReplica(dbxb_rs_seed* seed, std::string name) : seed_(seed), name_(std::move(name)) {}
  ~RustSeedReplica() override {
    (void)Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_free(seed_, e); });
  }

  Status Insert() override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_insert(seed_, e); });
  }
  Status Load() override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_load(seed_, e); });
  }
  Status GetAll(uint64_t* found) override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_get_all(seed_, found, e); });
  }
  Status ScanAll(uint64_t* rows) override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_scan_all(seed_, rows, e); });
  }
  Status ReadBack(ScanVisitor visitor) override {
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_read_back(seed_, {&VisitRow, &visitor}, e); });
  }
  Settings Describe() const override;

 private:
  dbxb_rs_seed* seed_;
  std::string name_;
};

Settings RustSeedReplica::Describe() const {
  if (name_ == "dbx-core")
    return {{"insert", "Database::open_in_memory, Database::insert per row, drop"},
            {"get", "Database::get per key (in-memory store loaded by Database::insert)"},
            {"scan", "Database::scan (every row copied into a Vec)"},
            {"store", "in memory (Database::open_in_memory), durability as the crate's default"}};
  if (name_ == "sled")
    return {{"insert",
             "a new temporary directory, sled::open (default Config), Db::insert per row, drop of Db "
             "and directory"},
            {"get", "Db::get per key"},
            {"scan", "Db::iter collected into a Vec of (IVec, IVec)"},
            {"store", "file-backed in a temporary directory, sled's defaults (flush every 500 ms)"}};
  return {{"insert",
           "a new temporary directory, Database::create, one write transaction with Table::insert per "
           "row, commit (Durability::Immediate, redb's default), drop of Database and directory"},
          {"get", "one read transaction, Table::get per key"},
          {"scan", "one read transaction, Table::iter collected into a Vec of AccessGuard pairs (no copy)"},
          {"store", "file-backed in a temporary directory, redb's defaults"}};
}

// The bridge's open options for `engine`; `keys` and `values` own the bytes the options point to.
struct BridgeOptions {
  BridgeOptions(dbxb_rs_engine engine, const std::string& name, const AdapterOptions& options) {
    const std::string prefix = name + ".";
    for (const auto& [key, value] : options.native_options)
      if (key.compare(0, prefix.size(), prefix) == 0) pairs.emplace_back(key.substr(prefix.size()), value);
    for (const auto& [key, value] : pairs) raw_options.push_back({Slice(key), Slice(value)});
    raw.engine = engine;
    raw.dir = Slice(options.dir);
    raw.durability = options.durability == Durability::kNone ? 0u : options.durability == Durability::kNormal ? 1u : 2u;
    raw.cache_bytes = options.cache_bytes;
    raw.options = raw_options.data();
    raw.option_count = raw_options.size();
  }
  BridgeOptions(const BridgeOptions&) = delete;
  BridgeOptions& operator=(const BridgeOptions&) = delete;

  std::vector<std::pair<std::string, std::string>> pairs;
  std::vector<dbxb_rs_option> raw_options;
  dbxb_rs_open_options raw{};
};

struct EngineInfo {
  dbxb_rs_engine engine;
  const char* name;
  const char* description;
  std::vector<NativeOption> options;
  std::array<DurabilityMapping, 3> durability;
  const char* settle;  // as the engine's settings report it (the Rust side's "settle")
  std::vector<std::pair<Durability, std::string>> refused = {};
  bool atomic_batches = true;
  bool syncs_buffers_at_none = false;
};

AdapterFactory MakeFactory(EngineInfo info) {
  AdapterFactory f;
  f.name = info.name;
  f.description = info.description;
  f.native_options = info.options;
  f.durability = info.durability;
  f.settle = info.settle;
  f.refused_durabilities = info.refused;
  f.atomic_batches = info.atomic_batches;
  f.syncs_buffers_at_none = info.syncs_buffers_at_none;
  const dbxb_rs_engine engine = info.engine;
  const std::string name = info.name;
  f.library_version = [engine] {
    std::string version, error;
    const int code = dbxb_rs_library_version(engine, SinkTo(&version));
    return code == DBXB_RS_OK ? version : "unknown (" + FromBridge(code, error).ToString() + ")";
  };
  f.library_build = [] { return std::string("crates.io, cargo --release (adapters/rust/Cargo.lock)"); };
  f.library_source = "crates.io " + name + " (pinned by adapters/rust/Cargo.lock)";
  f.check_native_values = [engine, name](const AdapterOptions& options) {
    BridgeOptions o(engine, name, options);
    return Call([&](dbxb_rs_sink e) { return dbxb_rs_check_options(&o.raw, e); });
  };
  f.seed_replica = [engine, name](const std::string& dir,
                                  const ReferenceData& rows) -> Result<std::unique_ptr<SeedReplica>> {
    std::vector<dbxb_rs_option> raw;
    raw.reserve(rows.size());
    for (uint64_t i = 0; i < rows.size(); ++i) raw.push_back({Slice(rows.key(i)), Slice(rows.value(i))});
    dbxb_rs_seed* seed = nullptr;
    Status s =
        Call([&](dbxb_rs_sink e) { return dbxb_rs_seed_new(engine, Slice(dir), raw.data(), raw.size(), &seed, e); });
    if (!s.ok()) return s;
    return std::unique_ptr<SeedReplica>(new RustSeedReplica(seed, name));
  };
  f.open = [engine, name](const AdapterOptions& options) -> Result<std::unique_ptr<Adapter>> {
    BridgeOptions o(engine, name, options);
    dbxb_rs_db* db = nullptr;
    Status s = Call([&](dbxb_rs_sink e) { return dbxb_rs_open(&o.raw, &db, e); });
    if (!s.ok()) return s;
    return std::unique_ptr<Adapter>(new RustAdapter(db));
  };
  return f;
}

}  // namespace

AdapterFactory SledAdapterFactory() {
  return MakeFactory({
      DBXB_RS_SLED,
      "sled",
      "sled: lock-free Bw-tree over a log-structured store (Rust, via the bridge); sled::Batch per batch",
      {{"sled.flush_every_ms", "milliseconds between sled's background flushes, or `off`", "by durability"},
       {"sled.mode", "`low_space` or `high_throughput`", "sled's default (`low_space`)"}},
      {{
          {"no periodic flush (`flush_every_ms` off); sled still syncs every log buffer it writes "
           "(`sync_file_range` with a wait), at every level",
           {{"flush_every_ms", "off"}, {"flush_each_commit", "false"}},
           0},
          {"sled's background flush every 500 ms", {{"flush_every_ms", "500"}, {"flush_each_commit", "false"}}, 0},
          {"`Db::flush` after every commit", {{"flush_every_ms", "off"}, {"flush_each_commit", "true"}}, 2, 1},
      }},
      "Db::flush (writes the dirty buffers, fsync)",
      {},
      /*atomic_batches=*/true,
      /*syncs_buffers_at_none=*/true,
  });
}

AdapterFactory RedbAdapterFactory() {
  return MakeFactory({
      DBXB_RS_REDB,
      "redb",
      "redb: copy-on-write B-tree in one file, MVCC (Rust, via the bridge); one write transaction per batch",
      {{"redb.two_phase_commit", "`true` or `false`", "`false` (redb's default)"},
       {"redb.quick_repair", "`true` or `false`", "`false` (redb's default)"}},
      {{
          {"`Durability::None` (durable only at a later durable commit; close makes one)",
           {{"commit_durability", "None"}},
           0},
          {"`Durability::Eventual`, which on Linux syncs as `Immediate` does",
           {{"commit_durability", "Eventual (on Linux the same fdatasync per commit as Immediate)"}},
           1},
          {"`Durability::Immediate`", {{"commit_durability", "Immediate"}}, 1},
      }},
      "nothing to wait for (redb has no background work)",
  });
}

AdapterFactory DbxCoreAdapterFactory() {
  return MakeFactory({
      DBXB_RS_DBX_CORE,
      "dbx-core",
      "dbx-core: the original Rust DBX (crate dbx-core), Delta skip list + file WOS (via the bridge); batches not "
      "atomic for readers",
      {{"dbx-core.table", "the key/value table's name (letters, digits, `_`)", "`bench` (the seed's)"},
       {"dbx-core.durability_level",
        "`none`, `lazy` or `full`: dbx-core's own level, whatever `--durability` says (its `full` only queues the "
        "sync)",
        "by durability"}},
      {{
          {"`DurabilityLevel::None` (no WAL; a Delta flush still fsyncs the WOS's log)",
           {{"durability_level", "None (no WAL)"}},
           0},
          {"`DurabilityLevel::Lazy` (WAL written per record, never synced by it)",
           {{"durability_level", "Lazy (WAL written per record, never synced by the WAL)"}},
           0},
          {},
      }},
      "Database::flush (Delta -> WOS)",
      {{Durability::kFull,
        "dbx-core's DurabilityLevel::Full queues the WAL fsync to a background thread and returns before it"}},
      /*atomic_batches=*/false,
  });
}

Status RustNativeCount(Adapter* adapter, uint64_t* count) {
  auto* rust = dynamic_cast<RustAdapter*>(adapter);
  if (rust == nullptr || rust->handle() == nullptr)
    return Status::InvalidArgument("RustNativeCount: not an open Rust-bridge adapter");
  return Call([&](dbxb_rs_sink e) { return dbxb_rs_native_count(rust->handle(), count, e); });
}

Status RustBridgePanicForTest() {
  return Call([](dbxb_rs_sink e) { return dbxb_rs_test_panic(e); });
}

}  // namespace dbxb
