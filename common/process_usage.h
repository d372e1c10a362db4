// What other processes have spent, read from /proc: CPU, I/O and proportional memory of a process and
// of the children it has reaped. Used to count the costs of servers the tool starts (a PostgreSQL
// postmaster and its backends), which its own getrusage(RUSAGE_SELF) cannot see.
//
// The kernel adds a child's CPU (cutime/cstime in /proc/<pid>/stat) and its I/O (/proc/<pid>/io) to its
// parent's counters when the parent reaps it, so a process's figures with its reaped children include
// every process it ever started and reaped: processes that came and went are counted.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace dbxb {

/// Cumulative CPU and I/O of one or more processes.
struct ProcessUsage {
  uint64_t cpu_user_ns = 0;
  uint64_t cpu_sys_ns = 0;
  uint64_t io_read_bytes = 0;   ///< read_bytes: fetched from the block layer
  uint64_t io_write_bytes = 0;  ///< write_bytes: sent (or dirtied for sending) to the block layer
  uint64_t rchar = 0;
  uint64_t wchar = 0;

  ProcessUsage& operator+=(const ProcessUsage& o);
  friend bool operator==(const ProcessUsage&, const ProcessUsage&) = default;
};

/// Each field of `a` minus that of `b`, 0 where b is larger (a counter that went backwards).
ProcessUsage Minus(const ProcessUsage& a, const ProcessUsage& b);

/// `pid`'s own CPU and I/O, plus those of the children it reaped when `with_reaped_children`. Readable
/// for a zombie too (its final figures). nullopt when the process is gone or its /proc files cannot be
/// read (another user's process without the right to trace it). CPU has the kernel's tick resolution
/// (sysconf(_SC_CLK_TCK), 10 ms on Linux).
std::optional<ProcessUsage> ReadProcessUsage(pid_t pid, bool with_reaped_children);

/// Proportional set size of `pid` (Pss of /proc/<pid>/smaps_rollup): each shared page divided among the
/// processes that map it, so shared memory summed over processes counts once. 0 when unreadable.
uint64_t ReadPssBytes(pid_t pid);

/// The live children of `pid` (from /proc/<pid>/task/*/children, else by scanning /proc). Empty when
/// `pid` is gone.
std::vector<pid_t> ChildrenOf(pid_t pid);

/// The start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), which with the pid
/// names one process for its whole life; nullopt when it does not exist.
std::optional<uint64_t> ProcessStartTime(pid_t pid);

}  // namespace dbxb
