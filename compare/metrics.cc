#include "compare/metrics.h"

#include <cmath>

#include "stats/statistics.h"

namespace dbxb {
namespace {

std::optional<double> Finite(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

// A benchmark measured under callgrind (run --measure instructions) ran ~50x slower than it runs: its
// times and CPU are not comparable, only its instruction count.
bool Timed(const BenchmarkResult& b) { return !b.instructions && !b.samples.empty(); }

std::optional<double> TypicalTimeOf(const BenchmarkResult& b) {
  if (!Timed(b)) return std::nullopt;
  return Finite(Median(SampleTimes(b)));
}

std::optional<double> MeanTimeOf(const BenchmarkResult& b) {
  if (!Timed(b)) return std::nullopt;
  return Finite(MeanIterationTime(b));
}

std::optional<double> CpuOf(const std::optional<ResourceUsage>& r) {
  if (!r || r->operations == 0 || !(r->cpu_ns_per_op > 0)) return std::nullopt;
  return Finite(r->cpu_ns_per_op);
}
std::optional<double> BenchmarkCpu(const BenchmarkResult& b) { return Timed(b) ? CpuOf(b.resources) : std::nullopt; }
std::optional<double> PhaseCpu(const PhaseResult& p) { return CpuOf(p.resources); }

std::optional<double> Throughput(const PhaseResult& p) {
  // The phase total, not a mean of per-second rates.
  if (!(p.duration_ns > 0)) return 0.0;
  return Finite(static_cast<double>(p.operations) * 1e9 / p.duration_ns);
}

std::optional<double> P99(const PhaseResult& p) {
  if (p.service_time.count == 0) return 0.0;
  return Finite(p.service_time.p99_ns);
}

std::optional<double> FsyncsPerCommit(const std::optional<ResourceUsage>& r) {
  if (!r || !r->fsyncs_per_commit) return std::nullopt;
  return Finite(*r->fsyncs_per_commit);
}
std::optional<double> WriteBytesPerOp(const std::optional<ResourceUsage>& r) {
  if (!r || r->operations == 0) return std::nullopt;
  return Finite(r->io_write_bytes_per_op);
}
std::optional<double> DiskBytes(const std::optional<ResourceUsage>& r) {
  if (!r) return std::nullopt;
  return static_cast<double>(r->disk_bytes);
}

std::optional<double> InstructionsPerOp(const BenchmarkResult& b) {
  if (!b.instructions || !b.instructions->refused.empty()) return std::nullopt;
  return Finite(b.instructions->per_op);
}

std::string InstructionsRefused(const BenchmarkResult& b) {
  return b.instructions && !b.instructions->refused.empty() ? "count refused: " + b.instructions->refused : "";
}

template <std::optional<double> (*F)(const std::optional<ResourceUsage>&)>
std::optional<double> OfBenchmark(const BenchmarkResult& b) {
  return F(b.resources);
}
template <std::optional<double> (*F)(const std::optional<ResourceUsage>&)>
std::optional<double> OfPhase(const PhaseResult& p) {
  return F(p.resources);
}

}  // namespace

const char* FamilyName(MetricFamily family) {
  static const char* const kNames[] = {"timing", "counters", "instructions"};
  return kNames[static_cast<int>(family)];
}

const std::vector<Metric>& Metrics() {
  using D = Direction;
  using F = MetricFamily;
  using V = ValueFormat;
  static const std::vector<Metric> metrics = {
      {"time", "", D::kLowerIsBetter, "ns", V::kDuration, F::kTiming, TypicalTimeOf, nullptr, WithinRun::kSampleMedian},
      {"time_mean", "mean", D::kLowerIsBetter, "ns", V::kDuration, F::kTiming, MeanTimeOf, nullptr,
       WithinRun::kSampleTotal},
      {"throughput", "throughput", D::kHigherIsBetter, "ops/s", V::kRate, F::kTiming, nullptr, Throughput,
       WithinRun::kPhaseSeconds},
      {"p99", "p99", D::kLowerIsBetter, "ns", V::kDuration, F::kTiming, nullptr, P99, WithinRun::kPhaseSeconds},
      {"cpu", "cpu", D::kLowerIsBetter, "ns/op", V::kDuration, F::kTiming, BenchmarkCpu, PhaseCpu, WithinRun::kNone},
      {"fsyncs_per_commit", "fsyncs/commit", D::kLowerIsBetter, "fsyncs/commit", V::kFixed2, F::kCounter,
       OfBenchmark<FsyncsPerCommit>, OfPhase<FsyncsPerCommit>, WithinRun::kNone},
      {"write_bytes_per_op", "write bytes/op", D::kLowerIsBetter, "bytes", V::kBytes, F::kCounter,
       OfBenchmark<WriteBytesPerOp>, OfPhase<WriteBytesPerOp>, WithinRun::kNone},
      {"disk_bytes", "disk bytes", D::kLowerIsBetter, "bytes", V::kBytes, F::kCounter, OfBenchmark<DiskBytes>,
       OfPhase<DiskBytes>, WithinRun::kNone},
      {"instructions", "instructions/op", D::kLowerIsBetter, "instructions/op", V::kCount, F::kInstructions,
       InstructionsPerOp, nullptr, WithinRun::kNone, InstructionsRefused},
  };
  return metrics;
}

const Metric* FindMetric(std::string_view name) {
  for (const Metric& m : Metrics())
    if (m.name == name) return &m;
  return nullptr;
}

const Metric& PrimaryMetric(bool phase) { return *FindMetric(phase ? "throughput" : "time"); }

CounterKind CounterKindOf(const PhaseResult& p) {
  const bool fixed_work = !p.bounded_by_duration && p.threads <= 1 && p.target_rate == 0;
  return fixed_work ? CounterKind::kWorkDetermined : CounterKind::kDurationBound;
}

std::vector<double> SampleTimes(const BenchmarkResult& b) { return PerIterationTimes(b.samples); }

double MeanIterationTime(const BenchmarkResult& b) {
  double total = 0, iterations = 0;
  for (const Sample& s : b.samples) {
    total += s.total_ns;
    iterations += static_cast<double>(s.iterations);
  }
  return total / iterations;
}

PhaseSeries PhaseSeriesOf(const PhaseResult& p, const Metric& metric) {
  PhaseSeries out;
  const auto& s = p.per_second;
  const bool rate = metric.name == "throughput";
  for (size_t i = 0; i < s.size(); ++i) {
    const bool last = i + 1 == s.size();
    double length = !last ? s[i + 1].second - s[i].second : p.duration_ns / 1e9 - s[i].second;
    if (last && s[i].operations > 0 && s[i].ops_per_sec > 0)
      length = static_cast<double>(s[i].operations) / s[i].ops_per_sec;
    const auto ops = static_cast<double>(s[i].operations);
    if (rate) {
      if (!(length > 0) || !std::isfinite(length)) continue;
      out.numerator.push_back(ops);
      out.denominator.push_back(length);
    } else if (s[i].operations > 0 && std::isfinite(s[i].p99_ns) && s[i].p99_ns > 0) {
      out.numerator.push_back(s[i].p99_ns * ops);
      out.denominator.push_back(ops);
    } else {
      continue;
    }
    out.full_intervals += length >= 0.999;
  }
  out.point = (rate ? Throughput(p) : P99(p)).value_or(0);
  double num = 0, den = 0;
  for (size_t i = 0; i < out.numerator.size(); ++i) {
    num += out.numerator[i];
    den += out.denominator[i];
  }
  out.observed = num / den;
  return out;
}

}  // namespace dbxb
