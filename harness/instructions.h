// `run --measure instructions`: a deterministic measure for CPU-bound benchmarks. The run re-executes
// itself under valgrind's callgrind with instrumentation off (`valgrind --tool=callgrind
// --instr-atstart=no`), and every benchmark runs a fixed number of iterations instead of clock-driven
// samples; callgrind client requests (valgrind/callgrind.h) around the timed region only count the
// instructions the measuring thread retires there. The count per operation is recorded with the valgrind
// version (InstructionCount, records/result.h), and `compare`/`ab` gate it as a near-exact counter.
//
// It cannot apply — and the benchmark's count is refused with the reason rather than printed — when:
//  - the engine's work runs in another process (a server: callgrind sees only this one);
//  - other threads of the process ran more than kOtherThreadsShare of the measuring thread's time during
//    the counted iterations (an engine's background flush or compaction: valgrind serialises threads, so
//    how much of that work lands in the window is decided by its scheduler, and work moved to a
//    background thread would read as an improvement; an idle thread's timed wake-ups stay below it).
//    Callgrind collects per thread and the client requests switch only the measuring thread's
//    collection, so the others' share is taken from their run times (/proc/self/task/*/schedstat) inside
//    the counted stretches;
//  - the counted iterations synced (their cost is the kernel's I/O, which callgrind does not count).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"

namespace dbxb {

/// Iterations each benchmark counts (after one uncounted warm-up iteration).
inline constexpr uint64_t kCountedIterations = 3;

/// The most the other threads may run, as a share of the measuring thread's run time over the counted
/// iterations, before a count is refused.
inline constexpr double kOtherThreadsShare = 0.01;

/// True when this process runs under valgrind's callgrind as `run --measure instructions` started it.
bool UnderCallgrind();

/// The valgrind that counts: "valgrind-3.19.0" (from `valgrind --version`), or "" when not found.
std::string ValgrindVersion();

/// Runs this executable again with `args` (the arguments after the program name, e.g. {"run", ...})
/// under callgrind, with its output files in a private directory removed afterwards, and waits for it.
/// The child is tied to this process: a Ctrl-C, SIGTERM or SIGHUP here stops it as it would stop a run
/// (SIGTERM, forwarded once), and it is SIGKILLed when this process ends otherwise (PR_SET_PDEATHSIG);
/// the directory has an orphan guard, and a later run removes one a killed run and guard left.
/// Returns the child's exit code (130 when it was interrupted); InvalidArgument when valgrind is not
/// installed or the temporary directory is unusable.
[[nodiscard]] Result<int> RunSelfUnderCallgrind(const std::vector<std::string>& args);

/// How long the threads of the process have run on a CPU so far, in nanoseconds
/// (/proc/self/task/*/schedstat): the calling thread's, and every other thread's by thread id.
struct ThreadRunTimes {
  uint64_t self = 0;
  std::map<long, uint64_t> others;
};
ThreadRunTimes ReadThreadRunTimes();

/// How long the other threads ran between two readings: what the ones still alive added and the whole
/// time of the ones started since.
uint64_t OtherThreadsRanNs(const ThreadRunTimes& before, const ThreadRunTimes& after);

/// Counts the instructions of the calling thread over the stretches between Resume and Pause, and how long
/// it and the process's other threads ran in those stretches. Only under callgrind (UnderCallgrind);
/// elsewhere the client requests do nothing and Finish fails. One counter at a time; the calling thread
/// must be the process's main thread (the one callgrind numbers 1).
class InstructionCounter {
 public:
  /// Switches instrumentation on (collection stays off until Resume) and zeroes the counts.
  void Start();
  void Resume();
  void Pause();
  /// Dumps the counts, reads the calling thread's total, removes the dump files and switches
  /// instrumentation off. IOError when the dump cannot be read.
  [[nodiscard]] Result<uint64_t> Finish(const std::string& name);
  /// Nanoseconds the calling thread, and all other threads together, ran within the stretches.
  uint64_t self_ns() const { return self_ns_; }
  uint64_t others_ns() const { return others_ns_; }

 private:
  uint64_t self_ns_ = 0, others_ns_ = 0;
  ThreadRunTimes at_resume_;
};

}  // namespace dbxb
