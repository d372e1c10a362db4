// The records of a run as a comparison sees them: each benchmark and phase with its key, whether it
// failed, and its estimate of every metric of the table (compare/metrics.h). Shared by every comparing
// path, so that they all see the same rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "compare/metrics.h"
#include "compare/report.h"
#include "records/result.h"

namespace dbxb {

/// One benchmark or phase of a run.
struct RunRecord {
  BenchmarkKey key;
  const BenchmarkResult* benchmark = nullptr;  ///< exactly one of benchmark and phase is set
  const PhaseResult* phase = nullptr;
  bool failed = false;
  std::string error;

  /// The metric's estimate (Metric::of_benchmark / of_phase); nullopt when the record has none or failed.
  std::optional<double> Estimate(const Metric& metric) const;
  /// Why the record has no estimate of `metric` although it measured it (Metric::unavailable), or "".
  std::string Unavailable(const Metric& metric) const;
  /// Work-determined for a benchmark; a phase's CounterKindOf.
  CounterKind counter_kind() const;
  const Metric& primary() const { return PrimaryMetric(phase != nullptr); }
};

/// The records of `run`: its benchmarks, then its phases, in run order. InvalidArgument starting with
/// `side` when a record appears twice with the same key, or a successful benchmark has unusable samples
/// (fewer than 2, zero iterations, a time that is not finite and positive), or the run holds capacity
/// searches (which no comparison compares).
[[nodiscard]] Status RunRecordsOf(const RunResults& run, const std::string& side, std::vector<RunRecord>* out);

/// Where `key` is in `records`, or -1.
long FindRecord(const std::vector<RunRecord>& records, const BenchmarkKey& key);

/// A row of `metric` for `key` with `outcome`, no values.
MetricComparison RowOf(const BenchmarkKey& key, const Metric& metric, Outcome outcome);

/// Sorts rows by family (timing, counters, instructions), keeping their order within a family.
void SortRowsByFamily(std::vector<MetricComparison>* rows);

}  // namespace dbxb
