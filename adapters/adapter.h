// The adapter interface: one database engine behind one small API, so that every workload runs
// identically on every engine.
//
// An Adapter owns one open database in one directory. It hands out Sessions, one per thread; a Session
// is not thread-safe, but different Sessions of one Adapter may be used concurrently from different
// threads. Adapters never read a clock: timing lives in the harness.
//
// No exception crosses this interface; errors come back as Status, and NotFound is a normal result.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "adapters/native_loop.h"
#include "adapters/row_session.h"
#include "common/function_ref.h"
#include "common/reference_data.h"
#include "common/status.h"

namespace dbxb {

class SeedReplica;  // adapters/seed_replica.h

/// What a successful commit promises to survive. Each adapter maps these to its engine's native
/// settings and reports the mapping through Adapter::NativeSettings().
enum class Durability {
  kNone,    ///< Nothing beyond the process: no log, or a log never synced. A crash may lose everything.
  kNormal,  ///< Logged, synced in the background or by the OS. A power loss may lose the last moments.
  kFull,    ///< A commit returns only after its log record is on stable storage.
};

std::string_view DurabilityName(Durability d);
/// Parses "none", "normal" or "full". Returns false on anything else.
bool ParseDurability(std::string_view text, Durability* out);

struct AdapterOptions {
  /// Directory holding the database. Created if missing; the adapter owns its contents.
  std::string dir;
  /// What a commit must survive (see Durability).
  Durability durability = Durability::kNormal;
  /// Memory the engine may use to cache data pages/blocks, in bytes. Every engine gets the same budget.
  uint64_t cache_bytes = 64ull << 20;
  /// About how many bytes of key plus value one row of the workload holds (0 = unknown). A layout hint:
  /// SQLite chooses its table layout from it (adapters/sqlite/sqlite_adapter.h); other engines ignore it.
  uint64_t row_bytes_hint = 0;
  /// Used by the null adapter only: the rows a perfect store would hold. Real engines ignore it.
  std::shared_ptr<const ReferenceData> reference;
  /// Engine-specific settings a suite asks for, as ("<engine>.<setting>", "<value>") pairs, e.g.
  /// ("sqlite.page_size", "8192"). An engine applies the keys with its own prefix and reports them back
  /// through NativeSettings(); it ignores keys of other engines, so one list can serve a whole run.
  /// Opening through the registry fails with InvalidArgument on a key of this engine that is not in
  /// AdapterFactory::native_options, and on a key without a "<engine>." prefix. Empty by default:
  /// every engine then runs with its adapter's own defaults.
  std::vector<std::pair<std::string, std::string>> native_options;
};

/// The engine's native settings as actually applied, in order: ("journal_mode", "wal"), ...
/// Read back from the engine where it can be (e.g. SQLite PRAGMA queries), not echoed from options.
using Settings = std::vector<std::pair<std::string, std::string>>;

/// Called once per row by Session::Scan, in key order. Return false to stop the scan early.
/// The views are valid only during the call.
using ScanVisitor = FunctionRef<bool(std::string_view key, std::string_view value)>;

class Session {
 public:
  virtual ~Session() = default;

  /// Stores value under key, replacing any previous value.
  virtual Status Put(std::string_view key, std::string_view value) = 0;
  /// Reads the value of key into *value. Returns NotFound when the key is absent.
  virtual Status Get(std::string_view key, std::string* value) = 0;
  /// Removes key. Deleting an absent key is OK.
  virtual Status Delete(std::string_view key) = 0;
  /// Visits rows with key >= start in ascending bytewise key order, at most `limit` of them
  /// (0 = no limit), until the visitor returns false.
  virtual Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) = 0;
  /// The exact number of live keys, by the engine's fastest exact means. Never an estimate.
  virtual Status Count(uint64_t* count) = 0;

  /// Starts a write batch or transaction: Puts and Deletes until Commit become visible to other
  /// sessions atomically at Commit, or never after Abort. Whether Get/Scan inside the batch see the
  /// batch's own writes is engine-specific; workloads must not rely on it. InvalidArgument when a
  /// batch is already open; the batch is open only when DoBegin returned OK.
  Status Begin() {
    if (in_batch_) return Status::InvalidArgument("Begin: a batch is already open");
    Status s = DoBegin();
    in_batch_ = s.ok();
    return s;
  }
  /// Makes the batch's writes visible. InvalidArgument when no batch is open; the batch is closed
  /// afterwards whatever DoCommit returns.
  Status Commit() {
    if (!in_batch_) return Status::InvalidArgument("Commit: no batch is open");
    in_batch_ = false;
    return DoCommit();
  }
  /// Drops the batch's writes. InvalidArgument when no batch is open; the batch is closed afterwards.
  Status Abort() {
    if (!in_batch_) return Status::InvalidArgument("Abort: no batch is open");
    in_batch_ = false;
    return DoAbort();
  }
  /// True between a successful Begin and the next Commit or Abort.
  bool in_batch() const { return in_batch_; }

 protected:
  /// The engine's side of Begin, Commit and Abort, called only in the states named there: DoBegin with
  /// no batch open, DoCommit and DoAbort with one open (in_batch() is already false during them).
  virtual Status DoBegin() = 0;
  virtual Status DoCommit() = 0;
  virtual Status DoAbort() = 0;

 private:
  bool in_batch_ = false;
};

class Adapter {
 public:
  virtual ~Adapter() = default;

  /// Opens a new session for the calling thread. Sessions must be destroyed before the Adapter.
  virtual Result<std::unique_ptr<Session>> NewSession() = 0;
  /// The native settings the engine runs with (see Settings).
  virtual Settings NativeSettings() = 0;
  /// Optional capability: a RowSession on the engine's own tables (adapters/row_session.h), one per
  /// thread like a Session. NotSupported by default; workloads then fall back to the key/value mapping
  /// of workloads/row_store.h over NewSession(). Row sessions must be destroyed before the Adapter.
  virtual Result<std::unique_ptr<RowSession>> NewRowSession() {
    return Status::NotSupported("this engine has no native row tables");
  }
  /// Optional capability for `dbx-bench calibrate`: dbx-micro's loops written against the engine's own
  /// API on this database (adapters/native_loop.h). NotSupported by default.
  virtual Result<std::unique_ptr<NativeLoop>> NewNativeLoop() {
    return Status::NotSupported("this engine has no native calibration loop");
  }
  /// Brings the database to a steady state before a measured phase: first moves the writes still held in
  /// the engine's write buffers into its main store where the engine has a way to (a memtable flush, a
  /// WAL checkpoint), then returns once the background work that earlier writes left behind (flushes,
  /// compactions) is done, so the phase neither competes with it nor reads through the buffers. It
  /// changes no durability promise: writes acknowledged before it were already as durable as promised.
  /// The harness calls it between phases, with no batch open on any session, and times it. The default
  /// does nothing (an engine without write buffers or background work). An engine that overrides it says
  /// what it does in NativeSettings() as ("settle", "...").
  [[nodiscard]] virtual Status Settle() { return Status::Ok(); }
  /// Flushes and closes the database. Called once; the destructor closes too if it was not called.
  virtual Status Close() = 0;
};

/// What the client processes of `run --clients` share on an engine's server (AdapterFactory::start_shared_server):
/// a server the run starts, or, on a server the user runs, the run's identity there (postgres.url: the
/// run id of its schema). The run owns it and destroys it after every client ended; the destructor stops
/// the server, or removes what the clients left there (the run's schemas), over a connection of its own.
class SharedServer {
 public:
  virtual ~SharedServer() = default;
  /// Native options that point a client's adapter at this server, e.g. ("postgres.url", ...); they
  /// replace the client's options with the keys of ReplacedOptionKeys().
  virtual std::vector<std::pair<std::string, std::string>> ClientOptions() const = 0;
  /// The options of the run that describe the shared server itself, not a client's connection.
  virtual std::vector<std::string> ReplacedOptionKeys() const = 0;
  /// What the clients need that must not be on a command line (a password), "KEY=VALUE" each.
  virtual std::vector<std::string> ClientEnvironment() const = 0;
  /// The server's native settings, as the engine reports them (recorded with the merged result).
  virtual Settings NativeSettings() = 0;
  /// Called when every client closed a database of this engine (they met at the barrier after their
  /// Close): removes what they shared of it on the server and makes the next database's ready.
  virtual Status ClientsClosedDatabase() { return Status::Ok(); }
};

/// How an engine honours one durability level, as its adapter declares it. `dbx-bench list --engine NAME`
/// prints it; the tests hold it against the engine: tests/durability_sync_test.cc counts the syncs, the
/// conformance tests read the settings back.
struct DurabilityMapping {
  DurabilityMapping() = default;
  DurabilityMapping(std::string meaning, Settings settings, int syncs_per_commit,
                    std::optional<int> syncs_per_single_put = std::nullopt)
      : meaning(std::move(meaning)),
        settings(std::move(settings)),
        syncs_per_commit(syncs_per_commit),
        syncs_per_single_put(syncs_per_single_put) {}

  /// The level in the engine's own terms, e.g. "WAL, `synchronous=OFF`".
  std::string meaning;
  /// The native settings that show it, as Adapter::NativeSettings() reports them.
  Settings settings;
  /// The sync calls an acknowledged commit makes, rounded. At normal, where syncs run in the background
  /// and their number depends on time, 0 means fewer than one per commit.
  int syncs_per_commit = 0;
  /// Set when a put outside a batch syncs another number of times than a batch commit (sled at full).
  std::optional<int> syncs_per_single_put;
};

/// One native option an engine takes (`--engine-option KEY=VALUE`), as `dbx-bench list --engine` shows it.
struct NativeOption {
  std::string key;            ///< with the engine's prefix: "sqlite.page_size"
  std::string values;         ///< what it accepts, in words
  std::string default_value;  ///< what the adapter chooses when it is not given
};

/// A registered engine: its name, what it links against, and how to open it.
struct AdapterFactory {
  std::string name;  ///< "sqlite", "lmdb", "rocksdb", "dbx", "null"; a variant: "sqlite@debian"
  /// For a build variant, the engine it is another build of ("sqlite" for "sqlite@debian": the same
  /// adapter against Debian's library). A variant takes its engine's native options (the prefix
  /// "sqlite."), and is not in a run's default engine list: it runs when named. Empty otherwise.
  std::string variant_of;
  std::string description;  ///< one line for `dbx-bench list`
  /// The library and version actually linked, e.g. "SQLite 3.40.1".
  std::function<std::string()> library_version;
  /// The build of the library: e.g. "debian-package (assertions enabled)" or "release".
  std::function<std::string()> library_build;
  /// Where the library comes from: the registry package and version it was built from ("crates.io
  /// libsqlite3-sys 0.40.0"), or the Debian package ("Debian 12 package libsqlite3-dev"), or "in-tree".
  std::string library_source;
  /// The build's flags that matter for its speed (optimisation, NDEBUG, codecs, page or block sizes).
  std::string library_flags;
  /// The release date of the linked version (YYYY-MM-DD), empty when unknown: `report` warns on a
  /// library more than two years older than the run.
  std::string library_release_date;
  std::function<Result<std::unique_ptr<Adapter>>(const AdapterOptions&)> open;
  /// The AdapterOptions::native_options keys this engine applies, with their prefix
  /// ("sqlite.page_size"). Empty for an engine that takes none.
  std::vector<NativeOption> native_options;
  /// Checks the values of this engine's native options as open() would apply them, without opening
  /// anything, so that a run can refuse a bad value before it starts. Unset for an engine that takes none.
  std::function<Status(const AdapterOptions&)> check_native_values;
  /// True when the engine's fsyncs happen in another process (a server it starts): the sync counts of
  /// the dbx-bench process (harness/sync_interpose.cc) do not include them; the server's own counter
  /// does (common/server_usage.h).
  bool syncs_out_of_process = false;
  /// True when several processes may use one database at once, each with its own Adapter: a server, or
  /// an embedded engine whose locking allows it (SQLite in WAL mode, LMDB). `run --clients` refuses the
  /// others.
  bool multi_process = false;
  /// Checks, before a run starts, what the native options name outside this process (a server's
  /// address and credentials, a schema of its own), e.g. by connecting. InvalidArgument, naming the
  /// option, when the run cannot work. Unset for an engine with nothing outside.
  std::function<Status(const AdapterOptions&)> preflight;
  /// For `run --clients`: what the client processes of one run share on a server engine — the server
  /// itself when the tool starts it, the run's identity on a server the options name (unset: the clients
  /// share the database directory instead; nullptr result: nothing to share).
  std::function<Result<std::unique_ptr<SharedServer>>(const AdapterOptions&)> start_shared_server;
  /// True when the engine's Adapter implements NewNativeLoop (calibrated by `dbx-bench calibrate`).
  bool native_loop = false;
  /// False when the engine cannot make a batch visible atomically: while Commit runs, other sessions may
  /// see some of its writes and not others (Session::Begin's contract is then weaker; the engine's
  /// NativeSettings say so under "batch"). Tests of atomic visibility skip such an engine.
  bool atomic_batches = true;
  /// Optional: the DBX team's official comparison as its code runs it on this engine
  /// (adapters/seed_replica.h), for the `seed` suite. Its stores go under `dir` (the replica creates and
  /// removes them); `rows` are copied. Unset for an engine the seed did not measure.
  std::function<Result<std::unique_ptr<SeedReplica>>(const std::string& dir, const ReferenceData& rows)> seed_replica;
  /// True when the engine syncs its own log buffers even at durability none, whenever it writes one out
  /// (sled: sync_file_range with a wait on every buffer write, which it cannot turn off): `none` and
  /// `normal` then only mean that no sync is asked for per commit, and their count depends on time. The
  /// sync-count test records those two levels for it instead of asserting them.
  bool syncs_buffers_at_none = false;
  /// Durability levels the engine cannot honour, each with the reason: open() returns NotSupported for
  /// them, and a run refuses them before it starts. Empty for an engine that honours all three.
  std::vector<std::pair<Durability, std::string>> refused_durabilities;
  /// The longest key the engine stores, in bytes (LMDB's is 511); 0 = no limit a workload could reach.
  /// Suites refuse a key size above it before the run.
  size_t max_key_bytes = 0;
  /// False when Put("") is InvalidArgument (LMDB, WiredTiger).
  bool allows_empty_key = true;
  /// The levels none, normal and full, in that order (DurabilityIndex). A refused level's entry is empty.
  /// Every engine that stores data declares all three.
  std::array<DurabilityMapping, 3> durability;
  /// What Adapter::Settle does, in the engine's own calls, as NativeSettings() reports it under "settle".
  std::string settle;
  /// The Debian packages the engine builds and runs from (scripts/install-deps.sh must install each;
  /// tests/engine_registry_test.cc checks it). Empty for an engine built from source here.
  std::vector<std::string> debian_packages;
};

/// The prefix of the engine's native option keys: its name, or the engine a variant is a build of.
inline const std::string& OptionPrefix(const AdapterFactory& engine) {
  return engine.variant_of.empty() ? engine.name : engine.variant_of;
}

/// True for the engines a run, a calibration or `--help` names when none are given: every engine
/// but null (it stores nothing) and the build variants.
inline bool InDefaultEngines(const AdapterFactory& engine) {
  return engine.name != "null" && engine.variant_of.empty();
}

/// The index of `d` in AdapterFactory::durability.
inline size_t DurabilityIndex(Durability d) { return static_cast<size_t>(d); }

/// The option of `engine` with this key, or nullptr.
const NativeOption* FindNativeOption(const AdapterFactory& engine, std::string_view key);

/// The reason `engine` refuses durability `d`, or nullptr when it honours it.
const std::string* RefusedDurability(const AdapterFactory& engine, Durability d);

/// InvalidArgument naming the key when `options.native_options` holds a key without a "<engine>."
/// prefix, or a key with the prefix `engine.name + "."` that is not in `engine.native_options`.
/// Keys of other engines are ignored.
Status CheckNativeOptions(const AdapterFactory& engine, const AdapterOptions& options);

/// The set of engines the tool knows, in registration order.
class AdapterRegistry {
 public:
  /// Adds a factory. Returns InvalidArgument if the name is already registered. The registered `open`
  /// runs CheckNativeOptions before the engine's own open.
  Status Register(AdapterFactory factory);
  /// Returns nullptr when no engine has that name.
  const AdapterFactory* Find(std::string_view name) const;
  const std::vector<AdapterFactory>& factories() const { return factories_; }

 private:
  std::vector<AdapterFactory> factories_;
};

/// Registers every adapter built into this binary (explicit, no static-initialiser magic).
void RegisterBuiltinAdapters(AdapterRegistry* registry);

/// The process-wide registry with the built-in adapters, created on first use.
const AdapterRegistry& BuiltinAdapters();

}  // namespace dbxb
