// The costs of the database servers this process started (a PostgreSQL postmaster and its backends),
// for the resource meters (harness/resources.h): a server registers a probe while it runs and leaves its
// final figures when it stops, so that a span of measurement sees every server that ran in it, also one
// that started and stopped inside it.
#pragma once

#include <cstdint>
#include <optional>

#include "common/process_usage.h"

namespace dbxb {

/// What one server has spent since it started (cumulative), or all servers together.
struct ServerUsage {
  ProcessUsage processes;              ///< CPU and I/O of every process of the server, ended ones included
  uint64_t pss_bytes = 0;              ///< proportional memory of its live processes now (0 when not read)
  std::optional<uint64_t> sync_calls;  ///< sync calls counted in its processes; nullopt = not counted
  std::optional<uint64_t> wal_bytes;   ///< log (WAL) bytes it generated; nullopt = not known
};

/// Reads a running server's figures. Implemented by the server's owner; called from any thread.
class ServerProbe {
 public:
  virtual ~ServerProbe() = default;
  /// Cumulative figures since the server started; PSS only when `with_pss` (reading it walks the page
  /// tables of every process).
  virtual ServerUsage Read(bool with_pss) = 0;
};

/// Every server's figures at one instant.
struct ServerTotals {
  ServerUsage usage;               ///< running servers (read now) plus stopped ones (their final figures)
  uint64_t servers_started = 0;    ///< servers registered so far
  uint32_t running = 0;            ///< servers running now
  uint32_t uncounted_running = 0;  ///< running servers whose sync calls are not counted
  uint64_t uncounted_stopped = 0;  ///< stopped servers whose sync calls were not counted
};

/// Registers a running server. REQUIRES: `probe` stays valid until RetireServer. Thread-safe.
void RegisterServer(ServerProbe* probe);
/// The server stopped: its probe is dropped and `final_usage` (with pss_bytes 0) kept. Thread-safe.
void RetireServer(ServerProbe* probe, const ServerUsage& final_usage);
/// The figures of every server this process registered. Thread-safe.
ServerTotals ReadServerTotals(bool with_pss);

}  // namespace dbxb
