// What the process spent: CPU, memory, block and character I/O, sync calls. Read at sample and phase
// boundaries only, never per operation; a sync call costs the measured loop one relaxed atomic
// increment (harness/sync_interpose.cc) and nothing else here touches it.
#pragma once

#include <cstdint>
#include <optional>

#include "common/server_usage.h"
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
/// offer reads 0. The I/O of the children this process reaped, which the kernel adds to /proc/self/io, is
/// taken out (common/spawn.h: a stopped server's I/O is the server's). Thread-safe.
ResourceSnapshot ReadResourceSnapshot();

/// The sync calls counted so far by harness/sync_interpose.cc, or nullopt when it is not linked into
/// this executable. Thread-safe.
std::optional<uint64_t> CountedSyncCalls();

/// Resets the kernel's peak-RSS mark of this process (writes 5 to /proc/self/clear_refs), so that a
/// later snapshot's max_rss_bytes is the peak since now. False when the kernel does not allow it.
bool ResetPeakRss();

/// The figures of ResourceUsage from counter differences (`spent`: end minus start, except the RSS
/// fields, which are taken as they are), what the engine's server spent (if it runs one: added to the
/// totals and kept as ResourceUsage::server) and what the workload reports. Ratios whose denominator is 0
/// (or whose counts are absent) are left absent; the total sync count is absent unless both are counted.
ResourceUsage MakeResourceUsage(const ResourceSnapshot& spent, bool peak_since_span_start, uint64_t operations,
                                const WriteTally& written, uint64_t disk_bytes, uint64_t live_logical_bytes,
                                const std::optional<ServerResourceUsage>& server = std::nullopt);

/// Sets disk_bytes and live_logical_bytes of *usage, and its space amplification from them.
void SetSpace(uint64_t disk_bytes, uint64_t live_logical_bytes, ResourceUsage* usage);

/// What the servers this process runs spent between two readings of ReadServerTotals (the second with
/// PSS): nullopt when no server ran at either reading or started in between. The sync count is absent
/// when a server's was not counted at either reading or one stopped uncounted in between, the WAL when
/// either reading lacks it.
std::optional<ServerResourceUsage> ServerSpent(const ServerTotals& start, const ServerTotals& end);

/// Measures one span made of one or more stretches: a benchmark's measured samples, or a phase's
/// measured part, with the servers the engine runs (common/server_usage.h; read outside the stretches of
/// this process's own counters, so that reading /proc is not counted as the engine's). A span has server
/// figures when a server ran at one of its boundaries or started within it. Not thread-safe; one meter
/// per span.
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
  /// The counters accumulated over the stretches so far.
  const ResourceSnapshot& spent() const { return spent_; }

 private:
  void AddServerStretch(const ServerTotals& end);

  ResourceSnapshot spent_;
  ResourceSnapshot at_start_;
  bool peak_reset_ = false;
  ServerTotals servers_at_start_;
  std::optional<ServerResourceUsage> server_spent_;
};

}  // namespace dbxb
