// The one table of metrics a comparison can gate on. Every comparing path (one run per side, several
// runs, paired rounds) and every writer of a comparison reads a metric from here: its name, direction,
// unit, how it is shown, which family of the gate it belongs to, how a run estimates it and what a
// comparison of one run per side resamples within the run.
//
// Adding a metric is one row of Metrics() (compare/metrics.cc) and, when it needs a new value, the
// record that carries it (records/result.h) with its results.json field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// Whether a larger value of the metric is worse (times, counters) or better (throughput).
enum class Direction { kLowerIsBetter, kHigherIsBetter };

/// How a value of the metric is shown (writers/format.h).
enum class ValueFormat { kDuration, kRate, kFixed2, kBytes, kCount };

/// The families of the gate. Each family's rows share one multiplicity correction and one threshold:
/// timing rows (noisy: their intervals come from sampling and the rounds), counters (fsyncs, bytes:
/// nearly exact) and instruction counts (exact up to valgrind's determinism, with their own threshold).
enum class MetricFamily { kTiming, kCounter, kInstructions };

/// "timing", "counters", "instructions": the family's name in the JSON and the tables.
const char* FamilyName(MetricFamily family);

/// What a comparison of one run per side resamples within each run for the interval of a row.
enum class WithinRun {
  kNone,          ///< one value per run: the interval is the between-run allowance alone
  kSampleMedian,  ///< the median of the per-iteration sample times (bootstrap of the samples)
  kSampleTotal,   ///< the samples' total time over their total iterations (bootstrap of the samples)
  kPhaseSeconds,  ///< the phase's per-second series (moving-block bootstrap; PhaseSeriesOf)
};

/// One row of the table.
struct Metric {
  std::string_view name;   ///< in JSON and row ids: "time", "time_mean", "cpu", "throughput", ...
  std::string_view label;  ///< shown after the benchmark's name ("" for the main row): "mean", "cpu", ...
  Direction direction;
  std::string_view unit;  ///< "ns", "ops/s", "fsyncs/commit", "bytes", "instructions/op"
  ValueFormat format;
  MetricFamily family;
  /// The run's estimate of the metric for a benchmark or a phase; nullopt when the record has none.
  std::optional<double> (*of_benchmark)(const BenchmarkResult&);
  std::optional<double> (*of_phase)(const PhaseResult&);
  WithinRun within_run;
  /// Why a benchmark that measured the metric has no estimate to compare (a refused instruction count),
  /// or "" (also when the metric is simply absent); nullptr when that cannot happen. A comparison reports
  /// such a row as not compared, with the reason, instead of leaving it out.
  std::string (*unavailable)(const BenchmarkResult&) = nullptr;
};

/// Every metric, in the order rows are reported within a family.
const std::vector<Metric>& Metrics();

/// The metric named `name`, or nullptr.
const Metric* FindMetric(std::string_view name);

/// The metric of a record that failed or is on one side only ("time" for a benchmark, "throughput" for
/// a phase): such a record gets one row, of this metric.
const Metric& PrimaryMetric(bool phase);

/// Whether a counter is determined by the work alone or also by timing. Work-determined counters (a
/// micro-benchmark's, or a single-threaded, closed-loop phase that ran its operation count) are
/// compared exactly; the others (a phase bounded by its duration, several threads, an open loop) vary
/// between runs of the same build and get a tolerance from A/A runs.
enum class CounterKind { kWorkDetermined, kDurationBound };
CounterKind CounterKindOf(const PhaseResult& phase);

/// The per-iteration times (total_ns / iterations) of a benchmark's samples.
std::vector<double> SampleTimes(const BenchmarkResult& b);

/// A benchmark's mean time per iteration over its whole measurement: the samples' total time over their
/// total iterations. Every slow iteration counts with its real weight; a stall that hits a few samples
/// moves it, where it may leave the median of the samples where it was.
double MeanIterationTime(const BenchmarkResult& b);

/// A phase's per-second intervals as two series whose ratio of sums is the metric, and its point
/// estimate from the phase as a whole:
///  - throughput: (operations, interval length in s): the phase's rate; point = operations / duration;
///  - p99: (p99 x operations, operations): the operations-weighted mean of the per-second p99s, used
///    only for the spread; point = the p99 of the phase's merged histogram (service_time).
/// The last interval's length is its real length (it may be partial). Intervals with no length, or for
/// p99 no operations, are left out. full_intervals counts the intervals of a whole second.
struct PhaseSeries {
  std::vector<double> numerator, denominator;
  double point = 0;
  double observed = 0;  ///< sum(numerator) / sum(denominator)
  size_t full_intervals = 0;
};
PhaseSeries PhaseSeriesOf(const PhaseResult& p, const Metric& metric);

}  // namespace dbxb
