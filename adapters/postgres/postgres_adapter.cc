#include "adapters/postgres/postgres_adapter.h"

#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <string>

#include "adapters/postgres/postgres_connection.h"
#include "adapters/postgres/postgres_row_session.h"
#include "adapters/postgres/postgres_server.h"

namespace dbxb {
namespace {

using postgres_internal::ColumnBytes;
using postgres_internal::ColumnInt8;
using postgres_internal::Connection;
using postgres_internal::kByteaOid;
using postgres_internal::kInt8Oid;
using postgres_internal::Param;
using postgres_internal::PgResult;
using postgres_internal::Server;
using postgres_internal::ServerConfig;

constexpr char kStartTimeoutKey[] = "postgres.start_timeout_s";
constexpr uint64_t kMinSharedBuffersKiB = 128;  // PostgreSQL refuses fewer than 16 pages of 8 kB
// Rows per fetch of a Scan: bounds the memory of one result (libpq holds a whole result at once).
constexpr uint64_t kScanChunkRows = 1000;

constexpr char kCreateKv[] = "CREATE TABLE IF NOT EXISTS kv(k bytea PRIMARY KEY, v bytea NOT NULL)";

class PostgresSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(const std::string& conninfo) {
    Result<std::unique_ptr<Connection>> conn = Connection::Open(
        conninfo, {
                      {"put",
                       "INSERT INTO kv(k, v) VALUES($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
                       {kByteaOid, kByteaOid}},
                      {"get", "SELECT v FROM kv WHERE k = $1", {kByteaOid}},
                      {"del", "DELETE FROM kv WHERE k = $1", {kByteaOid}},
                      {"scan_from", "SELECT k, v FROM kv WHERE k >= $1 ORDER BY k LIMIT $2", {kByteaOid, kInt8Oid}},
                      {"scan_after", "SELECT k, v FROM kv WHERE k > $1 ORDER BY k LIMIT $2", {kByteaOid, kInt8Oid}},
                      {"count", "SELECT count(*) FROM kv", {}},
                  });
    if (!conn.ok()) return conn.status();
    return std::unique_ptr<Session>(new PostgresSession(std::move(conn.value())));
  }

  Status Put(std::string_view key, std::string_view value) override {
    return conn_->Exec("put", {Param::Bytes(key), Param::Bytes(value)}, "Put").status();
  }

  Status Get(std::string_view key, std::string* value) override {
    Result<PgResult> r = conn_->Exec("get", {Param::Bytes(key)}, "Get");
    if (!r.ok()) return r.status();
    if (PQntuples(r->get()) == 0) return Status::NotFound();
    value->assign(ColumnBytes(r->get(), 0, 0));
    return Status::Ok();
  }

  Status Delete(std::string_view key) override { return conn_->Exec("del", {Param::Bytes(key)}, "Delete").status(); }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    const bool own_txn = !in_batch() && (limit == 0 || limit > kScanChunkRows);
    if (own_txn) {
      DBXB_RETURN_IF_ERROR(conn_->Query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "Scan begin").status());
    }
    Status s = ScanChunks(start, limit, visitor);
    if (own_txn) {
      Status ended = conn_->Query(s.ok() ? "COMMIT" : "ROLLBACK", "Scan end").status();
      if (s.ok()) s = ended;
    }
    return s;
  }

  Status Count(uint64_t* count) override {
    Result<PgResult> r = conn_->Exec("count", {}, "Count");
    if (!r.ok()) return r.status();
    *count = static_cast<uint64_t>(ColumnInt8(r->get(), 0, 0));
    return Status::Ok();
  }

  Status DoBegin() override { return conn_->Query("BEGIN", "BEGIN").status(); }

  Status DoCommit() override {
    Result<PgResult> r = conn_->Query("COMMIT", "COMMIT");
    if (!r.ok()) return r.status();
    // COMMIT of a transaction that had failed succeeds as a ROLLBACK.
    if (std::string_view(PQcmdStatus(r->get())) == "ROLLBACK")
      return Status::Conflict("COMMIT: the transaction had failed and was rolled back");
    return Status::Ok();
  }

  Status DoAbort() override { return conn_->Query("ROLLBACK", "ROLLBACK").status(); }

 private:
  explicit PostgresSession(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}

  // Fetches kScanChunkRows at a time, each fetch continuing after the last key of the one before.
  Status ScanChunks(std::string_view start, uint64_t limit, ScanVisitor visitor) {
    std::string last;
    uint64_t seen = 0;
    for (bool first = true;; first = false) {
      const uint64_t want = limit == 0 ? kScanChunkRows : std::min(kScanChunkRows, limit - seen);
      Result<PgResult> r = conn_->Exec(
          first ? "scan_from" : "scan_after",
          {Param::Bytes(first ? start : std::string_view(last)), Param::Int8(static_cast<int64_t>(want))}, "Scan");
      if (!r.ok()) return r.status();
      const PGresult* rows = r->get();
      const int n = PQntuples(rows);
      for (int i = 0; i < n; ++i) {
        ++seen;
        if (!visitor(ColumnBytes(rows, i, 0), ColumnBytes(rows, i, 1))) return Status::Ok();
      }
      if (static_cast<uint64_t>(n) < want || (limit != 0 && seen == limit)) return Status::Ok();
      last.assign(ColumnBytes(rows, n - 1, 0));
    }
  }

  std::unique_ptr<Connection> conn_;
};

Status ParseStartTimeout(const AdapterOptions& options, int* seconds) {
  for (const auto& [key, value] : options.native_options) {
    if (key != kStartTimeoutKey) continue;
    int v = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || v < 0 || v > 3600)
      return Status::InvalidArgument(std::string(kStartTimeoutKey) + ": expected seconds in [0, 3600], got '" + value +
                                     "'");
    *seconds = v;
  }
  return Status::Ok();
}

// The server settings of a durability level (see postgres_adapter.h).
ServerConfig ConfigFor(const AdapterOptions& options) {
  ServerConfig config;
  config.dir = options.dir;
  const uint64_t shared_kib = std::max(kMinSharedBuffersKiB, options.cache_bytes / 1024);
  config.settings.emplace_back("shared_buffers", std::to_string(shared_kib) + "kB");
  config.settings.emplace_back("fsync", options.durability == Durability::kNone ? "off" : "on");
  config.settings.emplace_back("synchronous_commit", options.durability == Durability::kFull ? "on" : "off");
  return config;
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
    "listen_addresses",
    "default_transaction_isolation",
};

class PostgresAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    ServerConfig config = ConfigFor(options);
    DBXB_RETURN_IF_ERROR(ParseStartTimeout(options, &config.start_timeout_seconds));
    Result<std::unique_ptr<Server>> server = Server::Start(config);
    if (!server.ok()) return server.status();
    // From here the adapter owns the server: any failure below stops it in the destructor.
    std::unique_ptr<PostgresAdapter> adapter(new PostgresAdapter(std::move(server.value())));
    Result<std::unique_ptr<Connection>> control = Connection::Open(adapter->server_->conninfo(), {});
    if (!control.ok()) return control.status();
    adapter->control_ = std::move(control.value());
    DBXB_RETURN_IF_ERROR(adapter->control_->Query(kCreateKv, "create kv").status());
    for (const char* sql : postgres_internal::kCreateRowsTable)
      DBXB_RETURN_IF_ERROR(adapter->control_->Query(sql, "create rows").status());
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~PostgresAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (server_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return PostgresSession::Open(server_->conninfo());
  }

  Result<std::unique_ptr<RowSession>> NewRowSession() override {
    if (server_ == nullptr) return Status::InvalidArgument("NewRowSession: adapter is closed");
    return postgres_internal::OpenRowSession(server_->conninfo());
  }

  Settings NativeSettings() override {
    Settings s;
    if (control_ == nullptr) return s;
    for (const char* name : kShownSettings) {
      Result<PgResult> r = control_->Query((std::string("SHOW ") + name).c_str(), "SHOW");
      std::string value = r.ok() && PQntuples(r->get()) == 1 ? PQgetvalue(r->get(), 0, 0) : "unavailable";
      if (value.empty() && std::string_view(name) == "listen_addresses") value = "'' (Unix socket only)";
      s.emplace_back(name, value);
    }
    s.emplace_back("server", "private server for this database: initdb, pg_ctl start, pg_ctl stop -m fast");
    s.emplace_back("table", "kv(k bytea PRIMARY KEY, v bytea)");
    s.emplace_back("statements", "prepared per connection; binary parameters and results");
    s.emplace_back("batch", "one transaction from Begin to Commit");
    s.emplace_back("settle", "CHECKPOINT (the load's dirty buffers and WAL written out)");
    return s;
  }

  Status Settle() override {
    if (control_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    return control_->Query("CHECKPOINT", "Settle: CHECKPOINT").status();
  }

  Status Close() override {
    if (server_ == nullptr) return Status::Ok();
    control_.reset();
    Status s = server_->Stop();
    server_.reset();
    return s;
  }

 private:
  explicit PostgresAdapter(std::unique_ptr<Server> server) : server_(std::move(server)) {}

  std::unique_ptr<Server> server_;
  std::unique_ptr<Connection> control_;  // setup and SHOW; destroyed before the server stops
};

std::string LibpqVersion() {
  int v = PQlibVersion();  // 150020 for 15.20
  return std::to_string(v / 10000) + "." + std::to_string(v % 100);
}

}  // namespace

AdapterFactory PostgresAdapterFactory() {
  AdapterFactory f;
  f.name = "postgres";
  f.syncs_out_of_process = true;  // the server process syncs its WAL and data files
  f.description = "PostgreSQL: a private server per database (Unix socket), one libpq connection per session";
  f.library_version = [] { return postgres_internal::ServerProgramVersion() + ", libpq " + LibpqVersion(); };
  f.library_build = [] { return std::string("debian-package"); };
  f.open = [](const AdapterOptions& options) { return PostgresAdapter::Open(options); };
  f.native_option_keys = {kStartTimeoutKey};
  f.check_native_values = [](const AdapterOptions& options) {
    int seconds = 0;
    return ParseStartTimeout(options, &seconds);
  };
  return f;
}

}  // namespace dbxb
