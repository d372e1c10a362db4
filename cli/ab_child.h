// One run of one side of an `ab` round: a child process that cannot outlive ab and cannot hang it.
//
// The child runs in its own process group with stdin from /dev/null and stdout and stderr appended to a
// log file. ab waits for it with a timeout. On the timeout, on a first Ctrl-C or SIGTERM to ab (which
// the child, in its own group, does not receive from the terminal), ab signals the child's whole group
// (SIGINT or SIGTERM first, so that a dbx-bench removes its temporary databases, then SIGKILL after a
// grace period) and reaps it; after the child exits, whatever it left in its group is killed too. A
// second signal to ab kills the group at once and exits 130. If ab itself is killed, the kernel sends
// the child SIGTERM (PR_SET_PDEATHSIG).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dbxb {

/// How a child run ended.
struct ChildExit {
  int exit_code = -1;   ///< -1 when it did not exit normally
  int term_signal = 0;  ///< the signal that ended it
  bool timed_out = false;
  bool interrupted = false;  ///< ab was asked to stop (Ctrl-C, SIGTERM) while it ran
  std::string spawn_error;   ///< it could not be started (exec failed: the reason)
  double seconds = 0;
  double timeout_seconds = 0;  ///< the limit it ran under

  bool ok() const { return spawn_error.empty() && exit_code == 0 && !timed_out && !interrupted; }
  /// "exited with status 1", "was killed by signal 9 (Killed)", "did not finish within 60 s and was
  /// killed", "could not be started: No such file or directory".
  std::string Describe() const;
};

/// Runs `argv` (argv[0] the executable's path) as described above and waits for it, at most
/// `timeout_seconds` (> 0). Thread-compatible; one child at a time.
ChildExit RunChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& log,
                          double timeout_seconds);

/// Makes the second SIGINT/SIGTERM (harness/signal_handlers.h, installed by main) kill the running child's
/// process group before ab exits 130; the first only asks to stop (InterruptRequested()).
void InstallAbSignalHandlers();

}  // namespace dbxb
