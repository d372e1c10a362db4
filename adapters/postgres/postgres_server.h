// A private PostgreSQL server for one database, started as a child of this process and tied to its life.
// Internal to the postgres adapter.
//
// Files, under the database's directory (AdapterOptions::dir):
//   server/        the cluster and everything of the server that is not this database's data, marked
//                  so that the database's size leaves it out (common/disk_usage.h): data/ (a copy of
//                  initdb's template, postgres_cluster.h), server.log, the sync counter
//   tables/        the tablespace holding the database's tables and indexes
// The socket lives in server/data, or, when that path is too long for a socket, in an owned directory of
// the temporary directory. With `tcp` the server also listens on 127.0.0.1 on a free port, and every
// connection authenticates with a password made for this server (SCRAM); pg_hba trusts nothing another
// user can reach (postgres_cluster.h, WriteStartFiles).
//
// The postmaster is this process's child (no pg_ctl): its CPU and I/O, with those of every backend it
// reaped, are read from /proc while it runs and when it ends (common/server_usage.h), its sync calls
// through the tool's counting library preloaded into it (common/sync/server_sync_counter.h), its WAL
// from pg_current_wal_insert_lsn(). An orphan guard (common/orphan_guard.h) stops it and removes its
// files if this process dies without stopping it; the kill-on-exit list (common/kill_on_exit.h) sends
// it SIGQUIT on a second Ctrl-C.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "adapters/postgres/postgres_cluster.h"
#include "common/orphan_guard.h"
#include "common/server_usage.h"
#include "common/status.h"
#include "common/sync/server_sync_counter.h"

namespace dbxb::postgres_internal {

class Connection;

struct ServerConfig {
  /// The server programs to run.
  ServerBuild build;
  /// The database's directory (AdapterOptions::dir).
  std::string dir;
  /// postgresql.auto.conf lines, ("shared_buffers", "8192kB"), written before every start.
  std::vector<std::pair<std::string, std::string>> settings;
  /// How long to wait for the server to accept connections; 0 gives up at once.
  int start_timeout_seconds = 60;
  /// Listen on 127.0.0.1 too (a free port, password authentication); sessions then connect over TCP.
  bool tcp = false;
};

class Server final : public ServerProbe {
 public:
  /// Creates the cluster if it does not exist yet, writes the start files and starts the server; the
  /// tablespace for the database's tables exists when this returns. A server that does not start is
  /// IOError quoting the last line of its log; nothing of it is left running.
  static Result<std::unique_ptr<Server>> Start(const ServerConfig& config);

  /// Stops the server if it still runs.
  ~Server() override;

  /// A fast shutdown (SIGINT), waited for; an immediate one, then SIGKILL, when it does not end within
  /// a minute. Idempotent. Keeps the files, so that a new Start sees the data.
  Status Stop();

  /// The libpq connection string every connection of the adapter uses: over TCP with `tcp`, else over
  /// the socket. The password, with `tcp`, is in it: never record it.
  const std::string& conninfo() const { return conninfo_; }
  /// The tablespace every table and index of the database belongs to.
  static constexpr const char* kTablespace = "dbx_bench";
  /// With `tcp`: "postgresql://dbxbench@127.0.0.1:<port>/postgres" (no password) and the password.
  const std::string& url() const { return url_; }
  const std::string& password() const { return password_; }

  ServerUsage Read(bool with_pss) override;

 private:
  explicit Server(const ServerConfig& config) : config_(config) {}
  Status PrepareFiles(const Identity& id);
  Status Launch(const Identity& id);
  Status SpawnPostmaster(const Identity& id);
  Status WaitUntilReady();
  Status Configure();
  std::optional<uint64_t> WalPosition();
  void ForgetPostmaster(const ServerUsage& final_usage);

  ServerConfig config_;
  std::string bindir_;
  std::string server_dir_;  // <dir>/server
  std::string data_dir_;    // <dir>/server/data
  std::string log_path_;
  std::string socket_dir_;
  std::string own_socket_dir_;  // an owned directory made for the socket, or empty
  int port_ = 5432;
  std::string conninfo_, url_, password_;
  std::unique_ptr<ServerSyncCounter> syncs_;
  std::unique_ptr<OrphanGuard> guard_;
  // While running: on the kill-on-exit list, watched by the guard, registered. Read by Read on any thread.
  std::atomic<pid_t> postmaster_{0};

  std::mutex meter_mu_;
  std::unique_ptr<Connection> meter_;  // GUARDED_BY(meter_mu_): reads the WAL position
  uint64_t wal_at_start_ = 0;          // GUARDED_BY(meter_mu_)
};

}  // namespace dbxb::postgres_internal
