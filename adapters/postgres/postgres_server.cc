#include "adapters/postgres/postgres_server.h"

#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "adapters/postgres/postgres_connection.h"
#include "common/disk_usage.h"
#include "common/kill_on_exit.h"
#include "common/owned_dir.h"
#include "common/spawn.h"

namespace dbxb::postgres_internal {
namespace {

namespace fs = std::filesystem;

// Unix sockets are named .s.PGSQL.<port> in the socket directory; sun_path holds 107 bytes and a NUL.
constexpr size_t kMaxSocketPath = 107 - sizeof("/.s.PGSQL.65535") + 1;
constexpr auto kStopTimeout = std::chrono::seconds(60);
constexpr int kBindAttempts = 3;

Status MakeDir(const Identity& id, const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("postgres: create directory " + dir.string() + ": " + ec.message());
  return GiveToServer(id, dir.string());
}

// True when `path` holds `text` after its first `offset` bytes.
bool LogSaysSince(const std::string& path, uintmax_t offset, std::string_view text) {
  std::ifstream in(path);
  in.seekg(static_cast<std::streamoff>(offset));
  std::string line;
  while (std::getline(in, line))
    if (line.find(text) != std::string::npos) return true;
  return false;
}

// "0/16B3748" -> bytes.
std::optional<uint64_t> ParseLsn(const char* text) {
  unsigned long long hi = 0, lo = 0;
  if (text == nullptr || std::sscanf(text, "%llX/%llX", &hi, &lo) != 2) return std::nullopt;
  return (static_cast<uint64_t>(hi) << 32) | static_cast<uint64_t>(lo);
}

}  // namespace

Result<std::unique_ptr<Server>> Server::Start(const ServerConfig& config) {
  Result<Identity> id = ServerIdentity();
  if (!id.ok()) return id.status();
  Result<std::string> bindir = ServerBindir(*id, config.build);
  if (!bindir.ok()) return bindir.status();
  std::unique_ptr<Server> server(new Server(config));
  server->bindir_ = *bindir;
  DBXB_RETURN_IF_ERROR(server->PrepareFiles(*id));
  DBXB_RETURN_IF_ERROR(server->Launch(*id));
  DBXB_RETURN_IF_ERROR(server->Configure());
  return server;
}

// The directories, the cluster (copied from the template on first start), the socket directory and
// the sync counter.
Status Server::PrepareFiles(const Identity& id) {
  std::error_code ec;
  const fs::path dir = fs::absolute(config_.dir, ec);
  DBXB_RETURN_IF_ERROR(MakeDir(id, dir));
  DBXB_RETURN_IF_ERROR(CheckReachable(id, dir.string()));
  server_dir_ = (dir / "server").string();
  DBXB_RETURN_IF_ERROR(MakeDir(id, server_dir_));
  std::ofstream(fs::path(server_dir_) / kNotDataMarker) << "the server's own files, not the database's data\n";
  DBXB_RETURN_IF_ERROR(MakeDir(id, dir / "tables"));
  data_dir_ = server_dir_ + "/data";
  log_path_ = server_dir_ + "/server.log";
  if (!fs::exists(fs::path(data_dir_) / "PG_VERSION", ec))
    DBXB_RETURN_IF_ERROR(CopyTemplateCluster(id, bindir_, data_dir_));
  socket_dir_ = data_dir_;
  if (data_dir_.size() > kMaxSocketPath || data_dir_.find(',') != std::string::npos) {
    Result<std::string> tmp = TempDirectory();
    if (!tmp.ok()) return tmp.status();
    Result<std::string> own = CreateOwnedDir(*tmp, "dbx-bench-pg-");
    if (!own.ok()) return own.status().WithContext("postgres: a socket directory");
    socket_dir_ = own_socket_dir_ = *own;
    DBXB_RETURN_IF_ERROR(GiveToServer(id, socket_dir_));
    DBXB_RETURN_IF_ERROR(CheckReachable(id, socket_dir_));
  }
  Result<std::unique_ptr<ServerSyncCounter>> syncs = ServerSyncCounter::Create(server_dir_, id.server_user);
  if (!syncs.ok()) return syncs.status().WithContext("postgres: the sync counter");
  syncs_ = std::move(*syncs);
  return Status::Ok();
}

// Starts the postmaster under an orphan guard; on TCP, a port taken meanwhile by another process is
// retried on another.
Status Server::Launch(const Identity& id) {
  std::vector<std::string> files = {server_dir_, (fs::path(config_.dir) / "tables").string()};
  if (!own_socket_dir_.empty()) files.push_back(own_socket_dir_);
  Result<std::unique_ptr<OrphanGuard>> guard = OrphanGuard::Start(std::move(files), data_dir_);
  if (!guard.ok()) return guard.status().WithContext("postgres");
  guard_ = std::move(*guard);
  Status st;
  for (int attempt = 0; attempt < kBindAttempts; ++attempt) {
    if (config_.tcp) {
      Result<int> port = FreeLoopbackPort();
      if (!port.ok()) return port.status();
      port_ = *port;
    }
    DBXB_RETURN_IF_ERROR(WriteStartFiles(id, data_dir_, {socket_dir_, port_, config_.tcp, config_.settings}));
    std::error_code ec;
    const uintmax_t log_before = fs::exists(log_path_, ec) ? fs::file_size(log_path_, ec) : 0;
    DBXB_RETURN_IF_ERROR(SpawnPostmaster(id));
    st = WaitUntilReady();
    if (st.ok() || !config_.tcp || !LogSaysSince(log_path_, log_before, "could not bind")) break;
  }
  return st;
}

Status Server::SpawnPostmaster(const Identity& id) {
  SpawnOptions o;
  o.argv = {bindir_ + "/postgres", "-D", data_dir_};
  o.env = {"LC_ALL=C", "PATH=/usr/bin:/bin"};
  for (std::string& e : syncs_->Environment()) o.env.push_back(std::move(e));
  o.cwd = server_dir_;
  o.output_file = log_path_;
  o.user = id.server_user;
  Result<pid_t> pid = Spawn(o);
  if (!pid.ok()) return pid.status().WithContext("postgres: start the server");
  postmaster_ = *pid;
  (void)AddToKillOnExitList(postmaster_, SIGQUIT);
  (void)guard_->Watch(postmaster_);
  conninfo_ = "host=" + ConninfoQuoted(socket_dir_) + " port=" + std::to_string(port_) +
              " dbname=postgres user=" + kRole + " connect_timeout=10";
  RegisterServer(this);
  return Status::Ok();
}

// Polls the server until it accepts connections, it exits, or the start timeout passes (then it is
// stopped). The messages quote the log's last line: the log itself goes with the database's directory.
Status Server::WaitUntilReady() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(config_.start_timeout_seconds);
  for (;;) {
    Result<std::optional<ChildExit>> ended = WaitChild(postmaster_, std::chrono::milliseconds(0));
    if (ended.ok() && ended->has_value()) {
      ForgetPostmaster(ServerUsage{(*ended)->usage, 0, syncs_->Read(), std::nullopt});
      return Status::IOError("postgres: the server failed to start (exit " + std::to_string((*ended)->code) +
                             "): " + LastLine(log_path_));
    }
    if (PQping(conninfo_.c_str()) == PQPING_OK) return Status::Ok();
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const ChildExit stopped = StopChild(postmaster_, SIGQUIT, std::chrono::seconds(5));
  ForgetPostmaster(ServerUsage{stopped.usage, 0, syncs_->Read(), std::nullopt});
  const std::string last = LastLine(log_path_);
  return Status::IOError("postgres: the server did not accept connections within " +
                         std::to_string(config_.start_timeout_seconds) +
                         " s (postgres.start_timeout_s) and was stopped" +
                         (last.empty() ? std::string() : "; its log's last line: " + last));
}

// With TCP, the role gets this server's password (sent as a SCRAM verifier, never in clear); then the
// tablespace, and the connection that reads the WAL position.
Status Server::Configure() {
  const std::string socket_conninfo = conninfo_;
  if (config_.tcp) {
    Result<std::string> password = RandomPassword();
    if (!password.ok()) return password.status();
    password_ = *password;
    url_ = "postgresql://" + std::string(kRole) + "@127.0.0.1:" + std::to_string(port_) + "/postgres";
    conninfo_ = "host=127.0.0.1 port=" + std::to_string(port_) + " dbname=postgres user=" + kRole +
                " password=" + ConninfoQuoted(password_) + " connect_timeout=10";
  }
  Result<std::unique_ptr<Connection>> admin = Connection::Open(socket_conninfo, {});
  if (!admin.ok()) return admin.status();
  if (config_.tcp) {
    char* verifier = PQencryptPasswordConn((*admin)->raw(), password_.c_str(), kRole, "scram-sha-256");
    if (verifier == nullptr) return Status::IOError("postgres: cannot encrypt the server's password");
    const std::string sql = std::string("ALTER ROLE ") + kRole + " PASSWORD '" + verifier + "'";
    PQfreemem(verifier);
    DBXB_RETURN_IF_ERROR((*admin)->Query(sql.c_str(), "set the password").status());
  }
  Result<PgResult> exists =
      (*admin)->Query("SELECT 1 FROM pg_tablespace WHERE spcname = 'dbx_bench'", "find the tablespace");
  if (!exists.ok()) return exists.status();
  if (PQntuples(exists->get()) == 0) {
    const std::string location = fs::absolute(fs::path(config_.dir) / "tables").string();
    const std::string sql = std::string("CREATE TABLESPACE ") + kTablespace + " LOCATION '" + location + "'";
    DBXB_RETURN_IF_ERROR((*admin)->Query(sql.c_str(), "create the tablespace").status());
  }
  std::lock_guard<std::mutex> lock(meter_mu_);
  meter_ = std::move(*admin);
  wal_at_start_ = WalPosition().value_or(0);
  return Status::Ok();
}

// REQUIRES: meter_mu_ held.
std::optional<uint64_t> Server::WalPosition() {
  if (meter_ == nullptr) return std::nullopt;
  Result<PgResult> r = meter_->Query("SELECT pg_current_wal_insert_lsn()", "WAL position");
  if (!r.ok() || PQntuples(r->get()) != 1) return std::nullopt;
  return ParseLsn(PQgetvalue(r->get(), 0, 0));
}

ServerUsage Server::Read(bool with_pss) {
  ServerUsage u;
  const pid_t postmaster = postmaster_.load();
  if (postmaster == 0) return u;
  u.processes = ReadProcessUsage(postmaster, true).value_or(ProcessUsage{});
  if (with_pss) u.pss_bytes = ReadPssBytes(postmaster);
  for (pid_t child : ChildrenOf(postmaster)) {
    u.processes += ReadProcessUsage(child, true).value_or(ProcessUsage{});
    if (with_pss) u.pss_bytes += ReadPssBytes(child);
  }
  u.sync_calls = syncs_->Read();
  std::lock_guard<std::mutex> lock(meter_mu_);
  const std::optional<uint64_t> wal = WalPosition();
  if (wal) u.wal_bytes = *wal - std::min(*wal, wal_at_start_);
  return u;
}

// The postmaster ended and was reaped: it leaves the registry with its final figures, and every list.
void Server::ForgetPostmaster(const ServerUsage& final_usage) {
  RetireServer(this, final_usage);
  RemoveFromKillOnExitList(postmaster_);
  postmaster_ = 0;
}

Server::~Server() {
  (void)Stop();
  if (postmaster_ == 0) guard_.reset();  // a postmaster that could not be stopped stays guarded
  std::error_code ec;
  if (!own_socket_dir_.empty()) fs::remove_all(own_socket_dir_, ec);
}

Status Server::Stop() {
  if (postmaster_ == 0) return Status::Ok();
  std::optional<uint64_t> wal;
  {
    std::lock_guard<std::mutex> lock(meter_mu_);
    wal = WalPosition();
    if (wal) *wal -= std::min(*wal, wal_at_start_);
    meter_.reset();
  }
  const ChildExit exit = StopChild(postmaster_, SIGINT, kStopTimeout);
  ForgetPostmaster(ServerUsage{exit.usage, 0, syncs_->Read(), wal});
  if (guard_) guard_->Dismiss();
  if (exit.code == 0) return Status::Ok();
  return Status::IOError("postgres: the server in " + data_dir_ + " did not shut down cleanly (exit " +
                         std::to_string(exit.code) + "): " + LastLine(log_path_));
}

}  // namespace dbxb::postgres_internal
