#include "common/spawn.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

namespace dbxb {
namespace {

std::mutex g_reaped_mu;
ProcessUsage g_reaped;  // GUARDED_BY(g_reaped_mu)

// What the child does between fork and exec: async-signal-safe calls only.
[[noreturn]] void ExecChild(const SpawnOptions& o, char* const* argv, char* const* env, int out, int devnull,
                            pid_t parent) {
  setpgid(0, 0);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &dfl, nullptr);  // SIG_IGN survives exec otherwise
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // The parent may have ended before the request: the child is then already another process's.
  if (o.parent_death_signal != 0 && (prctl(PR_SET_PDEATHSIG, o.parent_death_signal) != 0 || getppid() != parent))
    _exit(126);
  // 0..2, then fd3 as 3 (its close-on-exec flag cleared), then every other descriptor closed.
  if (!o.inherit_stdio) {
    if (devnull >= 0 && dup2(devnull, STDIN_FILENO) < 0) _exit(126);
    if (dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0) _exit(126);
  }
  if (o.fd3 >= 0 && ((o.fd3 != 3 && dup2(o.fd3, 3) < 0) || fcntl(3, F_SETFD, 0) < 0)) _exit(126);
  const int keep = o.fd3 >= 0 ? 3 : 2;
  if (close_range(static_cast<unsigned>(keep) + 1, ~0u, 0) != 0) {
    for (int fd = keep + 1; fd < 1024; ++fd) close(fd);
  }
  if (o.user && (setgroups(0, nullptr) != 0 || setgid(o.user->second) != 0 || setuid(o.user->first) != 0)) _exit(126);
  if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) _exit(126);
  execve(argv[0], argv, env);
  _exit(127);
}

}  // namespace

Result<pid_t> Spawn(const SpawnOptions& o) {
  if (o.argv.empty()) return Status::InvalidArgument("Spawn: no program");
  std::vector<char*> argv, env;
  for (const std::string& a : o.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : o.env) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  const char* out_path = o.output_file.empty() || o.inherit_stdio ? "/dev/null" : o.output_file.c_str();
  int out = open(out_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return Status::IOError(std::string("cannot open ") + out_path + ": " + std::strerror(errno));
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) ExecChild(o, argv.data(), env.data(), out, devnull, parent);
  const int fork_errno = errno;
  close(out);
  if (devnull >= 0) close(devnull);
  if (pid < 0) return Status::IOError(std::string("fork: ") + std::strerror(fork_errno));
  setpgid(pid, pid);  // also here, so that the group exists before this returns
  return pid;
}

Result<std::optional<ChildExit>> WaitChild(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (auto pause = std::chrono::microseconds(100);; pause = std::min(pause * 2, std::chrono::microseconds(10000))) {
    siginfo_t info{};
    // WNOWAIT: the child stays a zombie, so its final /proc figures can still be read.
    if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      return Status::IOError("waitid " + std::to_string(pid) + ": " + std::strerror(errno));
    }
    if (info.si_pid == pid) break;
    if (std::chrono::steady_clock::now() >= deadline) return std::optional<ChildExit>();
    std::this_thread::sleep_for(pause);
  }
  ChildExit exit;
  exit.usage = ReadProcessUsage(pid, true).value_or(ProcessUsage{});
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  exit.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  std::lock_guard<std::mutex> lock(g_reaped_mu);
  g_reaped += exit.usage;
  return std::optional<ChildExit>(exit);
}

ChildExit StopChild(pid_t pid, int signal, std::chrono::milliseconds grace) {
  kill(pid, signal);
  Result<std::optional<ChildExit>> ended = WaitChild(pid, grace);
  if (ended.ok() && ended->has_value()) return **ended;
  kill(pid, SIGKILL);
  ended = WaitChild(pid, std::chrono::hours(1));
  return ended.ok() && ended->has_value() ? **ended : ChildExit{128 + SIGKILL, {}};
}

ProcessUsage ReapedChildrenUsage() {
  std::lock_guard<std::mutex> lock(g_reaped_mu);
  return g_reaped;
}

}  // namespace dbxb
