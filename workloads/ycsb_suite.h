// The ycsb suite: a YCSB CoreWorkload file (workloads/ycsb_workload.h) run on any engine's key/value
// Session, as YCSB-cpp runs it, in two phases (workloads/phase.h) on one database:
//
//   load  inserts the records [insertstart, insertstart + insertcount) in write batches of
//         PhaseSuiteOptions::load_batch rows (one operation = one batch, op type "insert-batch"; a
//         batch of 1 is a plain Put, op type "insert"). Threads take batches from a shared counter.
//         Closed loop, no warm-up, never bounded by time. Checked at the end with Session::Count.
//   run   operationcount operations (or --operations, or as many as --duration allows), each chosen by
//         the workload's proportions, with the workload's request distribution:
//           read               Get; the record must exist and decode (below)
//           update             writeallfields=true: Put of a whole new record; otherwise Get, verify,
//                              replace one random field, Put (a key/value store has no partial update)
//           insert             Put of a new record under the next key number of a sequence shared by
//                              all threads, then acknowledged (see below)
//           scan               Scan(start key, length), length from scanlengthdistribution in
//                              [minscanlength, maxscanlength]; the first row must be the start key,
//                              every row must decode
//           read-modify-write  Get, verify, replace one field (all with writeallfields), Put
//         Only the operation types with a non-zero proportion are reported.
//
// Keys and values: workloads/ycsb_records.h. Every record read is verified: a missing key is
// Corruption; the value must hold fieldcount fields of allowed lengths; with dataintegrity=true every
// byte is compared with YCSB's deterministic value (writes then use it too). readallfields=false still
// reads (and checks) the whole record, which is what a Get returns.
//
// Key choice, as YCSB: key numbers start at insertstart. uniform, sequential and hotspot choose among
// the loaded records only. zipfian (YCSB's scrambled zipfian) spreads its ranks over the loaded records
// plus 2 x operationcount x insertproportion expected inserts and draws again while the key number is
// not yet acknowledged. latest follows the inserts: its item count is the acknowledged count. An insert
// is acknowledged when it and every insert before it in the sequence have returned (YCSB's
// AcknowledgedCounterGenerator), so a read never chooses a key whose insert is still in flight.
// Difference from YCSB: new key numbers continue after the loaded range (insertstart + insertcount)
// rather than at recordcount, since one process loads everything.
//
// Several client processes on one database (`run --clients N`, PhaseSuiteOptions::client_index): client i
// loads the i-th of N equal parts of the records (YCSB's insertstart/insertcount per client), runs the
// whole operation count, and inserts the key numbers end + n x N + i (n = 0, 1, ...; end = insertstart +
// insertcount), so the clients never insert the same key; each chooses among the loaded records and its
// own acknowledged inserts. The harness starts every phase of the clients together, after all of them
// finished the one before. The row counts are then checked as lower bounds (the others write too), and
// the database is left for the run to remove.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "workloads/phase.h"
#include "workloads/ycsb_workload.h"

namespace dbxb {

class Suite;
/// The suite for `run --suite`, its options and plan (workloads/suite.h); registered in builtin_suites.cc.
std::unique_ptr<Suite> NewYcsbSuite();

/// YCSB's AcknowledgedCounterGenerator: hands out increasing numbers and tracks the limit below which
/// every number has been acknowledged. Thread-safe. At most kWindow numbers may be outstanding (handed
/// out, not yet acknowledged) at once — one per thread in practice.
class AcknowledgedCounter {
 public:
  static constexpr uint64_t kWindow = 1 << 16;

  explicit AcknowledgedCounter(uint64_t start) : next_(start), limit_(start), acked_(kWindow, 0) {}
  /// The next number of the sequence.
  uint64_t Next() { return next_.fetch_add(1, std::memory_order_relaxed); }
  /// Marks `n` (a number from Next()) as done, and advances Limit() over every done number.
  void Acknowledge(uint64_t n);
  /// Every number below this has been acknowledged.
  uint64_t Limit() const { return limit_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> next_;
  std::atomic<uint64_t> limit_;
  std::mutex mu_;
  std::vector<uint8_t> acked_;  // GUARDED_BY(mu_): done flags of numbers Limit() .. Limit() + kWindow
};

/// The workload as the suite runs it: `options.records` (if non-zero) replaces recordcount (and an
/// insertcount that covered the whole rest of the records), `options.operations` (if non-zero)
/// replaces operationcount. InvalidArgument, naming the workload, when the result cannot run: no
/// operation count and no duration (YCSB's operationcount=0 means unbounded), or insertstart +
/// insertcount beyond the new recordcount.
Result<YcsbWorkload> ApplyYcsbOverrides(YcsbWorkload workload, const PhaseSuiteOptions& options);

/// The suite on one engine: load, then run. `name` labels the results (e.g. "workloada").
/// The database lives in options.work_dir/ycsb-<name>-<engine> and is removed by Close().
/// With the null engine (which stores nothing and answers from reference data) the reference holds the
/// loaded records and every record the run may insert, so the workload must be bounded by count when
/// it inserts. REQUIRES: `workload` went through ApplyYcsbOverrides.
Result<std::unique_ptr<PhaseSequence>> MakeYcsbSequence(const YcsbWorkload& workload, const std::string& name,
                                                        const AdapterFactory& engine, const PhaseSuiteOptions& options);

/// "workloada" for "path/to/workloada" or "workloada.properties".
std::string YcsbWorkloadName(const std::string& path);

}  // namespace dbxb
