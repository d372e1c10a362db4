// The console: a Criterion-style summary per benchmark as each one finishes, a progress line while
// one runs, and the comparison tables of results.md at the end.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "common/status.h"
#include "records/result.h"
#include "writers/reporter.h"

namespace dbxb {

class ConsoleReporter : public Reporter {
 public:
  /// `baseline_engine` empty: the first engine of the results (as MarkdownReporter).
  explicit ConsoleReporter(std::string baseline_engine = "");

  /// One finished benchmark, e.g.
  ///
  ///   dbx-micro/get/sqlite
  ///                           time:   [1.2034 ms 1.2101 ms 1.2187 ms]
  ///                           thrpt:  [8.2055 Melem/s 8.2637 Melem/s 8.3098 Melem/s]
  ///   Found 3 outliers among 100 measurements (3.00%)
  ///     2 (2.00%) high mild
  ///     1 (1.00%) high severe
  ///
  /// time is [lower point upper] of the slope in linear sampling, else of the mean, with 5
  /// significant digits; thrpt (only when elements_per_iteration > 0) is the recorded throughput
  /// interval; the outlier lines appear only when there are outliers; each sampling note follows as
  /// "Note: ...". A failed benchmark is the single line "dbx-micro/get/lmdb: FAILED: <reason>".
  /// REQUIRES: a ProgressLine on the same terminal was Clear()ed first.
  void ReportBenchmark(const BenchmarkResult& benchmark, std::ostream& out);

  /// One finished phase: PhaseSummaryLine (writers/markdown_phases.h), e.g.
  ///   ycsb/workloada/run/sqlite: 12,345 ops/s (1,000 ops, 2 threads, 81.01 ms), p50 1.234 µs, p99 ..., p999 ...
  /// REQUIRES: a ProgressLine on the same terminal was Clear()ed first.
  void ReportPhase(const PhaseResult& phase, std::ostream& out);

  /// The end of a run: the comparison tables (WriteComparisonTables, shared with results.md), the
  /// phase tables (WritePhaseTables) and the reading warnings.
  void ReportSummary(const RunResults& results, std::ostream& out);

  /// ReportBenchmark for every benchmark, ReportPhase for every phase, then ReportSummary.
  Status Write(const RunResults& results, std::ostream& out) override;

 private:
  std::string baseline_engine_;
};

/// The line that shows what the runner is doing. On a terminal it rewrites one line in place
/// ("\r", erase line, text); elsewhere (a log file, CI) it prints a plain line only when the phase
/// or the benchmark changes, so logs stay short. The caller says which: it knows whether the stream
/// is a TTY (isatty of its descriptor). Not thread-safe.
class ProgressLine {
 public:
  ProgressLine(std::ostream& out, bool is_tty) : out_(out), is_tty_(is_tty) {}

  /// "dbx-micro/get/sqlite: Warming up for 3.0000 s"
  void WarmingUp(std::string_view name, double seconds);
  /// On a terminal "dbx-micro/get/sqlite: Collecting 100 samples ... 42/100", updated per call;
  /// elsewhere "dbx-micro/get/sqlite: Collecting 100 samples" once.
  void Collecting(std::string_view name, uint64_t done, uint64_t total);
  /// "dbx-micro/get/sqlite: Analyzing"
  void Analyzing(std::string_view name);
  /// A phase that is running: "ycsb/workloada/run/sqlite: Running 1,000 operations on 2 threads"
  /// (`what` after "Running ").
  void Running(std::string_view name, std::string_view what);
  /// On a terminal, erases the line so that the next output starts on a clean line; else nothing.
  void Clear();

 private:
  void Show(const std::string& phase_key, const std::string& text);

  std::ostream& out_;
  bool is_tty_;
  bool showing_ = false;    // a line is on screen (terminal only)
  std::string last_phase_;  // name + phase of the last plain line (not a terminal)
};

}  // namespace dbxb
