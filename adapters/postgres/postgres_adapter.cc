#include "adapters/postgres/postgres_adapter.h"

#include <libpq-fe.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/postgres/postgres_connection.h"
#include "adapters/postgres/postgres_kv_session.h"
#include "adapters/postgres/postgres_options.h"
#include "adapters/postgres/postgres_row_session.h"
#include "adapters/postgres/postgres_schema.h"
#include "adapters/postgres/postgres_server.h"

#if !defined(DBXB_LIB_BUILD) || !defined(DBXB_LIB_SOURCE) || !defined(DBXB_LIB_FLAGS) || \
    !defined(DBXB_LIB_RELEASE_DATE) || !defined(DBXB_PG_RELEASE_ROOT) || !defined(DBXB_PG_RELEASE_BINDIR)
#error "DBXB_LIB_* and DBXB_PG_RELEASE_* must describe the PostgreSQL server build (set by cmake/thirdparty.cmake)"
#endif

namespace dbxb {
namespace {

constexpr char kSettle[] = "CHECKPOINT (the load's dirty buffers and WAL written out)";

using postgres_internal::Connection;
using postgres_internal::PgResult;
using postgres_internal::PostgresOptions;
using postgres_internal::Server;
using postgres_internal::ServerBuild;
using postgres_internal::ServerConfig;

// The build `postgres` runs: the release build of thirdparty/postgres.sh from the cache entry this
// dbx-bench was configured with, or Debian's when it was configured without it (DBXB_RELEASE_ENGINES).
const ServerBuild& ReleaseServerBuild() {
  static const ServerBuild build = [] {
    if (std::string_view(DBXB_PG_RELEASE_BINDIR).empty()) return postgres_internal::DebianServerBuild();
    ServerBuild b;
    b.bindir = DBXB_PG_RELEASE_BINDIR;
    b.root = DBXB_PG_RELEASE_ROOT;
    b.missing = std::string(
                    "postgres: the PostgreSQL build this dbx-bench was configured with is gone (no "
                    "initdb and postgres in ") +
                DBXB_PG_RELEASE_BINDIR +
                "): configure again (cmake rebuilds it: thirdparty/build.sh postgres), or run postgres@debian "
                "for Debian's server";
    return b;
  }();  // immutable once made
  return build;
}

// Which server build a factory runs.
using BuildOf = const ServerBuild& (*)();

constexpr uint64_t kMinSharedBuffersKiB = 128;  // PostgreSQL refuses fewer than 16 pages of 8 kB

const char* SynchronousCommit(Durability d) { return d == Durability::kFull ? "on" : "off"; }

// The private server's settings for a durability level and cache (see postgres_adapter.h).
ServerConfig ConfigFor(const ServerBuild& build, const AdapterOptions& options, const PostgresOptions& o) {
  ServerConfig config;
  config.build = build;
  config.dir = options.dir;
  config.start_timeout_seconds = o.start_timeout_seconds;
  config.tcp = o.tcp;
  const uint64_t shared_kib = std::max(kMinSharedBuffersKiB, options.cache_bytes / 1024);
  config.settings.emplace_back("shared_buffers", std::to_string(shared_kib) + "kB");
  config.settings.emplace_back("fsync", options.durability == Durability::kNone ? "off" : "on");
  config.settings.emplace_back("synchronous_commit", SynchronousCommit(options.durability));
  config.settings.emplace_back("default_tablespace", Server::kTablespace);
  return config;
}

std::vector<const char*> CreateTables() {
  std::vector<const char*> sql = {postgres_internal::kCreateKv};
  for (const char* s : postgres_internal::kCreateRowsTable) sql.push_back(s);
  return sql;
}

// Read back with SHOW, in this order.
constexpr const char* kShownSettings[] = {
    "server_version",
    "fsync",
    "synchronous_commit",
    "shared_buffers",
    "wal_level",
    "wal_sync_method",
    "full_page_writes",
    "wal_buffers",
    "wal_writer_delay",
    "max_wal_size",
    "checkpoint_timeout",
    "effective_cache_size",
    "work_mem",
    "max_connections",
    "huge_pages",
    "data_checksums",  // initdb's default: off in 15, on since 18
    "io_method",       // 18's asynchronous I/O; not in 15
    "listen_addresses",
    "password_encryption",
    "default_transaction_isolation",
};

Settings ShowSettings(Connection& c) {
  Settings s;
  for (const char* name : kShownSettings) {
    Result<PgResult> r = c.Query((std::string("SHOW ") + name).c_str(), "SHOW");
    std::string value = r.ok() && PQntuples(r->get()) == 1 ? PQgetvalue(r->get(), 0, 0) : "unavailable";
    if (!r.ok() && r.status().message().find("unrecognized configuration parameter") != std::string::npos)
      value = "(not in this version)";
    if (value.empty() && std::string_view(name) == "listen_addresses") value = "'' (Unix socket only)";
    s.emplace_back(name, value);
  }
  return s;
}

class PostgresAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const ServerBuild& build, const AdapterOptions& options) {
    PostgresOptions o;
    DBXB_RETURN_IF_ERROR(postgres_internal::ParseOptions(options, &o));
    std::unique_ptr<PostgresAdapter> adapter(new PostgresAdapter(build, options, o));
    // From here the adapter owns what it starts: any failure below is undone by the destructor.
    DBXB_RETURN_IF_ERROR(o.existing_server() ? adapter->OpenExisting() : adapter->OpenPrivate());
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~PostgresAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (control_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return postgres_internal::OpenKvSession(conninfo_);
  }

  Result<std::unique_ptr<RowSession>> NewRowSession() override {
    if (control_ == nullptr) return Status::InvalidArgument("NewRowSession: adapter is closed");
    return postgres_internal::OpenRowSession(conninfo_);
  }

  Settings NativeSettings() override {
    if (control_ == nullptr) return {};
    Settings s = ShowSettings(*control_);
    if (server_ != nullptr && options_.tcp)
      s.emplace_back("connections", "TCP to 127.0.0.1 (" + server_->url() + "), SCRAM password of this server");
    if (server_ != nullptr) {
      s.emplace_back("server",
                     "private server for this database: initdb template, postgres as a child of dbx-bench, "
                     "fast shutdown at close");
      s.emplace_back("tablespace", std::string(Server::kTablespace) + " (the database's tables and indexes)");
    } else {
      s.emplace_back("server", "existing server (postgres.url): " + postgres_internal::RedactedUrl(options_.url));
      // The same for every client of a run (merge compares the settings): who created it is not said.
      s.emplace_back("schema", (schema_given_ ? options_.schema : std::string("dbx_bench_<run id>")) +
                                   " (the run's own: created, marked and dropped by it)");
    }
    s.emplace_back("table", "kv(k bytea PRIMARY KEY, v bytea)");
    s.emplace_back("statements", "prepared per connection; binary parameters and results");
    s.emplace_back("batch",
                   "one transaction from Begin to Commit, its writes pipelined (libpq pipeline mode: one round "
                   "trip per batch, and one per 1000 statements)");
    s.emplace_back("settle", kSettle);
    return s;
  }

  Status Settle() override {
    if (control_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    return control_->Query("CHECKPOINT", "Settle: CHECKPOINT").status();
  }

  Status Close() override {
    Status st;
    if (created_schema_) st = DropSchema();
    created_schema_ = false;
    control_.reset();
    if (server_ != nullptr) {
      Status stopped = server_->Stop();
      if (st.ok()) st = stopped;
      server_.reset();
    }
    return st;
  }

 private:
  PostgresAdapter(const ServerBuild& build, const AdapterOptions& adapter_options, const PostgresOptions& options)
      : build_(build), adapter_options_(adapter_options), options_(options) {}

  Status OpenPrivate() {
    Result<std::unique_ptr<Server>> server = Server::Start(ConfigFor(build_, adapter_options_, options_));
    if (!server.ok()) return server.status();
    server_ = std::move(*server);
    conninfo_ = server_->conninfo();
    Result<std::unique_ptr<Connection>> control = Connection::Open(conninfo_, {});
    if (!control.ok()) return control.status();
    control_ = std::move(*control);
    for (const char* sql : CreateTables()) DBXB_RETURN_IF_ERROR(control_->Query(sql, "create the tables").status());
    return Status::Ok();
  }

  // postgres.url: drops the schema this adapter created, over the control connection or, when that
  // fails (the connection was lost: its backend terminated, the server restarted), over a new one.
  Status DropSchema() {
    Status st = control_ != nullptr ? postgres_internal::DropSchemaIfOurs(*control_, options_.schema, run_id_)
                                    : Status::IOError("postgres: no connection");
    if (st.ok()) return st;
    Result<std::unique_ptr<Connection>> fresh = Connection::Open(conninfo_, {});
    if (!fresh.ok()) return st.WithContext("drop the schema " + options_.schema);
    return postgres_internal::DropSchemaIfOurs(**fresh, options_.schema, run_id_);
  }

  Status OpenExisting() {
    run_id_ = options_.run_id;
    if (run_id_.empty()) {
      Result<std::string> id = postgres_internal::RandomRunId();
      if (!id.ok()) return id.status();
      run_id_ = *id;
    }
    schema_given_ = !options_.schema.empty();
    options_.schema = postgres_internal::SchemaName(options_, run_id_);
    Result<std::string> conninfo =
        postgres_internal::ExistingServerConninfo(options_, SynchronousCommit(adapter_options_.durability));
    if (!conninfo.ok()) return conninfo.status();
    conninfo_ = *conninfo;
    Result<std::unique_ptr<Connection>> control = Connection::Open(conninfo_, {});
    if (!control.ok())
      return control.status().WithContext("postgres.url " + postgres_internal::RedactedUrl(options_.url));
    control_ = std::move(*control);
    Result<bool> created = postgres_internal::CreateOrJoinSchema(*control_, options_.schema, run_id_, CreateTables());
    if (!created.ok()) return created.status();
    created_schema_ = *created;
    return Status::Ok();
  }

  const ServerBuild& build_;  // the private server's programs
  AdapterOptions adapter_options_;
  PostgresOptions options_;
  std::unique_ptr<Server> server_;       // the private server, or null with postgres.url
  std::string conninfo_;                 // every connection's; may hold a password: never recorded
  std::string run_id_;                   // postgres.url: the run the schema belongs to
  bool created_schema_ = false;          // postgres.url: this adapter created the schema and drops it
  bool schema_given_ = false;            // postgres.url: postgres.schema named it (else dbx_bench_<run id>)
  std::unique_ptr<Connection> control_;  // setup, SHOW and CHECKPOINT; destroyed before the server stops
};

// postgres.url: the server is reachable with these credentials and the schema is free or this run's.
Status Preflight(const AdapterOptions& options) {
  PostgresOptions o;
  DBXB_RETURN_IF_ERROR(postgres_internal::ParseOptions(options, &o));
  if (!o.existing_server()) return Status::Ok();
  const std::string run_id = o.run_id.empty() ? "(none)" : o.run_id;
  const bool schema_given = !o.schema.empty();
  o.schema = postgres_internal::SchemaName(o, run_id);
  Result<std::string> conninfo = postgres_internal::ExistingServerConninfo(o, "off");
  if (!conninfo.ok()) return conninfo.status();
  Result<std::unique_ptr<Connection>> c = Connection::Open(*conninfo, {});
  if (!c.ok())
    return Status::InvalidArgument("postgres.url " + postgres_internal::RedactedUrl(o.url) + ": " +
                                   c.status().message());
  // Without postgres.schema or postgres.run_id the schema's name is new (a fresh run id): nothing to check.
  if (!schema_given && o.run_id.empty()) return Status::Ok();
  return postgres_internal::CheckSchemaIsOurs(**c, o.schema, run_id);
}

// The schema the clients of one run share on a server: made before they start, so that every client
// joins it and none drops it under the others; dropped and made again each time every client closed
// its database (ClientsClosedDatabase), and dropped when the run ends, however it ended. Each step
// over a connection of its own.
class RunSchema {
 public:
  RunSchema(std::string conninfo, std::string schema, std::string run_id)
      : conninfo_(std::move(conninfo)), schema_(std::move(schema)), run_id_(std::move(run_id)) {}
  RunSchema(const RunSchema&) = delete;
  RunSchema& operator=(const RunSchema&) = delete;
  ~RunSchema() { (void)Drop(); }

  Status Create() {
    Result<std::unique_ptr<Connection>> c = Connection::Open(conninfo_, {});
    if (!c.ok()) return c.status();
    return postgres_internal::CreateOrJoinSchema(**c, schema_, run_id_, CreateTables()).status();
  }
  // Every schema marked with the run: its own, and any a client made.
  Status Drop() {
    Result<std::unique_ptr<Connection>> c = Connection::Open(conninfo_, {});
    if (!c.ok()) return c.status();
    return postgres_internal::DropRunSchemas(**c, run_id_);
  }
  const std::string& run_id() const { return run_id_; }

 private:
  std::string conninfo_;  // may hold a password: never recorded
  std::string schema_;
  std::string run_id_;
};

// `run --clients`: what its client processes share on a PostgreSQL server — one private server the run
// starts, reached through postgres.url (`server` set), or the server postgres.url names — and the run's
// schema there (RunSchema).
class PostgresSharedServer final : public SharedServer {
 public:
  PostgresSharedServer(std::unique_ptr<Server> server, std::string conninfo, std::string schema, std::string run_id)
      : server_(std::move(server)), conninfo_(conninfo), schema_(std::in_place, conninfo, schema, run_id) {}
  ~PostgresSharedServer() override {
    schema_.reset();  // before the server stops
  }
  Status Start() { return schema_->Create(); }

  std::vector<std::pair<std::string, std::string>> ClientOptions() const override {
    if (server_ == nullptr) return {{"postgres.run_id", schema_->run_id()}};
    // Over TCP the URL has no password (ClientEnvironment has it); over the socket, trust needs none.
    std::string url = server_->url();
    if (url.empty()) url = server_->conninfo();
    return {{"postgres.url", url}, {"postgres.run_id", schema_->run_id()}};
  }
  std::vector<std::string> ReplacedOptionKeys() const override {
    if (server_ == nullptr) return {"postgres.run_id"};
    return {"postgres.listen", "postgres.start_timeout_s", "postgres.url", "postgres.run_id"};
  }
  std::vector<std::string> ClientEnvironment() const override {
    if (server_ == nullptr || server_->password().empty()) return {};
    return {"PGPASSWORD=" + server_->password()};
  }
  Settings NativeSettings() override {
    Result<std::unique_ptr<Connection>> c = Connection::Open(ControlConninfo(), {});
    return c.ok() ? ShowSettings(**c) : Settings{};
  }
  Status ClientsClosedDatabase() override {
    DBXB_RETURN_IF_ERROR(schema_->Drop());
    return schema_->Create();
  }

 private:
  std::string ControlConninfo() const { return server_ != nullptr ? server_->conninfo() : conninfo_; }

  std::unique_ptr<Server> server_;  // null on a server postgres.url names
  std::string conninfo_;
  std::optional<RunSchema> schema_;
};

Result<std::unique_ptr<SharedServer>> StartSharedServer(const ServerBuild& build, const AdapterOptions& options) {
  PostgresOptions o;
  DBXB_RETURN_IF_ERROR(postgres_internal::ParseOptions(options, &o));
  std::unique_ptr<Server> server;
  if (!o.existing_server()) {
    Result<std::unique_ptr<Server>> started = Server::Start(ConfigFor(build, options, o));
    if (!started.ok()) return started.status();
    server = std::move(*started);
  }
  std::string run_id = o.run_id;
  if (run_id.empty()) {
    Result<std::string> id = postgres_internal::RandomRunId();
    if (!id.ok()) return id.status();
    run_id = *id;
  }
  o.schema = postgres_internal::SchemaName(o, run_id);
  std::string conninfo;
  if (server != nullptr) {
    conninfo = server->conninfo();
  } else {
    Result<std::string> c = postgres_internal::ExistingServerConninfo(o, "off");
    if (!c.ok()) return c.status();
    conninfo = *c;
  }
  auto shared = std::make_unique<PostgresSharedServer>(std::move(server), conninfo, o.schema, run_id);
  DBXB_RETURN_IF_ERROR(shared->Start());
  return std::unique_ptr<SharedServer>(std::move(shared));
}

std::string LibpqVersion() {
  int v = PQlibVersion();  // 150020 for 15.20
  return std::to_string(v / 10000) + "." + std::to_string(v % 100);
}

// What `postgres` and `postgres@debian` share: the adapter, its options and durability, run with the
// server programs of `build`.
AdapterFactory FactoryRunning(BuildOf build) {
  AdapterFactory f;
  f.syncs_out_of_process = true;  // the server process syncs its WAL and data files
  f.multi_process = true;         // clients of one server
  f.library_version = [build] {
    return postgres_internal::ServerProgramVersion(build()) + ", libpq " + LibpqVersion();
  };
  f.open = [build](const AdapterOptions& options) { return PostgresAdapter::Open(build(), options); };
  f.native_options = postgres_internal::kOptions;
  f.durability = {{
      {"`fsync=off`, `synchronous_commit=off`", {{"fsync", "off"}, {"synchronous_commit", "off"}}, 0},
      {"`synchronous_commit=off` (the WAL writer flushes within 3 x `wal_writer_delay`)",
       {{"fsync", "on"}, {"synchronous_commit", "off"}},
       0},
      {"`synchronous_commit=on`", {{"fsync", "on"}, {"synchronous_commit", "on"}}, 1},
  }};
  f.settle = kSettle;
  f.debian_packages = {"postgresql", "libpq-dev"};
  f.check_native_values = postgres_internal::CheckOptionValues;
  f.preflight = Preflight;
  f.start_shared_server = [build](const AdapterOptions& options) { return StartSharedServer(build(), options); };
  return f;
}

}  // namespace

AdapterFactory PostgresAdapterFactory() {
  AdapterFactory f = FactoryRunning(ReleaseServerBuild);
  f.name = "postgres";
  f.description = "PostgreSQL: a private server per database (or postgres.url), one libpq connection per session";
  f.library_build = [] { return std::string(DBXB_LIB_BUILD); };
  f.library_source = DBXB_LIB_SOURCE;
  f.library_flags = DBXB_LIB_FLAGS;
  f.library_release_date = DBXB_LIB_RELEASE_DATE;
  return f;
}

AdapterFactory PostgresDebianAdapterFactory() {
  AdapterFactory f = FactoryRunning(postgres_internal::DebianServerBuild);
  f.name = "postgres@debian";
  f.variant_of = "postgres";
  f.description = "postgres on Debian 12's PostgreSQL 15 server instead of the release build";
  f.library_build = [] { return std::string("debian-package"); };
  f.library_source = "Debian 12 package postgresql-15";
  return f;
}

}  // namespace dbxb
