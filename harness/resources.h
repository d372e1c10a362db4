// What the process spent: CPU, memory, block and character I/O, sync calls. Read at sample and phase
// boundaries only, never per operation; a sync call costs the measured loop one relaxed atomic
// increment (harness/sync_interpose.cc) and nothing else here touches it.
#pragma once

#include <cstdint>
#include <optional>

#include "records/resource_usage.h"
#include "workloads/write_tally.h"

namespace dbxb {

/// Process-wide counters at one instant (cumulative since the process started, except anon_rss_bytes
/// and max_rss_bytes, which are the current RssAnon and the peak VmHWM).
struct ResourceSnapshot {
  uint64_t cpu_user_ns = 0;
  uint64_t cpu_sys_ns = 0;
  uint64_t io_read_bytes = 0;
  uint64_t io_write_bytes = 0;
  uint64_t rchar = 0;
  uint64_t wchar = 0;
  uint64_t max_rss_bytes = 0;
  uint64_t anon_rss_bytes = 0;
  std::optional<uint64_t> sync_calls;  ///< nullopt when this executable does not count them
};

/// Reads getrusage(RUSAGE_SELF), /proc/self/io and /proc/self/status. A counter the system does not
/// offer reads 0. Thread-safe.
ResourceSnapshot ReadResourceSnapshot();

/// The sync calls counted so far by harness/sync_interpose.cc, or nullopt when it is not linked into
/// this executable. Thread-safe.
std::optional<uint64_t> CountedSyncCalls();

/// Resets the kernel's peak-RSS mark of this process (writes 5 to /proc/self/clear_refs), so that a
/// later snapshot's max_rss_bytes is the peak since now. False when the kernel does not allow it.
bool ResetPeakRss();

/// The figures of ResourceUsage from counter differences (`spent`: end minus start, except the RSS
/// fields, which are taken as they are) and what the workload reports. Ratios whose denominator is 0
/// (or whose counts are absent) are left absent.
ResourceUsage MakeResourceUsage(const ResourceSnapshot& spent, bool peak_since_span_start, uint64_t operations,
                                const WriteTally& written, uint64_t disk_bytes, uint64_t live_logical_bytes);

/// Sets disk_bytes and live_logical_bytes of *usage, and its space amplification from them.
void SetSpace(uint64_t disk_bytes, uint64_t live_logical_bytes, ResourceUsage* usage);

/// Measures one span made of one or more stretches: a benchmark's measured samples, or a phase's
/// measured part. Not thread-safe; one meter per span.
class ResourceMeter {
 public:
  /// Starts the span: resets the peak-RSS mark and the accumulated differences.
  void BeginSpan();
  /// Start and end of one stretch; the counters accumulate end minus start over the stretches.
  /// REQUIRES: BeginSpan() was called; StopStretch() follows each StartStretch().
  void StartStretch();
  void StopStretch();
  /// The usage over the stretches so far; RSS as read at the last StopStretch().
  ResourceUsage Finish(uint64_t operations, const WriteTally& written, uint64_t disk_bytes,
                       uint64_t live_logical_bytes) const;

 private:
  ResourceSnapshot spent_;
  ResourceSnapshot at_start_;
  bool peak_reset_ = false;
};

}  // namespace dbxb
