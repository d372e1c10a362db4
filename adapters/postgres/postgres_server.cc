#include "adapters/postgres/postgres_server.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>

#include "common/kill_on_exit.h"

namespace dbxb::postgres_internal {
namespace {

namespace fs = std::filesystem;

// Unix sockets are named .s.PGSQL.<port> in the socket directory; sun_path holds 107 bytes and a NUL.
constexpr char kSocketName[] = "/.s.PGSQL.5432";
constexpr size_t kMaxSocketPath = 107;
constexpr int kStopTimeoutSeconds = 60;

// Who the PostgreSQL programs run as.
struct Identity {
  bool switch_user = false;  // true when this process is root
  uid_t uid = 0;
  gid_t gid = 0;
};

Result<Identity> ServerIdentity() {
  Identity id;
  if (geteuid() != 0) {
    id.uid = geteuid();
    id.gid = getegid();
    return id;
  }
  struct passwd pwd {};
  struct passwd* found = nullptr;
  char buf[4096];
  if (getpwnam_r(kServerUser, &pwd, buf, sizeof buf, &found) != 0 || found == nullptr)
    return Status::InvalidArgument(std::string("postgres: dbx-bench runs as root and initdb refuses root, but the "
                                               "server account '") +
                                   kServerUser + "' does not exist (scripts/install-deps.sh creates it)");
  id.switch_user = true;
  id.uid = pwd.pw_uid;
  id.gid = pwd.pw_gid;
  return id;
}

bool IsProgram(const fs::path& p) { return access(p.c_str(), X_OK) == 0; }
bool HasServerPrograms(const fs::path& dir) {
  return IsProgram(dir / "initdb") && IsProgram(dir / "pg_ctl") && IsProgram(dir / "postgres");
}

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

Result<std::string> FindBindir() {
  std::string from_pg_config = FirstLineOf("pg_config --bindir 2>/dev/null");
  if (!from_pg_config.empty() && HasServerPrograms(from_pg_config)) return from_pg_config;
  std::vector<fs::path> versions;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (HasServerPrograms(entry.path() / "bin")) versions.push_back(entry.path());
  std::sort(versions.begin(), versions.end(), NewerVersion);
  if (!versions.empty()) return (versions.front() / "bin").string();
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && HasServerPrograms(dir)) return dir;
  }
  return Status::NotSupported(
      "postgres: no PostgreSQL server programs (initdb, pg_ctl, postgres) found via pg_config --bindir, "
      "/usr/lib/postgresql/*/bin or PATH (install the postgresql package)");
}

const Result<std::string>& Bindir() {
  static const Result<std::string> bindir = FindBindir();  // immutable once found
  return bindir;
}

// Runs argv[0] with the arguments as `id`, in its own process group, with stdin from /dev/null and
// stdout/stderr appended to `output`; no other descriptor of this process is inherited. Waits at most
// `timeout_seconds` (the process group is killed after that). Returns the exit status.
Result<int> RunProgram(const Identity& id, const std::vector<std::string>& argv, const std::string& cwd,
                       const std::string& output, int timeout_seconds) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  static char kLocale[] = "LC_ALL=C";
  static char kPath[] = "PATH=/usr/bin:/bin";
  char* env[] = {kLocale, kPath, nullptr};
  int out = open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return Status::IOError("postgres: cannot open " + output + ": " + std::strerror(errno));
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls from here to exec: this process may have other threads.
    setpgid(0, 0);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    if (close_range(3, ~0u, 0) != 0) {
      for (int fd = 3; fd < 1024; ++fd) close(fd);
    }
    if (id.switch_user && (setgroups(0, nullptr) != 0 || setgid(id.gid) != 0 || setuid(id.uid) != 0)) _exit(126);
    if (chdir(cwd.c_str()) != 0) _exit(126);
    execve(args[0], args.data(), env);
    _exit(127);
  }
  int fork_errno = errno;
  close(out);
  if (devnull >= 0) close(devnull);
  if (pid < 0) return Status::IOError(std::string("postgres: fork: ") + std::strerror(fork_errno));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  int status = 0;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return Status::IOError(std::string("postgres: waitpid: ") + std::strerror(errno));
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return Status::IOError("postgres: " + argv[0] + " did not finish within " + std::to_string(timeout_seconds) +
                             " s (output: " + output + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The last non-empty line of a file, at most 300 bytes of it, or "".
std::string LastLine(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 300) last = last.substr(0, 300) + "...";
  return last;
}

bool FileContains(const std::string& path, std::string_view text) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str().find(text) != std::string::npos;
}

// Every directory from / down to `dir` must be searchable by the server's account.
Status CheckReachable(const Identity& id, const fs::path& dir) {
  if (!id.switch_user) return Status::Ok();
  fs::path p;
  for (const fs::path& part : dir) {
    p /= part;
    struct stat st {};
    if (stat(p.c_str(), &st) != 0) return Status::IOError("postgres: stat " + p.string() + ": " + std::strerror(errno));
    bool searchable = (st.st_uid == id.uid && (st.st_mode & S_IXUSR)) ||
                      (st.st_gid == id.gid && (st.st_mode & S_IXGRP)) || (st.st_mode & S_IXOTH);
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

Status Chown(const Identity& id, const fs::path& p) {
  if (!id.switch_user) return Status::Ok();
  if (chown(p.c_str(), id.uid, id.gid) != 0)
    return Status::IOError("postgres: chown " + p.string() + ": " + std::strerror(errno));
  return Status::Ok();
}

// A value of postgresql.conf: single-quoted, quotes doubled.
std::string ConfQuoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A value of a libpq connection string: single-quoted, backslash and quote escaped.
std::string ConninfoQuoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

// initdb's output, made once per process and copied into each new data directory: initdb takes most
// of a server's start-up time (half a second and more), a copy a few tens of milliseconds. The copy is
// the cluster initdb would make (same program, same options); it lives in the temporary directory and
// is removed at exit.
class TemplateCluster {
 public:
  static Status CopyTo(const Identity& id, const std::string& bindir, const fs::path& data) {
    static TemplateCluster instance;
    std::lock_guard<std::mutex> lock(instance.mu_);
    if (instance.path_.empty()) DBXB_RETURN_IF_ERROR(instance.Create(id, bindir));
    std::error_code ec;
    fs::copy(instance.path_ + "/data", data, fs::copy_options::recursive, ec);
    if (ec) return Status::IOError("postgres: copy the initdb template into " + data.string() + ": " + ec.message());
    if (!id.switch_user) return Status::Ok();
    DBXB_RETURN_IF_ERROR(Chown(id, data));
    for (const auto& entry : fs::recursive_directory_iterator(data, ec)) {
      if (lchown(entry.path().c_str(), id.uid, id.gid) != 0)
        return Status::IOError("postgres: chown " + entry.path().string() + ": " + std::strerror(errno));
    }
    if (ec) return Status::IOError("postgres: walk " + data.string() + ": " + ec.message());
    return Status::Ok();
  }

  ~TemplateCluster() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }

 private:
  Status Create(const Identity& id, const std::string& bindir) {
    std::error_code ec;
    std::string dir = (fs::temp_directory_path(ec) / "dbx-bench-pg-template-XXXXXX").string();
    if (ec || mkdtemp(dir.data()) == nullptr)
      return Status::IOError("postgres: cannot create a directory for the initdb template in the temporary directory");
    Status s = Chown(id, dir);
    if (s.ok()) s = CheckReachable(id, dir);
    const std::string log = dir + "/initdb.log";
    if (s.ok()) {
      Result<int> rc = RunProgram(id,
                                  {bindir + "/initdb", "-D", dir + "/data", "-U", kRole, "-A", "trust", "-E", "UTF8",
                                   "--locale=C", "--no-sync", "--no-instructions"},
                                  dir, log, 300);
      s = rc.status();
      if (rc.ok() && *rc != 0)
        s = Status::IOError("postgres: initdb failed (exit " + std::to_string(*rc) + "): " + LastLine(log));
    }
    if (!s.ok()) {
      fs::remove_all(dir, ec);
      return s;
    }
    path_ = dir;
    return Status::Ok();
  }

  std::mutex mu_;
  std::string path_;  // GUARDED_BY(mu_)
};

}  // namespace

std::string ServerProgramVersion() {
  const Result<std::string>& bindir = Bindir();
  if (!bindir.ok()) return "no PostgreSQL server found";
  std::string line = FirstLineOf(("'" + bindir.value() + "/postgres' --version 2>/dev/null").c_str());
  // "postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)"
  const std::string prefix = "postgres (PostgreSQL) ";
  if (line.rfind(prefix, 0) == 0) return "PostgreSQL " + line.substr(prefix.size()) + " server";
  return line.empty() ? "PostgreSQL server (version unknown)" : line;
}

Result<std::unique_ptr<Server>> Server::Start(const ServerConfig& config) {
  Result<Identity> id = ServerIdentity();
  if (!id.ok()) return id.status();
  const Result<std::string>& bindir = Bindir();
  if (!bindir.ok()) return bindir.status();

  std::error_code ec;
  const fs::path dir = fs::absolute(config.dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return Status::IOError("postgres: create directory " + dir.string() + ": " + ec.message());
  DBXB_RETURN_IF_ERROR(CheckReachable(*id, dir));
  DBXB_RETURN_IF_ERROR(Chown(*id, dir));
  const fs::path data = dir / "data";

  std::unique_ptr<Server> server(new Server());
  server->bindir_ = bindir.value();
  server->data_dir_ = data.string();
  server->log_path_ = (dir / "server.log").string();
  // The socket lives in the data directory, unless that path is too long for one: then in a private
  // directory of the temporary directory, removed with the server.
  server->socket_dir_ = data.string();
  if (data.string().size() + sizeof(kSocketName) - 1 > kMaxSocketPath || data.string().find(',') != std::string::npos) {
    std::string short_dir = (fs::temp_directory_path(ec) / "dbx-bench-pg-XXXXXX").string();
    if (ec || mkdtemp(short_dir.data()) == nullptr)
      return Status::IOError("postgres: cannot create a socket directory in the temporary directory");
    server->socket_dir_ = server->own_socket_dir_ = short_dir;
    DBXB_RETURN_IF_ERROR(Chown(*id, short_dir));
    DBXB_RETURN_IF_ERROR(CheckReachable(*id, short_dir));
  }
  server->conninfo_ = "host=" + ConninfoQuoted(server->socket_dir_) + " port=5432 dbname=postgres user=" + kRole +
                      " connect_timeout=" + std::to_string(std::max(config.start_timeout_seconds, 10));

  if (!fs::exists(data / "PG_VERSION", ec)) DBXB_RETURN_IF_ERROR(TemplateCluster::CopyTo(*id, server->bindir_, data));

  // postgresql.auto.conf is read after postgresql.conf: these settings win, and are rewritten every start.
  const fs::path auto_conf = data / "postgresql.auto.conf";
  {
    std::ofstream conf(auto_conf, std::ios::trunc);
    conf << "# Written by dbx-bench before every start of this server.\n";
    conf << "listen_addresses = ''\n";  // no TCP: the Unix socket below is the only way in
    conf << "unix_socket_directories = " << ConfQuoted(server->socket_dir_) << "\n";
    for (const auto& [key, value] : config.settings) conf << key << " = " << ConfQuoted(value) << "\n";
    if (!conf.flush()) return Status::IOError("postgres: cannot write " + auto_conf.string());
  }
  DBXB_RETURN_IF_ERROR(Chown(*id, auto_conf));

  const std::string pg_ctl_log = (dir / "pg_ctl.log").string();
  fs::remove(pg_ctl_log, ec);  // what it says below is about this start only
  Result<int> rc = RunProgram(*id,
                              {server->bindir_ + "/pg_ctl", "-D", data.string(), "-l", server->log_path_, "-w", "-t",
                               std::to_string(config.start_timeout_seconds), "-s", "start"},
                              dir.string(), pg_ctl_log, config.start_timeout_seconds + 30);
  if (rc.ok() && *rc == 0) {
    server->running_ = true;
    // The pid file's first line is the postmaster's pid; SIGQUIT is an immediate shutdown.
    std::ifstream pid_in(data / "postmaster.pid");
    if (pid_in >> server->postmaster_pid_ && server->postmaster_pid_ > 0)
      (void)AddToKillOnExitList(server->postmaster_pid_, SIGQUIT);
    return server;
  }
  // The server may be half-started (pg_ctl gave up waiting): stop whatever got as far as a pid file.
  // pg_ctl stop fails while that file is still being written, so it is retried.
  const fs::path pid_file = data / "postmaster.pid";
  // After "did not start in time" the server is still coming up and writes its pid file eventually;
  // after any other failure it exited, and a pid file that is not there within 2 s never will be.
  const bool timed_out = !rc.ok() || FileContains(pg_ctl_log, "did not start in time");
  const auto now = std::chrono::steady_clock::now();
  const auto appear_deadline = now + std::chrono::seconds(timed_out ? kStopTimeoutSeconds : 2);
  const auto deadline = now + std::chrono::seconds(kStopTimeoutSeconds);
  bool seen = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!fs::exists(pid_file, ec)) {
      if (seen) break;  // removed by the server as it stopped
      if (std::chrono::steady_clock::now() > appear_deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    seen = true;
    Result<int> stopped =
        RunProgram(*id, {server->bindir_ + "/pg_ctl", "-D", data.string(), "-m", "immediate", "-w", "-s", "stop"},
                   dir.string(), pg_ctl_log, kStopTimeoutSeconds);
    if (stopped.ok() && *stopped == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!rc.ok()) return rc.status();
  if (timed_out)
    return Status::IOError("postgres: the server in " + data.string() + " did not start within " +
                           std::to_string(config.start_timeout_seconds) + " s; its log: " + server->log_path_);
  return Status::IOError("postgres: the server in " + data.string() +
                         " failed to start; its log: " + server->log_path_ + ": " + LastLine(server->log_path_));
}

Server::~Server() {
  (void)Stop();
  std::error_code ec;
  if (!own_socket_dir_.empty()) fs::remove_all(own_socket_dir_, ec);
}

Status Server::Stop() {
  if (!running_) return Status::Ok();
  running_ = false;
  if (postmaster_pid_ > 0) RemoveFromKillOnExitList(postmaster_pid_);
  Result<Identity> id = ServerIdentity();
  if (!id.ok()) return id.status();
  const std::string dir = fs::path(data_dir_).parent_path().string();
  const std::string pg_ctl_log = dir + "/pg_ctl.log";
  Result<int> rc = RunProgram(*id,
                              {bindir_ + "/pg_ctl", "-D", data_dir_, "-m", "fast", "-w", "-t",
                               std::to_string(kStopTimeoutSeconds), "-s", "stop"},
                              dir, pg_ctl_log, kStopTimeoutSeconds + 30);
  if (rc.ok() && *rc == 0) return Status::Ok();
  // A fast shutdown that did not finish: end the server without a checkpoint rather than leave it.
  (void)RunProgram(*id, {bindir_ + "/pg_ctl", "-D", data_dir_, "-m", "immediate", "-w", "-s", "stop"}, dir, pg_ctl_log,
                   kStopTimeoutSeconds);
  if (!rc.ok()) return rc.status();
  return Status::IOError("postgres: pg_ctl stop -m fast failed for " + data_dir_ + "; see " + pg_ctl_log + ": " +
                         LastLine(pg_ctl_log));
}

}  // namespace dbxb::postgres_internal
