#include "common/orphan_guard.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/spawn.h"

namespace dbxb {
namespace {

// $1: the watched process's working directory ("" = none); $2...: the paths. Reads lines on fd 3:
// "watch <pid>", "remove <path>" (one more path) and "done". At end of file without "done", this process is gone: stop
// the watched process while it still works in $1 (readlink fails once it has exited), then remove the paths (again for
// up to 10 s while files appear in them, as a server another guard is stopping may still write).
constexpr char kWatcherScript[] = R"sh(
trap '' HUP INT QUIT TERM PIPE USR1 USR2 ALRM
cwd=$1
shift
pid=
while IFS= read -r line <&3; do
  case $line in
    done) exit 0 ;;
    "watch "*) pid=${line#watch } ;;
    "remove "*) set -- "$@" "${line#remove }" ;;
  esac
done
alive() { [ -n "$pid" ] && [ -n "$cwd" ] && [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$cwd" ]; }
if alive; then
  kill -QUIT "$pid" 2>/dev/null
  n=0
  while alive && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  alive && kill -KILL "$pid" 2>/dev/null
fi
for p in "$@"; do
  n=0
  while [ -e "$p" ] && [ "$n" -lt 20 ]; do rm -rf -- "$p" 2>/dev/null || sleep 0.5; n=$((n + 1)); done
done
)sh";

bool WriteLine(int fd, const std::string& line) {
  const std::string text = line + "\n";
  for (size_t done = 0; done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Result<std::unique_ptr<OrphanGuard>> OrphanGuard::Start(std::vector<std::string> paths, std::string process_cwd) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Status::IOError(std::string("orphan guard: pipe: ") + std::strerror(errno));
  SpawnOptions o;
  o.argv = {"/bin/sh", "-c", kWatcherScript, "dbx-bench-orphan-guard", std::move(process_cwd)};
  for (std::string& p : paths) o.argv.push_back(std::move(p));
  o.env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  o.cwd = "/";
  o.fd3 = fds[0];
  Result<pid_t> pid = Spawn(o);
  close(fds[0]);
  if (!pid.ok()) {
    close(fds[1]);
    return pid.status().WithContext("orphan guard");
  }
  return std::unique_ptr<OrphanGuard>(new OrphanGuard(fds[1], *pid));
}

OrphanGuard::~OrphanGuard() { Dismiss(); }

Status OrphanGuard::Watch(pid_t pid) {
  if (write_fd_ < 0 || !WriteLine(write_fd_, "watch " + std::to_string(pid)))
    return Status::IOError("orphan guard: the watcher is gone");
  return Status::Ok();
}

Status OrphanGuard::Add(const std::string& path) {
  if (path.empty() || path.find('\n') != std::string::npos)
    return Status::InvalidArgument("orphan guard: a path the watcher cannot be told: " + path);
  if (write_fd_ < 0 || !WriteLine(write_fd_, "remove " + path))
    return Status::IOError("orphan guard: the watcher is gone");
  return Status::Ok();
}

void OrphanGuard::Dismiss() {
  if (write_fd_ < 0) return;
  (void)WriteLine(write_fd_, "done");
  close(write_fd_);
  write_fd_ = -1;
  // It exits at once on "done"; a watcher that does not is stopped rather than left behind.
  (void)StopChild(watcher_, 0, std::chrono::seconds(5));
}

}  // namespace dbxb
