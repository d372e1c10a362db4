// The phases of the sqlite-vps suite (workloads/phase.h), on RowSessions (adapters/row_session.h): the
// engine's native tables where it has them (SQLite), else the key/value mapping of workloads/row_store.h.
// Every worker opens its own RowSession; every read is verified against VpsRows (vps_data.h).
//
// One operation of each phase:
//   bulk-insert        inserts the next row (ids 1..N in order, version 0); a transaction is begun before
//                      the first row of each batch and committed by the operation that inserts its last,
//                      so that operation's time holds the commit. Finish commits a partial batch.
//   select-pk          GetById of a uniformly random id in [1, loaded], verified.
//   range-scan         RangeByIndexA(lo, L) for a uniformly random lo in [0, loaded - L]: exactly L rows with
//                      a = lo, lo+1, ..., each row verified.
//   update             UpdateRow of a uniformly random id to version 1: new b (the index entry on b moves)
//                      and a new payload, one transaction.
//   mixed-oltp         70 % select-pk, 25 % update to version 2, 5 % insert of a new row (ids from a counter
//                      shared by the threads, above every loaded id), each its own transaction.
//   concurrent-reads   select-pk.
//   concurrent-writes  update to version 3.
// Reads and updates choose among the loaded rows [1, loaded]; rows inserted by mixed-oltp are checked
// after the phase. Concurrent updates of one row within a phase always write the same values.
//
// After each phase (TearDown, untimed): write phases check the row count (= the highest id handed out)
// and read back a sample of the rows each thread wrote last (up to 64 per thread and kind), checking
// they hold that phase's version; bulk-insert also reads back 64 rows spread over the table.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "adapters/adapter.h"
#include "common/status.h"
#include "workloads/phase.h"
#include "workloads/sqlite_vps/vps_data.h"

namespace dbxb {

/// State the phases of one sequence share. Owned by the sequence, which outlives its phases.
struct VpsShared {
  Adapter* adapter = nullptr;
  const VpsRows* rows = nullptr;
  uint64_t seed = 1;
  uint64_t batch_rows = 1000;
  uint64_t range_length = 10;
  /// Ids 1..loaded exist: set by bulk-insert's TearDown (or the sequence's untimed load).
  uint64_t loaded = 0;
  /// The id the next insert takes (every id below it exists once its insert committed).
  std::atomic<int64_t> next_id{1};
};

/// The update phases' row versions (0 = as inserted).
constexpr uint32_t kVpsUpdateVersion = 1;
constexpr uint32_t kVpsMixedVersion = 2;
constexpr uint32_t kVpsConcurrentWriteVersion = 3;

/// The phase named spec.name (one of VpsPhaseNames()). InvalidArgument for another name.
/// The logical bytes of one row: id, a and b (8 bytes each) and the payload.
inline uint64_t VpsRowLogicalBytes(const VpsRows& rows) { return 3 * sizeof(int64_t) + rows.payload_bytes(); }

Result<std::unique_ptr<Phase>> MakeVpsPhase(const PhaseSpec& spec, VpsShared* shared);

/// Inserts rows shared->next_id .. records in transactions of shared->batch_rows (untimed: used when
/// bulk-insert is not among the phases run), then sets loaded and next_id.
Status LoadVpsRows(VpsShared* shared);

}  // namespace dbxb
