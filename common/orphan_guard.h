// What this process made must not outlive it, however it ends — SIGKILL, a closed terminal, a broken
// pipe, a second Ctrl-C: a watcher process per guard (a small /bin/sh script, started with Spawn) waits
// on a pipe whose write end only this process holds. The kernel closes that end when this process ends;
// if it was not told "done" before, the watcher stops the process it was asked to watch (a database
// server) and removes the guarded paths.
//
// The watcher runs as this process's user, in a process group of its own, ignoring the signals a
// terminal or a shell sends a job, with /dev/null as its stdin, stdout and stderr.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

namespace dbxb {

class OrphanGuard {
 public:
  /// Starts a watcher that removes `paths` (recursively) if this process ends before Dismiss.
  /// `process_cwd`: the working directory of a process Watch will name (a PostgreSQL postmaster works in
  /// its data directory); the watcher signals that process only while it still works there, so a pid the
  /// system gave to another process meanwhile is left alone. IOError when the watcher cannot start.
  static Result<std::unique_ptr<OrphanGuard>> Start(std::vector<std::string> paths, std::string process_cwd = "");

  OrphanGuard(const OrphanGuard&) = delete;
  OrphanGuard& operator=(const OrphanGuard&) = delete;
  /// Dismisses the guard.
  ~OrphanGuard();

  /// If this process ends before Dismiss, the watcher sends `pid` SIGQUIT (PostgreSQL's immediate
  /// shutdown), waits up to 5 s for it to end, then SIGKILLs it, before removing the paths.
  /// REQUIRES: Start was given the process's working directory.
  Status Watch(pid_t pid);

  /// Adds `path` to those removed if this process ends before Dismiss. Start the guard before making
  /// what it guards, then Add it: a kill in between leaves nothing a slow watcher start could miss.
  /// InvalidArgument for a path with a newline (the watcher reads lines); IOError when the watcher is gone.
  Status Add(const std::string& path);

  /// The normal end: the watcher exits without touching anything, and is reaped. Idempotent.
  void Dismiss();

  /// The watcher's pid (tests).
  pid_t watcher() const { return watcher_; }

 private:
  OrphanGuard(int write_fd, pid_t watcher) : write_fd_(write_fd), watcher_(watcher) {}

  int write_fd_;
  pid_t watcher_;
};

}  // namespace dbxb
