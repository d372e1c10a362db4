// `run --measure instructions`: a deterministic measure for CPU-bound benchmarks. The run re-executes
// itself under valgrind's callgrind with instrumentation off (`valgrind --tool=callgrind
// --instr-atstart=no`), and every benchmark runs a fixed number of iterations instead of clock-driven
// samples; callgrind client requests (valgrind/callgrind.h) around the timed region only count the
// instructions the measuring thread retires there. The count per operation is recorded with the valgrind
// version (InstructionCount, records/result.h), and `compare`/`ab` gate it as a near-exact counter.
//
// It cannot apply — and the benchmark's count is refused with the reason rather than printed — when:
//  - the engine's work runs in another process (a server: callgrind sees only this one);
//  - another thread of the process ran during the counted iterations (an engine's background flush or
//    compaction: valgrind serialises threads, so how much of that work lands in the window is decided by
//    its scheduler, and work moved to a background thread would read as an improvement);
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

/// True when this process runs under valgrind's callgrind as `run --measure instructions` started it.
bool UnderCallgrind();

/// The valgrind that counts: "valgrind-3.19.0" (from `valgrind --version`), or "" when not found.
std::string ValgrindVersion();

/// Runs this executable again with `args` (the arguments after the program name, e.g. {"run", ...})
/// under callgrind, with its output files in a private directory removed afterwards, and waits for it.
/// Returns the child's exit code (130 when it was interrupted); InvalidArgument when valgrind is not
/// installed.
[[nodiscard]] Result<int> RunSelfUnderCallgrind(const std::vector<std::string>& args);

/// Counts the instructions of the calling thread over the stretches between Resume and Pause. Only under
/// callgrind (UnderCallgrind); elsewhere the client requests do nothing and Finish fails. One counter at
/// a time; the calling thread must be the process's main thread (the one callgrind numbers 1).
class InstructionCounter {
 public:
  /// Switches instrumentation on (collection stays off until Resume) and zeroes the counts.
  void Start();
  void Resume();
  void Pause();
  /// Dumps the counts, reads the calling thread's total, removes the dump files and switches
  /// instrumentation off. IOError when the dump cannot be read.
  [[nodiscard]] Result<uint64_t> Finish(const std::string& name);
};

/// The nanoseconds each thread of the process other than the calling one has run on a CPU so far, by
/// thread id (/proc/self/task/*/schedstat).
using ThreadRunTimes = std::map<long, uint64_t>;
ThreadRunTimes OtherThreadsRunTimes();

/// How long the other threads ran between two readings: what the ones still alive added, and the whole
/// time of the ones started since (a thread that ended meanwhile counts as 1 ns: it ran).
uint64_t OtherThreadsRanNs(const ThreadRunTimes& before, const ThreadRunTimes& after);

}  // namespace dbxb
