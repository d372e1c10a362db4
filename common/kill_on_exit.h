// Processes that must not outlive dbx-bench, such as the postgres adapter's private servers, for the
// one exit that skips every destructor: the second Ctrl-C (harness/signal_handlers.h). Normal exits, a first
// Ctrl-C and failed runs stop such processes through their owners' Close; this list signals them at once
// on the second Ctrl-C, and their orphan guards (common/orphan_guard.h) cover every other end, SIGKILL
// included.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <csignal>

namespace dbxb {

namespace internal {
inline constexpr int kKillOnExitSlots = 64;
inline std::atomic<pid_t> g_kill_on_exit_pids[kKillOnExitSlots];
inline std::atomic<int> g_kill_on_exit_signals[kKillOnExitSlots];
}  // namespace internal

/// Adds `pid`, to be sent `sig` by KillProcessesOnExitList. Returns false when the list is full.
/// Thread-safe.
inline bool AddToKillOnExitList(pid_t pid, int sig) {
  for (int i = 0; i < internal::kKillOnExitSlots; ++i) {
    pid_t empty = 0;
    if (!internal::g_kill_on_exit_pids[i].compare_exchange_strong(empty, pid)) continue;
    internal::g_kill_on_exit_signals[i].store(sig);  // until then the slot's signal is 0: no effect
    return true;
  }
  return false;
}

/// Removes `pid` (its owner stopped it). Thread-safe.
inline void RemoveFromKillOnExitList(pid_t pid) {
  for (int i = 0; i < internal::kKillOnExitSlots; ++i) {
    if (internal::g_kill_on_exit_pids[i].load() != pid) continue;
    internal::g_kill_on_exit_signals[i].store(0);
    internal::g_kill_on_exit_pids[i].store(0);
    return;
  }
}

/// Sends every listed process its signal. Async-signal-safe (lock-free atomics and kill only).
inline void KillProcessesOnExitList() {
  for (int i = 0; i < internal::kKillOnExitSlots; ++i) {
    pid_t pid = internal::g_kill_on_exit_pids[i].load();
    if (pid > 0) kill(pid, internal::g_kill_on_exit_signals[i].load());
  }
}

}  // namespace dbxb
