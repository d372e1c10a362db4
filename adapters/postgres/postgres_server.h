// A private PostgreSQL server for one database: initdb into a directory, pg_ctl start listening on a
// Unix socket only (in the data directory, or in a private temporary directory when that path is too
// long for a socket), pg_ctl stop -m fast. Internal to the postgres adapter.
//
// initdb refuses to run as root, so when this process is root every PostgreSQL program runs as the
// unprivileged account kServerUser (scripts/install-deps.sh creates it); otherwise as the calling user.
// The programs are found at run time: `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin
// (Debian's layout), else PATH. Children run in their own process group, so a Ctrl-C at the terminal
// reaches only dbx-bench, whose Close then stops the server; pg_ctl detaches the server itself.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace dbxb::postgres_internal {

/// The account the servers run as when dbx-bench runs as root.
inline constexpr char kServerUser[] = "dbxbench";
/// The database role every connection uses (initdb -U): the same name whoever runs the server.
inline constexpr char kRole[] = "dbxbench";

struct ServerConfig {
  /// The database's directory (AdapterOptions::dir); the server's data directory is <dir>/data.
  std::string dir;
  /// Lines of postgresql.auto.conf, ("shared_buffers", "8192kB"), written before every start after
  /// listen_addresses = '' and unix_socket_directories = the data directory.
  std::vector<std::pair<std::string, std::string>> settings;
  /// How long pg_ctl waits for the server to accept connections.
  int start_timeout_seconds = 60;
};

/// "PostgreSQL 15.20 (Debian 15.20-0+deb12u1) server", from `postgres --version`, or an explanation.
std::string ServerProgramVersion();

class Server {
 public:
  /// Creates the data directory with initdb if it does not exist yet, writes the settings and starts
  /// the server. A server that does not start is IOError naming its log file; a half-started server is
  /// stopped before this returns.
  static Result<std::unique_ptr<Server>> Start(const ServerConfig& config);

  /// Stops the server if it still runs.
  ~Server();

  /// pg_ctl stop -m fast: waits until the server has shut down. Idempotent.
  Status Stop();

  /// The libpq connection string of this server.
  const std::string& conninfo() const { return conninfo_; }
  const std::string& log_path() const { return log_path_; }

 private:
  Server() = default;

  std::string bindir_;
  std::string data_dir_;
  std::string log_path_;
  std::string socket_dir_;
  std::string own_socket_dir_;  // a directory created for the socket, or empty
  std::string conninfo_;
  bool running_ = false;
  pid_t postmaster_pid_ = 0;  // on the kill-on-exit list while running (common/kill_on_exit.h)
};

}  // namespace dbxb::postgres_internal
