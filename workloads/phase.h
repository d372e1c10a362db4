// Phases: the contract between a phase definition (workloads/, which never reads a clock) and the
// phase runner (harness/phase_runner.h, which owns the clocks, the threads and the histograms).
//
// A phase is a stretch of operations measured one by one: "ycsb-load", "ycsb-run", "select-pk",
// "mixed-oltp". The runner calls, in order and on one thread unless noted:
//
//   phase.SetUp()                                  untimed (e.g. prepare statements, pick key ranges)
//   phase.Settle()                 when spec.settle  timed on its own (PhaseResult::settle_ns), not measured
//   worker[i] = phase.NewWorker(i)   i < threads   untimed, on the runner's thread, before any op
//   -- on thread i, all threads released together --
//   worker[i]->NextOp(&op) ...                     warm-up operations (executed, not recorded)
//   worker[i]->NextOp(&op) ...                     measured operations, each timed on its own
//   worker[i]->Finish()                            untimed, on thread i (e.g. commit an open batch)
//   -- threads joined; workers destroyed on the runner's thread --
//   phase.TearDown()                               untimed, also after a failed phase
//
// A phase built on an adapter opens one Session per worker (in NewWorker) and closes it when the
// worker is destroyed; the adapter itself belongs to the PhaseSequence, which outlives its phases.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "workloads/write_tally.h"

namespace dbxb {

/// Performs the operations of one thread. Owned and driven by one thread; never reads a clock.
class PhaseWorker {
 public:
  virtual ~PhaseWorker() = default;

  /// Performs the next operation, verified, and sets *op to the index into PhaseSpec::op_types of the
  /// operation performed. This is the only virtual call in the measured loop: keep it free of
  /// allocation (reuse buffers) and of work that is not the operation itself.
  /// A wrong answer is Status::Corruption naming the key and the problem; NotFound of a row that must
  /// exist is Corruption too. Any non-OK status stops the whole phase and marks it failed.
  [[nodiscard]] virtual Status NextOp(uint32_t* op) = 0;

  /// Untimed, on the worker's thread, after its last operation (also after an interrupted or stopped
  /// phase, but not after this worker's own NextOp failed). E.g. commits an open write batch.
  [[nodiscard]] virtual Status Finish() { return Status::Ok(); }

  /// What this worker has written and committed since it was created (acknowledged commits only).
  /// Read by the runner when every thread waits at the measured start, and after the threads joined,
  /// so the measured part's share excludes the warm-up. Not called concurrently with NextOp.
  virtual WriteTally written() const { return {}; }
};

/// How a phase is run. Filled by the phase definition (from its suite's options), read by the runner.
struct PhaseSpec {
  std::string name;  ///< "ycsb-load", "ycsb-run", "select-pk", ...
  /// What NextOp reports, e.g. {"read", "update", "insert", "scan", "read-modify-write"}.
  /// At most 255 entries; a type never performed is still reported (with count 0).
  std::vector<std::string> op_types;
  /// Worker threads, one PhaseWorker (and one Session) each. At least 1.
  uint32_t threads = 1;

  /// Measured operations of the whole phase (0 = not bounded by count). Thread i performs
  /// OperationsForThread(*this, i) of them, so a phase can assign work (e.g. key ranges) per thread.
  uint64_t operations = 0;
  /// Wall-clock bound of the measured part (0 = none). With both bounds, whichever comes first ends
  /// the phase. REQUIRES: operations > 0 or duration_seconds > 0.
  double duration_seconds = 0;

  /// Warm-up per thread before the measured part: this many operations, then as long as
  /// warmup_seconds (either may be 0). Executed and verified, never recorded. Measured time starts
  /// for all threads together after every thread has finished its warm-up.
  uint64_t warmup_operations = 0;
  double warmup_seconds = 0;

  /// Open loop when > 0: operations per second for the whole phase, split evenly over the threads;
  /// operation n of a thread is scheduled at start + n * threads / target_rate, and the runner reports
  /// both the service time and the latency from that intended start (coordinated omission corrected).
  /// 0 = closed loop (each thread issues its next operation as soon as the previous one returns).
  double target_rate = 0;

  /// Rows one operation touches (e.g. the batch size of a batched load): reported as rows per second.
  uint64_t rows_per_operation = 1;

  /// What the phase is, for reports: ("records", "1000000"), ("distribution", "zipfian"), ...
  std::vector<std::pair<std::string, std::string>> parameters;

  /// The phase follows writes: before its workers exist the runner calls Phase::Settle (the engine's
  /// Adapter::Settle) and records how long it took. Phase suites set it from PhaseSuiteOptions::settle.
  bool settle = false;
};

/// The PhaseSpec::parameters key saying how the phase's memory was limited (harness/memory/memory_limit.h adds
/// it); the phase runner records its value as PhaseResult::memory_method.
inline constexpr char kMemoryMethodParameter[] = "memory_method";

/// The measured operations thread `thread_index` performs when spec.operations > 0: an even split,
/// the first (operations % threads) threads doing one more. 0 when the phase is bounded by time only.
inline uint64_t OperationsForThread(const PhaseSpec& spec, uint32_t thread_index) {
  if (spec.operations == 0 || spec.threads == 0) return 0;
  return spec.operations / spec.threads + (thread_index < spec.operations % spec.threads ? 1 : 0);
}

/// One phase of a suite. Not used concurrently except NewWorker's results, each on its own thread.
class Phase {
 public:
  virtual ~Phase() = default;
  virtual const PhaseSpec& spec() const = 0;
  /// Untimed preparation, before any worker exists.
  [[nodiscard]] virtual Status SetUp() { return Status::Ok(); }
  /// When spec().settle: brings the engine to a steady state (Adapter::Settle: its write buffers moved
  /// into its main store, its background work done), after SetUp.
  [[nodiscard]] virtual Status Settle() { return Status::Ok(); }
  /// The worker of thread `thread_index` (< spec().threads), e.g. opening its Session and seeding its
  /// key chooser with seed + thread_index. Called for every thread before any operation starts.
  [[nodiscard]] virtual Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t thread_index) = 0;
  /// Untimed, after every worker is destroyed, whether the phase succeeded or not. May verify the end
  /// state (e.g. the row count after inserts) and return Corruption.
  [[nodiscard]] virtual Status TearDown() { return Status::Ok(); }
};

/// The phases of one engine on one database, in order (e.g. YCSB: load, then run). Owns the adapter.
/// The runner calls Open(), then NextPhase() until it yields nullptr, running each phase before asking
/// for the next; after a failed phase it stops asking and calls Close(). Close() is always called
/// (also after a failed Open) and removes the data the sequence created.
class PhaseSequence {
 public:
  virtual ~PhaseSequence() = default;
  /// "cached", "disk-bound", or "" when the suite has no such distinction.
  virtual std::string dataset() const { return {}; }
  /// The workload the phases belong to, for reports (e.g. "workloada"); "" when the suite has one.
  virtual std::string workload() const { return {}; }
  /// Untimed: opens the engine (and may load data that no phase measures).
  [[nodiscard]] virtual Status Open() = 0;
  /// The next phase, or nullptr when the sequence is done.
  [[nodiscard]] virtual Result<std::unique_ptr<Phase>> NextPhase() = 0;
  /// The engine's native settings as the adapter reports them. Valid after Open().
  virtual Settings engine_settings() const = 0;
  /// Memory the harness confines this sequence's phases to (harness/memory/memory_limit.h: a cgroup from
  /// Open to Close, or the database evicted from the page cache before each phase); 0 = unconfined.
  virtual uint64_t memory_limit_bytes() const { return 0; }
  /// Key + value bytes of the data the database holds now (after the last phase), for space
  /// amplification; 0 when the suite does not know.
  virtual uint64_t live_logical_bytes() const { return 0; }
  [[nodiscard]] virtual Status Close() = 0;
};

/// What the CLI passes to every phase-based suite. Fields left 0 mean "the suite's (or the workload
/// file's) own value".
struct PhaseSuiteOptions {
  AdapterOptions engine_options;  ///< durability and cache budget; `dir` is set per database by the suite
  std::string work_dir;           ///< where the suite may create databases (it removes what it creates)
  uint64_t seed = 1;
  uint32_t threads = 0;         ///< --threads: workers of each phase
  uint32_t readers = 0;         ///< --readers: reader threads of mixed phases
  uint32_t writers = 0;         ///< --writers: writer threads of mixed phases
  uint64_t records = 0;         ///< --records: rows loaded
  uint64_t operations = 0;      ///< --operations: measured operations per phase
  double duration_seconds = 0;  ///< --duration: wall-clock bound per phase
  double warmup_seconds = 0;    ///< --phase-warmup (0 = the suite's default, maybe none)
  double target_rate = 0;       ///< --target-rate: ops/s per phase, open loop (0 = closed loop)
  uint64_t load_batch = 1000;   ///< rows per write batch when loading
  bool settle = true;           ///< false (--no-settle): measure with the background work left in
};

/// How the runner asks a phase-based suite for its work on one engine: the sequences to run, in order
/// (e.g. one per data set: "cached", then "disk-bound"). Each sequence is opened only when its turn
/// comes, so creating them must be cheap (no database opened). InvalidArgument for options the suite
/// cannot honour (e.g. --readers with a suite without mixed phases), naming the option.
using PhaseSequencesFactory = std::function<Result<std::vector<std::unique_ptr<PhaseSequence>>>(
    const AdapterFactory& engine, const PhaseSuiteOptions& options)>;

}  // namespace dbxb
