#include "adapters/postgres/postgres_cluster.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "common/orphan_guard.h"
#include "common/owned_dir.h"
#include "common/spawn.h"

namespace dbxb::postgres_internal {
namespace {

namespace fs = std::filesystem;

bool IsProgram(const fs::path& p) { return access(p.c_str(), X_OK) == 0; }
bool HasServerPrograms(const fs::path& dir) { return IsProgram(dir / "initdb") && IsProgram(dir / "postgres"); }

// The first line `command` prints, or "" when it fails.
std::string FirstLineOf(const char* command) {
  FILE* pipe = popen(command, "r");
  if (pipe == nullptr) return "";
  char line[4096];
  std::string out;
  if (fgets(line, sizeof line, pipe) != nullptr) out = line;
  if (pclose(pipe) != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// "15" < "16", "9.6" < "10": compares the leading version numbers of Debian's directory names.
bool NewerVersion(const fs::path& a, const fs::path& b) {
  return std::strtod(a.filename().c_str(), nullptr) > std::strtod(b.filename().c_str(), nullptr);
}

ServerBuild FindDebianBuild() {
  ServerBuild build;
  std::string from_pg_config = FirstLineOf("pg_config --bindir 2>/dev/null");
  std::vector<fs::path> versions;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (HasServerPrograms(entry.path() / "bin")) versions.push_back(entry.path());
  std::sort(versions.begin(), versions.end(), NewerVersion);
  if (!from_pg_config.empty() && HasServerPrograms(from_pg_config)) {
    build.bindir = from_pg_config;
  } else if (!versions.empty()) {
    build.bindir = (versions.front() / "bin").string();
  } else if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; build.bindir.empty() && std::getline(dirs, dir, ':');)
      if (!dir.empty() && HasServerPrograms(dir)) build.bindir = dir;
  }
  if (build.bindir.empty())
    build.missing =
        "postgres: no PostgreSQL server programs (initdb, postgres) found via pg_config --bindir, "
        "/usr/lib/postgresql/*/bin or PATH (install the postgresql package)";
  return build;
}

// A value of postgresql.conf: single-quoted, quotes doubled.
std::string ConfQuoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Writes `text` to `path` (replacing it) and gives it to the server's account.
Status WriteConfFile(const Identity& id, const fs::path& path, const std::string& text) {
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    if (!out.flush()) return Status::IOError("postgres: cannot write " + path.string());
  }
  return GiveToServer(id, path.string());
}

// A directory of this process's in the temporary directory: removed when the process ends, and by its
// guard if it is killed.
class ProcessTempDir {
 public:
  static Result<std::unique_ptr<ProcessTempDir>> Create(const std::string& prefix) {
    Result<std::string> temp = TempDirectory();  // never "": a template in the working directory
    if (!temp.ok()) return temp.status();
    const std::string tmp = *temp;
    (void)RemoveAbandonedDirs(tmp, "dbx-bench-pg-");  // what killed runs left
    Result<std::string> dir = CreateOwnedDir(tmp, prefix);
    if (!dir.ok()) return dir.status();
    std::unique_ptr<ProcessTempDir> made(new ProcessTempDir(*dir));
    Result<std::unique_ptr<OrphanGuard>> guard = OrphanGuard::Start({*dir});
    if (!guard.ok()) return guard.status();
    made->guard_ = std::move(*guard);
    return made;
  }

  ~ProcessTempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
    guard_.reset();
  }

  const std::string& path() const { return path_; }

 private:
  explicit ProcessTempDir(std::string path) : path_(std::move(path)) {}

  std::string path_;
  std::unique_ptr<OrphanGuard> guard_;
};

// One T per key (a bindir, an install tree) for the life of the process; destroyed at exit.
template <typename T>
T& OnePerProcess(const std::string& key) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<T>> made;  // GUARDED_BY(mu)
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<T>& t = made[key];
  if (t == nullptr) t.reset(new T(key));
  return *t;
}

// A copy of a server build's install tree the server's account can read, made once per process: a
// build cached under root's home is out of that account's reach, and root's home stays closed.
class ProgramsCopy {
 public:
  explicit ProgramsCopy(std::string root) : root_(std::move(root)) {}

  // `bindir` (under the build's root) in the copy.
  Result<std::string> Bindir(const Identity& id, const std::string& bindir) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_ == nullptr) DBXB_RETURN_IF_ERROR(Create().WithContext("postgres: a copy of " + root_ + " for the server"));
    const std::string copied = (fs::path(dir_->path()) / "install" / fs::relative(bindir, root_)).string();
    DBXB_RETURN_IF_ERROR(CheckReachable(id, copied));
    return copied;
  }

 private:
  // Root keeps the copy (the server's account reads and runs it, and cannot change it); cp -a keeps the
  // build's modes. A child copies, so that its writes are not counted as this process's (common/spawn.h).
  Status Create() {
    Result<std::unique_ptr<ProcessTempDir>> dir = ProcessTempDir::Create("dbx-bench-pg-programs-");
    if (!dir.ok()) return dir.status();
    if (chmod((*dir)->path().c_str(), 0755) != 0) return Status::IOError(std::string("chmod: ") + std::strerror(errno));
    const std::string log = (*dir)->path() + "/copy.log";
    Result<int> rc = RunServerProgram(Identity{}, {"/bin/cp", "-a", "--", root_, (*dir)->path() + "/install"},
                                      (*dir)->path(), log, 300);
    if (rc.ok() && *rc != 0) return Status::IOError("cp exit " + std::to_string(*rc) + ": " + LastLine(log));
    if (!rc.ok()) return rc.status();
    dir_ = std::move(*dir);
    return Status::Ok();
  }

  const std::string root_;
  std::mutex mu_;
  std::unique_ptr<ProcessTempDir> dir_;  // GUARDED_BY(mu_)
};

// initdb's output, made once per process and server build and copied into each new cluster: initdb
// takes most of a server's start-up time (half a second and more), a copy a few tens of milliseconds.
// The copy is the cluster initdb would make (same program, same options).
class TemplateCluster {
 public:
  explicit TemplateCluster(std::string bindir) : bindir_(std::move(bindir)) {}

  // The copy is made by `cp -a` as the server's account: a child process, so that its writes (the
  // cluster's catalog, not the database's data) are not counted as this process's (common/spawn.h).
  Status CopyTo(const Identity& id, const fs::path& data) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_ == nullptr) DBXB_RETURN_IF_ERROR(Create(id));
    const std::string log = data.parent_path().string() + "/copy.log";
    Result<int> rc = RunServerProgram(id, {"/bin/cp", "-a", "--", dir_->path() + "/data", data.string()},
                                      data.parent_path().string(), log, 300);
    if (rc.ok() && *rc != 0) rc = Status::IOError("exit " + std::to_string(*rc) + ": " + LastLine(log));
    std::error_code ec;
    fs::remove(log, ec);
    return rc.status().WithContext("postgres: copy the initdb template into " + data.string());
  }

 private:
  Status Create(const Identity& id) {
    Result<std::unique_ptr<ProcessTempDir>> dir = ProcessTempDir::Create("dbx-bench-pg-template-");
    if (!dir.ok()) return dir.status().WithContext("postgres: the initdb template");
    const std::string path = (*dir)->path();
    DBXB_RETURN_IF_ERROR(GiveToServer(id, path));
    DBXB_RETURN_IF_ERROR(CheckReachable(id, path));
    const std::string log = path + "/initdb.log";
    // Authentication is written by every start (WriteStartFiles); initdb's own is replaced.
    Result<int> rc = RunServerProgram(id,
                                      {bindir_ + "/initdb", "-D", path + "/data", "-U", kRole, "-A", "trust", "-E",
                                       "UTF8", "--locale=C", "--no-sync", "--no-instructions"},
                                      path, log, 300);
    if (!rc.ok()) return rc.status();
    if (*rc != 0)
      return Status::IOError("postgres: initdb failed (exit " + std::to_string(*rc) + "): " + LastLine(log));
    dir_ = std::move(*dir);
    return Status::Ok();
  }

  const std::string bindir_;
  std::mutex mu_;
  std::unique_ptr<ProcessTempDir> dir_;  // GUARDED_BY(mu_)
};

}  // namespace

Result<Identity> ServerIdentity() {
  Identity id;
  if (geteuid() != 0) return id;
  struct passwd pwd {};
  struct passwd* found = nullptr;
  char buf[4096];
  if (getpwnam_r(kServerUser, &pwd, buf, sizeof buf, &found) != 0 || found == nullptr)
    return Status::InvalidArgument(std::string("postgres: dbx-bench runs as root and initdb refuses root, but the "
                                               "server account '") +
                                   kServerUser + "' does not exist (scripts/install-deps.sh creates it)");
  id.server_user = std::make_pair(pwd.pw_uid, pwd.pw_gid);
  return id;
}

const ServerBuild& DebianServerBuild() {
  static const ServerBuild build = FindDebianBuild();  // immutable once found
  return build;
}

std::string ServerProgramVersion(const ServerBuild& build) {
  if (build.bindir.empty()) return "no PostgreSQL server found";
  if (!HasServerPrograms(build.bindir)) return "PostgreSQL server programs missing from " + build.bindir;
  std::string line = FirstLineOf(("'" + build.bindir + "/postgres' --version 2>/dev/null").c_str());
  // "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)"
  const std::string prefix = "postgres (PostgreSQL) ";
  if (line.rfind(prefix, 0) == 0) return "PostgreSQL " + line.substr(prefix.size()) + " server";
  return line.empty() ? "PostgreSQL server (version unknown)" : line;
}

Status CheckServerBuild(const ServerBuild& build) {
  if (!build.bindir.empty() && HasServerPrograms(build.bindir)) return Status::Ok();
  return Status::NotSupported(build.missing.empty() ? "postgres: no initdb and postgres in " + build.bindir
                                                    : build.missing);
}

Result<std::string> ServerBindir(const Identity& id, const ServerBuild& build) {
  DBXB_RETURN_IF_ERROR(CheckServerBuild(build));
  if (build.root.empty() || CheckReachable(id, build.bindir).ok()) return build.bindir;
  return OnePerProcess<ProgramsCopy>(build.root).Bindir(id, build.bindir);
}

Result<int> RunServerProgram(const Identity& id, const std::vector<std::string>& argv, const std::string& cwd,
                             const std::string& log, int timeout_seconds) {
  SpawnOptions o;
  o.argv = argv;
  o.env = {"LC_ALL=C", "PATH=/usr/bin:/bin"};
  o.cwd = cwd;
  o.output_file = log;
  o.user = id.server_user;
  Result<pid_t> pid = Spawn(o);
  if (!pid.ok()) return pid.status().WithContext("postgres: " + argv[0]);
  Result<std::optional<ChildExit>> ended = WaitChild(*pid, std::chrono::seconds(timeout_seconds));
  if (!ended.ok()) return ended.status();
  if (ended->has_value()) return (*ended)->code;
  (void)StopChild(*pid, SIGKILL, std::chrono::seconds(5));
  return Status::IOError("postgres: " + argv[0] + " did not finish within " + std::to_string(timeout_seconds) +
                         " s: " + LastLine(log));
}

Status GiveToServer(const Identity& id, const std::string& path, bool recursive) {
  if (!id.server_user) return Status::Ok();
  const auto [uid, gid] = *id.server_user;
  if (lchown(path.c_str(), uid, gid) != 0)
    return Status::IOError("postgres: chown " + path + ": " + std::strerror(errno));
  if (!recursive) return Status::Ok();
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
    if (lchown(entry.path().c_str(), uid, gid) != 0)
      return Status::IOError("postgres: chown " + entry.path().string() + ": " + std::strerror(errno));
  }
  if (ec) return Status::IOError("postgres: walk " + path + ": " + ec.message());
  return Status::Ok();
}

Status CheckReachable(const Identity& id, const std::string& dir) {
  if (!id.server_user) return Status::Ok();
  const auto [uid, gid] = *id.server_user;
  fs::path p;
  for (const fs::path& part : fs::path(dir)) {
    p /= part;
    struct stat st {};
    if (stat(p.c_str(), &st) != 0) return Status::IOError("postgres: stat " + p.string() + ": " + std::strerror(errno));
    bool searchable = (st.st_uid == uid && (st.st_mode & S_IXUSR)) || (st.st_gid == gid && (st.st_mode & S_IXGRP)) ||
                      (st.st_mode & S_IXOTH);
    if (!searchable) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
      return Status::InvalidArgument(std::string("postgres: the server account '") + kServerUser + "' cannot enter " +
                                     p.string() + " (mode " + mode +
                                     "); choose a --data-dir it can reach, e.g. under /tmp");
    }
  }
  return Status::Ok();
}

Status CopyTemplateCluster(const Identity& id, const std::string& bindir, const std::string& data) {
  return OnePerProcess<TemplateCluster>(bindir).CopyTo(id, data);
}

Status WriteStartFiles(const Identity& id, const std::string& data, const StartFiles& files) {
  std::ostringstream conf;
  conf << "# Written by dbx-bench before every start of this server.\n";
  conf << "listen_addresses = " << (files.tcp ? "'127.0.0.1'" : "''") << "\n";
  conf << "port = " << files.port << "\n";
  conf << "unix_socket_directories = " << ConfQuoted(files.socket_dir) << "\n";
  conf << "unix_socket_permissions = 0700\n";
  conf << "password_encryption = 'scram-sha-256'\n";
  for (const auto& [key, value] : files.settings) conf << key << " = " << ConfQuoted(value) << "\n";
  DBXB_RETURN_IF_ERROR(WriteConfFile(id, fs::path(data) / "postgresql.auto.conf", conf.str()));

  struct stat st {};
  const bool private_socket = stat(files.socket_dir.c_str(), &st) == 0 && (st.st_mode & 077) == 0;
  std::ostringstream hba;
  hba << "# Written by dbx-bench before every start of this server: no trust on anything another user can reach.\n";
  hba << "local all " << kRole << (private_socket ? " trust\n" : " scram-sha-256\n");
  if (files.tcp) hba << "host all " << kRole << " 127.0.0.1/32 scram-sha-256\n";
  return WriteConfFile(id, fs::path(data) / "pg_hba.conf", hba.str());
}

Result<int> FreeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status::IOError(std::string("postgres: socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  const int err = errno;
  close(fd);
  if (!ok) return Status::IOError(std::string("postgres: no free port on 127.0.0.1: ") + std::strerror(err));
  return static_cast<int>(ntohs(addr.sin_port));
}

namespace {

Result<std::string> RandomToken(size_t length, std::string_view alphabet) {
  unsigned char bytes[64];
  if (length > sizeof bytes || getrandom(bytes, length, 0) != static_cast<ssize_t>(length))
    return Status::IOError(std::string("postgres: getrandom: ") + std::strerror(errno));
  std::string out;
  for (size_t i = 0; i < length; ++i) out += alphabet[bytes[i] % alphabet.size()];
  return out;
}

}  // namespace

Result<std::string> RandomPassword() {
  return RandomToken(24, "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789");
}

Result<std::string> RandomRunId() { return RandomToken(16, "abcdefghijklmnopqrstuvwxyz0123456789"); }

std::string LastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 300) last = last.substr(0, 300) + "...";
  return last;
}

std::string ConninfoQuoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace dbxb::postgres_internal
