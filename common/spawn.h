// Child processes the tool starts and waits for: one way to start a program (without a shell, with a
// chosen environment, user and descriptors) and one way to wait for it that keeps its final costs apart.
//
// A child's I/O lands in this process's /proc/self/io when it is reaped (the kernel adds it to its
// parent's counters), so WaitChild reads the child's final figures before reaping it and keeps their
// sum (ReapedChildrenUsage): the tool's own figures are /proc/self/io minus that.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/process_usage.h"
#include "common/status.h"

namespace dbxb {

struct SpawnOptions {
  /// argv[0] is the program's path (no PATH search).
  std::vector<std::string> argv;
  /// The whole environment, "KEY=VALUE" each.
  std::vector<std::string> env;
  /// The working directory; empty = this process's.
  std::string cwd;
  /// stdout and stderr are appended to this file (created 0644); empty = /dev/null. stdin is /dev/null.
  std::string output_file;
  /// Keep this process's stdin, stdout and stderr instead (output_file is then unused).
  bool inherit_stdio = false;
  /// Passed to the child as its descriptor 3 (e.g. a pipe's read end); -1 = none. No other descriptor
  /// of this process is inherited.
  int fd3 = -1;
  /// Run as this user and group (this process must be root); nullopt = as this process.
  std::optional<std::pair<uid_t, gid_t>> user;
  /// The signal the child gets when the thread that started it ends (PR_SET_PDEATHSIG); 0 = none. A
  /// parent that ended before the child could ask for it is found too: the child then exits 126 unstarted.
  int parent_death_signal = 0;
};

/// Starts the program in a process group of its own (a Ctrl-C at the terminal reaches only this
/// process) with every signal disposition at its default. Only async-signal-safe calls run between fork
/// and exec, so any thread may call it. IOError when the process cannot be started; a program that
/// cannot be executed exits 127 (126 when the user, the group or the directory cannot be set).
Result<pid_t> Spawn(const SpawnOptions& options);

/// How a child ended: its exit code, or 128 + the signal that killed it.
struct ChildExit {
  int code = 0;
  ProcessUsage usage;  ///< its CPU and I/O with every child it reaped, read just before it was reaped
};

/// Waits up to `timeout` for the child `pid` to end, then reaps it. nullopt when it still runs at the
/// deadline (it is not killed); IOError when `pid` is not a child of this process.
Result<std::optional<ChildExit>> WaitChild(pid_t pid, std::chrono::milliseconds timeout);

/// Sends `signal` to the child and waits up to `grace` for it to end; then SIGKILLs it and waits for
/// that. Returns how it ended. REQUIRES: `pid` is a child of this process that nothing else reaps.
ChildExit StopChild(pid_t pid, int signal, std::chrono::milliseconds grace);

/// The sum of the final figures of every child WaitChild has reaped so far. Thread-safe.
ProcessUsage ReapedChildrenUsage();

}  // namespace dbxb
