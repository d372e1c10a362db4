// The deterministic resource counters in a comparison: fsyncs per commit, bytes written per operation
// and disk bytes of every benchmark and phase (records/resource_usage.h). They carry almost no
// sampling noise, so the gate on them holds where timings are noisy: a change that doubles the fsyncs
// per commit fails `compare` whatever the timings did. Usable by any comparing command.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compare/compare.h"

namespace dbxb {

/// The gated counters `usage` has, as (metric, value): "fsyncs_per_commit" (when syncs and commits
/// were counted), "write_bytes_per_op" (io_write_bytes per operation), "disk_bytes". Lower is better.
std::vector<std::pair<std::string, double>> GatedCounters(const ResourceUsage& usage);

/// Compares one counter as an exact value per side: the change is current / baseline - 1 with an
/// interval of zero width (+inf when only the current value is above 0, 0 when both are 0); p_value
/// is 0 when the values differ and 1 when they are equal. Verdict and gate as Classify and
/// ExceedsGate with `options`. Sets outcome kCompared, each side's mean and median to its value and
/// its count to 1. REQUIRES: both values finite and >= 0.
void CompareCounter(double baseline, double current, const CompareOptions& options, MetricComparison* row);

/// One row per gated counter of every benchmark and phase that succeeded on both sides and recorded
/// resources on both, matched by BenchmarkKey (current run's order: benchmarks, then phases). Records
/// on one side only, failed or without resources are left out: the time and phase matchers report
/// them.
void CompareResourceCounters(const RunResults& baseline, const RunResults& current, const CompareOptions& options,
                             std::vector<MetricComparison>* rows);

/// CompareResourceCounters as a Matcher (one of BuiltinMatchers()).
class ResourceCounterMatcher final : public Matcher {
 public:
  Status Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
               std::vector<MetricComparison>* rows) const override;
};

}  // namespace dbxb
