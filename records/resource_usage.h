// What an engine spent over one benchmark (its measured samples) or one phase (its measured part):
// the `resources` object of results.json (docs/results-schema.md). Filled by harness/resources.h;
// reporters only read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace dbxb {

struct ResourceUsage {
  uint64_t operations = 0;   ///< operations the per-operation figures divide by (rows for dbx-micro)
  uint64_t cpu_user_ns = 0;  ///< user CPU of the whole process (engine background threads included)
  uint64_t cpu_sys_ns = 0;   ///< system CPU of the whole process
  double cpu_ns_per_op = 0;  ///< (user + system) / operations
  /// Peak resident set (VmHWM) since the span began when the kernel let the mark be reset
  /// (max_rss_scope "span"), else since the process started ("process").
  uint64_t max_rss_bytes = 0;
  std::string max_rss_scope;
  uint64_t anon_rss_bytes = 0;  ///< anonymous resident memory (RssAnon) at the end: heap, not mapped files
  uint64_t io_read_bytes = 0;   ///< /proc/self/io read_bytes: fetched from the block layer
  uint64_t io_write_bytes = 0;  ///< /proc/self/io write_bytes: sent (or dirtied for sending) to the block layer
  uint64_t rchar = 0;           ///< bytes asked of read-like system calls
  uint64_t wchar = 0;           ///< bytes handed to write-like system calls
  /// fsync + fdatasync + msync(MS_SYNC) + sync_file_range with a wait flag; absent when the executable
  /// does not count them (harness/sync_interpose.cc not linked).
  std::optional<uint64_t> fsync_calls;
  uint64_t commits = 0;                     ///< acknowledged write transactions (batches, or single writes outside one)
  std::optional<double> fsyncs_per_commit;  ///< fsync_calls / commits; absent without commits or counts
  double io_write_bytes_per_op = 0;         ///< io_write_bytes / operations
  uint64_t disk_bytes = 0;                  ///< allocated size of the database's files at the end of the span
  uint64_t logical_bytes = 0;               ///< key + value bytes the workload wrote in the span
  uint64_t live_logical_bytes = 0;          ///< key + value bytes of the live data at the end (0 = not known)
  std::optional<double> write_amplification;  ///< io_write_bytes / logical_bytes (absent: nothing written)
  std::optional<double> space_amplification;  ///< disk_bytes / live_logical_bytes (absent: not known)

  friend bool operator==(const ResourceUsage&, const ResourceUsage&) = default;
};

}  // namespace dbxb
