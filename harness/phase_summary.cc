// The summary of a phase's measurements into its record (harness/phase_state.h).

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "harness/phase_state.h"
#include "records/hdr_encoding.h"

namespace dbxb::phase_internal {
namespace {

using States = std::vector<std::unique_ptr<ThreadState>>;

// Operations per second over `seconds` (0 when no time passed).
double PerSecond(uint64_t count, double seconds) { return seconds > 0 ? static_cast<double>(count) / seconds : 0.0; }

// Adds up the threads' operation counts and sets the measured duration, the throughput and whether the
// duration bounded the phase.
void SummarizeCounts(const PhaseSpec& spec, const Shared& sh, const States& states, PhaseResult& r) {
  const bool open = spec.target_rate > 0;
  uint64_t last_end = sh.start_ns;
  if (open) r.late_operations = 0;
  for (const auto& ts : states) {
    r.warmup_operations += ts->warmup_ops;
    r.operations += ts->ops;
    if (open) *r.late_operations += ts->late;
    if (ts->started && ts->ops > 0) last_end = std::max(last_end, ts->last_end_ns);
  }
  r.duration_ns = static_cast<double>(last_end - sh.start_ns);
  r.start_unix_s = sh.start_unix_s;
  r.throughput_ops_per_sec = PerSecond(r.operations, r.duration_ns / 1e9);
  r.bounded_by_duration = spec.duration_seconds > 0 && (spec.operations == 0 || r.operations < spec.operations);
}

// Merges the threads' histograms per operation type and overall, and summarizes them (service time,
// and the latency from the intended start in open loop).
void SummarizeLatencies(const PhaseSpec& spec, const Shared& sh, const States& states, int ticks, PhaseRun* run) {
  PhaseResult& r = run->result;
  const bool open = spec.target_rate > 0;
  const double seconds = r.duration_ns / 1e9;
  run->service_time = std::make_unique<LatencyHistogram>();
  LatencyHistogram all_intended;
  for (uint32_t op = 0; op < sh.op_types; ++op) {
    LatencyHistogram service, intended;
    for (const auto& ts : states) {
      if (op < ts->service.size()) service.Merge(ts->service[op]);
      if (op < ts->from_intended.size()) intended.Merge(ts->from_intended[op]);
    }
    run->service_time->Merge(service);
    all_intended.Merge(intended);
    OpTypeResult o;
    o.name = spec.op_types[op];
    o.count = service.Count();
    o.throughput_ops_per_sec = PerSecond(o.count, seconds);
    o.service_time = SummarizeLatency(service, ticks);
    if (open) o.latency_from_intended_start = SummarizeLatency(intended, ticks);
    r.per_op.push_back(std::move(o));
  }
  r.service_time = SummarizeLatency(*run->service_time, ticks);
  if (open) r.latency_from_intended_start = SummarizeLatency(all_intended, ticks);
}

// The time series: every thread's intervals added up; intervals after the one holding the last
// completion (reserved but not reached) dropped; the last one's rate taken over its real length
// (over the nominal length when the last completion fell exactly on its start).
void SummarizeSeries(const Shared& sh, const States& states, const PhaseRunOptions& options, PhaseResult& r) {
  const double seconds = r.duration_ns / 1e9;
  IntervalRecorder series(sh.start_ns, options.series_interval_ns);
  for (const auto& ts : states) {
    if (ts->series) (void)series.Merge(*ts->series);  // same start and geometry by construction
  }
  const double interval_s = static_cast<double>(options.series_interval_ns) / 1e9;
  for (const IntervalRecorder::Point& p : series.Series()) {
    if (p.start_s > seconds) break;
    SecondSample s;
    s.second = p.start_s;
    s.operations = p.operations;
    const double rest = seconds - p.start_s;
    const double length = rest > 0 && rest < interval_s ? rest : interval_s;
    s.ops_per_sec = length > 0 ? static_cast<double>(p.operations) / length : 0.0;
    s.p99_ns = static_cast<double>(p.p99_ns);
    r.per_second.push_back(s);
  }
}

// Adds up the threads' interval histograms per operation type (PhaseRunOptions::keep_interval_histograms).
void MergeIntervalHistograms(const PhaseSpec& spec, const Shared& sh, const States& states,
                             const PhaseRunOptions& options, PhaseRun* run) {
  const bool open = spec.target_rate > 0;
  for (uint32_t op = 0; op < sh.op_types; ++op) {
    const int digits = LatencyHistogram().significant_digits();
    run->interval_service.emplace_back(sh.start_ns, options.series_interval_ns, digits);
    if (open) run->interval_from_intended.emplace_back(sh.start_ns, options.series_interval_ns, digits);
    for (const auto& ts : states) {
      if (op < ts->interval_service.size()) (void)run->interval_service[op].Merge(ts->interval_service[op]);
      if (op < ts->interval_from_intended.size())
        (void)run->interval_from_intended[op].Merge(ts->interval_from_intended[op]);
    }
  }
}

}  // namespace

void Summarize(const PhaseSpec& spec, const Shared& sh, std::vector<std::unique_ptr<ThreadState>>& states,
               const PhaseRunOptions& options, PhaseRun* run) {
  SummarizeCounts(spec, sh, states, run->result);
  SummarizeLatencies(spec, sh, states, options.percentile_ticks_per_half_distance, run);
  SummarizeSeries(sh, states, options, run->result);
  if (options.keep_interval_histograms) MergeIntervalHistograms(spec, sh, states, options, run);
  if (options.keep_raw_latencies) {
    for (auto& ts : states) {
      if (ts->raw) run->raw_latencies.push_back(std::move(ts->raw));
    }
  }
}

}  // namespace dbxb::phase_internal
