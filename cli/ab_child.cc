#include "cli/ab_child.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "harness/signal_handlers.h"

extern char** environ;

namespace dbxb {
namespace {

using Clock = std::chrono::steady_clock;

// The running child's process group (0: none), for the second signal's handler.
std::atomic<pid_t> g_child_group{0};

constexpr double kInterruptGraceSeconds = 10;  // a dbx-bench child writes what finished and cleans up
constexpr double kTimeoutGraceSeconds = 5;

// The second Ctrl-C (harness/signal_handlers.h): the running round dies with ab.
void KillRunningRound() {
  const pid_t group = g_child_group.load();
  if (group > 0) kill(-group, SIGKILL);
}

// In the child, between fork and exec: only async-signal-safe calls. Reports a failed exec's errno
// through `report` (closed on a successful exec).
[[noreturn]] void ExecChild(char* const* argv, const char* log, int report, pid_t parent) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);  // ab died before the death signal was armed
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  const int in = open("/dev/null", O_RDONLY);
  const int out = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (in < 0 || out < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0) {
    const int err = errno;
    ssize_t ignored = write(report, &err, sizeof err);
    (void)ignored;
    _exit(127);
  }
  execve(argv[0], argv, environ);
  const int err = errno;
  ssize_t ignored = write(report, &err, sizeof err);
  (void)ignored;
  _exit(127);
}

// Sends `sig` to the group, then waits up to `grace` seconds for the child; SIGKILL after that.
int StopGroup(pid_t pid, int sig, double grace) {
  kill(-pid, sig);
  int status = 0;
  const auto deadline = Clock::now() + std::chrono::duration<double>(grace);
  while (Clock::now() < deadline) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(-pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Waits for the child: its exit status, or stops it on a timeout or an interrupt.
int Wait(pid_t pid, double timeout_seconds, ChildExit* result) {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return 0;
    if (InterruptRequested()) {
      result->interrupted = true;
      return StopGroup(pid, SIGINT, kInterruptGraceSeconds);
    }
    if (Clock::now() >= deadline) {
      result->timed_out = true;
      return StopGroup(pid, SIGTERM, kTimeoutGraceSeconds);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

std::string ChildExit::Describe() const {
  if (!spawn_error.empty()) return "could not be started: " + spawn_error;
  if (timed_out) return fmt::format("did not finish within {:.0f} s and was killed", timeout_seconds);
  if (term_signal != 0) return fmt::format("was killed by signal {} ({})", term_signal, strsignal(term_signal));
  return fmt::format("exited with status {}", exit_code);
}

ChildExit RunChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log,
                          double timeout_seconds) {
  ChildExit result;
  result.timeout_seconds = timeout_seconds;
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    result.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  const std::string log_path = log.string();
  const auto start = Clock::now();
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) ExecChild(cargv.data(), log_path.c_str(), report[1], parent);
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    result.spawn_error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  setpgid(pid, pid);  // also here, so that the group exists before any signal is sent to it
  g_child_group.store(pid);
  int err = 0;
  const bool exec_failed = read(report[0], &err, sizeof err) == static_cast<ssize_t>(sizeof err);
  close(report[0]);
  const int status = Wait(pid, timeout_seconds, &result);
  kill(-pid, SIGKILL);  // whatever the child left running in its group
  g_child_group.store(0);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (exec_failed) {
    result.spawn_error = std::strerror(err);
    return result;
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

void InstallAbSignalHandlers() { SetSecondInterruptHook(&KillRunningRound); }

}  // namespace dbxb
