// The pieces of a private PostgreSQL server that are files and programs, not a running server: who the
// programs run as, where they are, the initdb template copied into each new cluster, and the
// configuration written before every start. Internal to the postgres adapter (postgres_server.h runs it).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace dbxb::postgres_internal {

/// The account the servers run as when dbx-bench runs as root (initdb and postgres refuse root).
inline constexpr char kServerUser[] = "dbxbench";
/// The database role every connection uses (initdb -U): the same name whoever runs the server.
inline constexpr char kRole[] = "dbxbench";

/// Who the PostgreSQL programs run as.
struct Identity {
  /// Set when this process is root: the programs run as kServerUser, and files are given to it.
  std::optional<std::pair<uid_t, gid_t>> server_user;
};

/// The identity for this process. InvalidArgument when root and kServerUser does not exist.
Result<Identity> ServerIdentity();

/// A build of PostgreSQL's server programs the adapter can run.
struct ServerBuild {
  /// The directory of initdb and postgres; empty when there is none (`missing` says why).
  std::string bindir;
  /// The install tree holding `bindir` (its lib/ and share/ found from it), copied for the server's
  /// account when that account cannot reach it (a build cached under root's home); empty: never copied.
  std::string root;
  /// Why there is no `bindir`: one line naming what to do.
  std::string missing;
};

/// Debian's server programs: `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin, else PATH.
/// Found once per process.
const ServerBuild& DebianServerBuild();

/// "PostgreSQL 15.20 (Debian 15.20-0+deb12u1) server", from `postgres --version` of `build`, or an
/// explanation.
std::string ServerProgramVersion(const ServerBuild& build);

/// NotSupported (`build.missing`) when `build` has no initdb and postgres.
Status CheckServerBuild(const ServerBuild& build);

/// The directory of `build`'s programs as the server's account can run them: `build.bindir` itself when
/// that account can reach it, else the same place in a copy of `build.root` made once per process in an
/// owned directory of the temporary directory (the account reads it, root owns it; removed at exit, and
/// by its guard if this process is killed). NotSupported when `build` has no programs.
Result<std::string> ServerBindir(const Identity& id, const ServerBuild& build);

/// Runs a program of `bindir` as `id` with `args`, output appended to `log`, waiting at most
/// `timeout_seconds`. Returns its exit code; IOError when it cannot run or did not finish in time.
Result<int> RunServerProgram(const Identity& id, const std::vector<std::string>& argv, const std::string& cwd,
                             const std::string& log, int timeout_seconds);

/// Gives `path` (and, when `recursive`, everything under it) to the server's account; nothing when the
/// programs run as this process's user.
Status GiveToServer(const Identity& id, const std::string& path, bool recursive = false);

/// InvalidArgument naming the first directory from / down to `dir` the server's account cannot enter.
Status CheckReachable(const Identity& id, const std::string& dir);

/// Fills the new cluster directory `data` with a copy of this process's initdb template of the programs
/// in `bindir` (made on first use in the temporary directory, guarded so that it is removed even if this
/// process is killed). REQUIRES: the server's account can run the programs of `bindir` (ServerBindir).
Status CopyTemplateCluster(const Identity& id, const std::string& bindir, const std::string& data);

/// What every start writes into the cluster before the server starts.
struct StartFiles {
  std::string socket_dir;  ///< where the Unix socket goes (a directory only the server's account can enter)
  int port = 5432;         ///< the TCP port, and the number in the socket's name
  bool tcp = false;        ///< listen on 127.0.0.1 too, with password (SCRAM) authentication
  std::vector<std::pair<std::string, std::string>> settings;  ///< postgresql.auto.conf lines after ours
};

/// Writes postgresql.auto.conf (listen_addresses, port, socket directory, then `files.settings`) and
/// pg_hba.conf: `trust` on the Unix socket only when its directory admits nobody but the server's
/// account (mode 0700), SCRAM otherwise; on TCP (127.0.0.1 only) SCRAM always; nothing else.
Status WriteStartFiles(const Identity& id, const std::string& data, const StartFiles& files);

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0 and released).
Result<int> FreeLoopbackPort();

/// 24 random letters and digits (getrandom).
Result<std::string> RandomPassword();
/// 16 random lower-case letters and digits (getrandom): a postgres.run_id.
Result<std::string> RandomRunId();

/// The last non-empty line of a file, at most 300 bytes of it, or "".
std::string LastLine(const std::string& path);

/// A value of a libpq connection string: single-quoted, backslash and quote escaped.
std::string ConninfoQuoted(const std::string& value);

}  // namespace dbxb::postgres_internal
