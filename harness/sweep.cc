#include "harness/sweep.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "harness/sampler.h"
#include "harness/signal_handlers.h"
#include "records/record_names.h"
#include "writers/format.h"

namespace dbxb {
namespace {

void Tag(const KeyValues& values, KeyValues* parameters) {
  for (const auto& [name, value] : values) {
    const std::string key = kSweepParameterPrefix + name;
    parameters->erase(
        std::remove_if(parameters->begin(), parameters->end(), [&](const auto& kv) { return kv.first == key; }),
        parameters->end());
    parameters->emplace_back(key, value);
  }
}

// How a point that ran ended: "ok", or "failed" with its first failure, or "interrupted".
void Judge(const RunResults& r, SweepPoint* point) {
  point->status = "ok";
  for (const BenchmarkResult& b : r.benchmarks)
    if (b.error_occurred && point->message.empty()) point->message = BenchmarkName(b) + ": " + b.error_message;
  for (const PhaseResult& p : r.phases)
    if (p.error_occurred && point->message.empty()) point->message = PhaseName(p) + ": " + p.error_message;
  for (const CapacityResult& c : r.capacity)
    if (c.error_occurred && point->message.empty())
      point->message = JoinNonEmpty({c.suite, c.workload, c.dataset, c.phase, c.engine}, "/") + ": " + c.error_message;
  if (!point->message.empty()) point->status = "failed";
  if (r.context.incomplete) point->status = "interrupted";
}

// The combined context: every swept entry of the configuration lists all its values.
void DescribeSweep(const std::vector<SweepDimension>& dimensions, RunContext* context) {
  std::string sweep;
  for (const SweepDimension& d : dimensions) {
    const std::string values = fmt::format("{}", fmt::join(d.values, ","));
    sweep += fmt::format("{}{}={}", sweep.empty() ? "" : "; ", d.name, values);
    const std::string key = d.name == "cache_size" ? "cache_bytes" : d.name;
    for (auto& [name, value] : context->configuration)
      if (name == key) value = "swept: " + values;
  }
  context->configuration.emplace_back("sweep", sweep);
}

void Append(RunResults&& point, RunResults* all) {
  for (BenchmarkResult& b : point.benchmarks) all->benchmarks.push_back(std::move(b));
  for (PhaseResult& p : point.phases) all->phases.push_back(std::move(p));
  for (CapacityResult& c : point.capacity) all->capacity.push_back(std::move(c));
}

}  // namespace

std::string SweepPointName(const KeyValues& values) {
  std::string out;
  for (const auto& [name, value] : values) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, value);
  return out;
}

void TagSweepPoint(const KeyValues& values, RunResults* point) {
  for (BenchmarkResult& b : point->benchmarks) Tag(values, &b.parameters);
  for (PhaseResult& p : point->phases) Tag(values, &p.parameters);
  for (CapacityResult& c : point->capacity) Tag(values, &c.parameters);
}

std::string SweepPointSummary(const RunResults& r) {
  std::vector<std::string> parts;
  for (const BenchmarkResult& b : r.benchmarks) {
    parts.push_back(b.error_occurred
                        ? fmt::format("{} {} failed", b.workload, b.engine)
                        : fmt::format("{} {} {}", b.workload, b.engine, FormatThroughput(b.throughput.point, 3)));
  }
  for (const PhaseResult& p : r.phases) {
    parts.push_back(p.error_occurred
                        ? fmt::format("{} {} failed", p.phase, p.engine)
                        : fmt::format("{} {} {} ops/s p99 {}", p.phase, p.engine, FormatCount(p.throughput_ops_per_sec),
                                      FormatDuration(p.service_time.p99_ns, 3)));
  }
  for (const CapacityResult& c : r.capacity) {
    parts.push_back(c.error_occurred ? fmt::format("{} {} capacity failed", c.phase, c.engine)
                    : c.capacity_ops_per_sec > 0
                        ? fmt::format("{} {} capacity {} ops/s", c.phase, c.engine, FormatCount(c.capacity_ops_per_sec))
                        : fmt::format("{} {} capacity none", c.phase, c.engine));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

Status ExecuteSweep(const std::vector<SweepDimension>& dimensions, std::vector<SweepPointPlan>& points,
                    const RunEnvironment& env, RunResults* results) {
  RunResults all;
  SweepInfo info;
  info.dimensions = dimensions;
  for (const SweepPointPlan& p : points) info.points.push_back(SweepPoint{p.values, "not run", "", 0});
  Status first_error;
  bool ran = false;
  for (size_t k = 0; k < points.size() && !InterruptRequested(); ++k) {
    SweepPoint& point = info.points[k];
    const std::string name =
        fmt::format("sweep point {} of {} ({})", k + 1, points.size(), SweepPointName(point.values));
    if (env.progress) *env.progress << name << ": running\n" << std::flush;
    Stopwatch watch;
    watch.Start();
    RunResults r;
    Status st = ExecutePlan(points[k].plan, env, &r);
    point.seconds = watch.ElapsedNs() / 1e9;
    if (!st.ok()) {
      point.status = "failed";
      point.message = "could not run: " + st.ToString();
      if (first_error.ok()) first_error = st;
      if (env.progress) *env.progress << name << ": " << point.message << "\n" << std::flush;
      continue;
    }
    Judge(r, &point);
    if (env.progress) {
      *env.progress << fmt::format("{}: {} in {:.1f} s: {}\n", name, point.status, point.seconds, SweepPointSummary(r))
                    << std::flush;
    }
    TagSweepPoint(point.values, &r);
    if (!ran) all.context = r.context;
    ran = true;
    const bool interrupted = r.context.incomplete;
    Append(std::move(r), &all);
    if (interrupted) break;
  }
  if (!ran) {
    if (!first_error.ok()) return first_error;
    all.context.incomplete = true;  // interrupted before the first point finished
  }
  if (InterruptRequested()) all.context.incomplete = true;
  DescribeSweep(dimensions, &all.context);
  all.sweep = std::move(info);
  *results = std::move(all);
  return Status::Ok();
}

}  // namespace dbxb
