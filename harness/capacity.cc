#include "harness/capacity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "harness/fixed_phase.h"
#include "harness/signal_handlers.h"
#include "harness/tsc_clock.h"
#include "records/hdr_encoding.h"
#include "records/record_names.h"
#include "writers/format.h"

namespace dbxb {
namespace {

// `v` rounded to `digits` significant digits (rates people can read and type again).
double Nice(double v, int digits) {
  if (!(v > 0) || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(v))));
  return std::round(v * scale) / scale;
}

// The inner phase at another rate and length: open loop at `rate` (closed loop when 0) for `seconds`,
// bounded by time only, settled first only when `settle` (and the phase settles). Everything else
// (set-up, settle, workers, tear-down) is the inner phase's.
class RetargetedPhase final : public Phase {
 public:
  RetargetedPhase(Phase& inner, double rate, double seconds, bool settle) : inner_(inner), spec_(inner.spec()) {
    spec_.target_rate = rate;
    spec_.operations = 0;
    spec_.duration_seconds = seconds;
    spec_.settle = spec_.settle && settle;
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status SetUp() override { return inner_.SetUp(); }
  Status Settle() override { return inner_.Settle(); }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t thread) override { return inner_.NewWorker(thread); }
  Status TearDown() override { return inner_.TearDown(); }

 private:
  Phase& inner_;
  PhaseSpec spec_;
};

StepLatency Figures(const LatencySummary& l, double at_percentile) {
  return StepLatency{at_percentile, l.p50_ns, l.p99_ns, l.p999_ns, l.max_ns};
}

// The SLA's percentile of a recorded distribution, from its whole histogram.
double AtPercentile(const LatencySummary& l, double percentile) {
  if (l.count == 0) return 0;
  Result<LatencyHistogram> h = HistogramOf(l);
  return h.ok() ? static_cast<double>(h.value().ValueAtPercentile(percentile)) : 0;
}

// A finished step's figures and verdict.
CapacityStep Evaluate(const PhaseRun& run, const CapacityPlan& plan, const char* role, double rate, double seconds) {
  const PhaseResult& p = run.result;
  const double q = plan.sla.percentile;
  CapacityStep s;
  s.role = role;
  s.target_rate = rate;
  if (p.error_occurred)
    s.error = p.error_message;
  else if (p.incomplete)
    s.error = "interrupted";
  s.achieved_ops_per_sec = p.throughput_ops_per_sec;
  s.operations = p.operations;
  s.duration_ns = p.duration_ns;
  s.warmup_operations = p.warmup_operations;
  s.settle_ns = p.settle_ns;
  const double service_q = run.service_time ? static_cast<double>(run.service_time->ValueAtPercentile(q)) : 0;
  s.service_time = Figures(p.service_time, p.operations > 0 ? service_q : 0);
  if (p.latency_from_intended_start) {
    s.from_intended = Figures(*p.latency_from_intended_start, AtPercentile(*p.latency_from_intended_start, q));
  }
  s.late_operations = p.late_operations.value_or(0);
  if (rate > 0 && s.error.empty()) {  // a step cut short left its schedule unfinished, not dropped
    const uint64_t scheduled = ScheduledOperations(rate, p.threads, seconds);
    s.dropped_operations = scheduled > p.operations ? scheduled - p.operations : 0;
  }
  const bool service = plan.sla.service_time || rate == 0;
  const double latency = service ? s.service_time.sla_percentile_ns : s.from_intended.sla_percentile_ns;
  s.met_sla = p.operations > 0 && latency <= plan.sla.bound_ns;
  s.kept_up = rate == 0 || s.achieved_ops_per_sec >= plan.keep_up * rate;
  return s;
}

std::string PercentileName(double percentile) { return fmt::format("p{:g}", percentile); }

// "step 3 (ramp): target 12,000 ops/s, achieved 11,998 ops/s, p99 from intended start 41.2 µs, 0 late,
// 0 dropped: passed".
std::string StepLine(const CapacityResult& r, const CapacityStep& s, size_t index) {
  const bool probe = s.target_rate == 0;
  const bool service = r.latency == "service" || probe;
  const double latency = service ? s.service_time.sla_percentile_ns : s.from_intended.sla_percentile_ns;
  std::string head = probe ? std::string("probe (closed loop)") : fmt::format("step {} ({})", index, s.role);
  std::string what = probe ? fmt::format("{} ops/s", FormatCount(s.achieved_ops_per_sec))
                           : fmt::format("target {} ops/s, achieved {} ops/s", FormatCount(s.target_rate),
                                         FormatCount(s.achieved_ops_per_sec));
  std::string verdict = !s.error.empty() ? "failed: " + s.error
                        : probe          ? std::string("measured")
                        : s.passed()     ? std::string("passed")
                        : !s.kept_up     ? std::string("did not keep up")
                                         : std::string("missed the SLA");
  return fmt::format("{}: {}, {} {} {}{}: {}", head, what, PercentileName(r.percentile),
                     service ? "service time" : "from intended start", FormatDuration(latency, 3),
                     probe ? "" : fmt::format(", {} late, {} dropped", s.late_operations, s.dropped_operations),
                     verdict);
}

CapacityResult Header(const PhaseIdentity& id, const PhaseSpec& spec, const CapacityPlan& plan) {
  CapacityResult r;
  NamePhase(id, spec.name, r);
  for (const auto& kv : spec.parameters) {
    if (kv.first == kMemoryMethodParameter)
      r.memory_method = kv.second;
    else
      r.parameters.push_back(kv);
  }
  r.threads = spec.threads;
  r.sla = plan.sla.text;
  r.percentile = plan.sla.percentile;
  r.bound_ns = plan.sla.bound_ns;
  r.latency = plan.sla.service_time ? "service" : "intended";
  r.keep_up = plan.keep_up;
  r.resolution = plan.resolution;
  return r;
}

// The note's sentence about steps too short for their percentile, or "".
std::string ShortTailNote(const CapacityResult& r, const CapacityPlan& plan) {
  const double needed = OperationsForPercentile(plan);
  int short_steps = 0;
  for (const CapacityStep& s : r.steps)
    if (s.target_rate > 0 && static_cast<double>(s.operations) < needed) ++short_steps;
  if (short_steps == 0) return "";
  return fmt::format(
      " {} step{} held fewer than the {} operations {} needs ({} beyond it): a rate that low cannot gather "
      "them within {} s.",
      short_steps, short_steps == 1 ? "" : "s", FormatCount(needed), PercentileName(plan.sla.percentile),
      plan.tail_operations, plan.max_step_seconds);
}

// The note's sentence when the harness alone was above the bound, or "".
std::string FloorNote(const CapacityResult& r) {
  if (!(r.harness_floor_ns > r.bound_ns)) return "";
  return fmt::format(
      " The harness alone measured {} {} here (an empty operation at {} ops/s), above the SLA's {}: on this "
      "machine as it was, no engine could meet it (a busy machine wakes threads late).",
      PercentileName(r.percentile), FormatDuration(r.harness_floor_ns, 3), FormatCount(kHarnessFloorRate),
      FormatDuration(r.bound_ns, 3));
}

}  // namespace

double OperationsForPercentile(const CapacityPlan& plan) {
  const double beyond = 1 - plan.sla.percentile / 100;
  // 1 - 99.9 / 100 is a hair below 0.001 in binary: round that hair away before the ceiling.
  return beyond > 0 ? std::ceil(static_cast<double>(plan.tail_operations) / beyond * (1 - 1e-9)) : 0;
}

double StepSeconds(const CapacityPlan& plan, double rate) {
  const double seconds = rate > 0 ? OperationsForPercentile(plan) / rate : plan.min_step_seconds;
  return std::clamp(seconds, plan.min_step_seconds, std::max(plan.min_step_seconds, plan.max_step_seconds));
}

double MinimumRate(const CapacityPlan& plan) {
  const double beyond = 1 - plan.sla.percentile / 100;
  if (!(beyond > 0) || !(plan.max_step_seconds > 0)) return 0;
  return static_cast<double>(plan.min_tail_operations) / beyond / plan.max_step_seconds;
}

uint64_t ScheduledOperations(double rate, uint32_t threads, double seconds) {
  if (!(rate > 0) || threads == 0 || !(seconds > 0)) return 0;
  // The phase runner's own arithmetic: operation n of thread i is due at floor((n + i/T) × period) ns and
  // issued only while that is before floor(seconds × 1e9).
  const double period = 1e9 * threads / rate;
  const uint64_t deadline = static_cast<uint64_t>(seconds * 1e9);
  uint64_t total = 0;
  for (uint32_t i = 0; i < threads; ++i) {
    const double offset = static_cast<double>(i) / threads;
    auto due = [&](uint64_t n) { return static_cast<uint64_t>((static_cast<double>(n) + offset) * period); };
    uint64_t n = static_cast<uint64_t>(std::max(0.0, std::ceil(static_cast<double>(deadline) / period - offset)));
    while (n > 0 && due(n - 1) >= deadline) --n;
    while (due(n) < deadline) ++n;
    total += n;
  }
  return total;
}

CapacitySearch::CapacitySearch(const CapacityPlan& plan, double probe_ops_per_sec)
    : plan_(plan), probe_(probe_ops_per_sec), min_rate_(MinimumRate(plan)) {
  next_ = std::max(Nice(probe_ * plan_.start_fraction, 2), min_rate_);
  if (!(probe_ > 0))
    Finish("the probe measured no throughput: nothing to search");
  else if (probe_ < min_rate_)
    Finish(
        fmt::format("not searched: the closed-loop throughput ({} ops/s) is below the lowest rate a step of {:g} s "
                    "can judge p{:g} at ({} ops/s, {} operations beyond it)",
                    FormatCount(probe_), plan_.max_step_seconds, plan_.sla.percentile, FormatCount(min_rate_),
                    plan_.min_tail_operations));
}

void CapacitySearch::Finish(std::string conclusion) {
  done_ = true;
  conclusion_ = std::move(conclusion);
}

void CapacitySearch::Record(bool passed) {
  if (done_) return;
  const int index = steps_++;
  const double rate = next_;
  if (!passed && !confirming_ && (lower_ > 0 || index == 0)) {
    confirming_ = true;  // the same rate again: it fails only if it misses twice
    return FinishIfOutOfSteps();
  }
  confirming_ = false;
  if (passed && rate > lower_) {
    lower_ = rate;
    lower_step_ = index;
  } else if (!passed && (upper_ == 0 || rate < upper_)) {
    upper_ = rate;
    upper_step_ = index;
  }
  if (bisecting()) {
    if (upper_ / lower_ <= 1 + plan_.resolution + 1e-12)
      return Finish(
          fmt::format("bisected until the failing rate was within {:g} % of the passing one", plan_.resolution * 100));
    next_ = Nice(std::sqrt(lower_ * upper_), 3);
    if (!(next_ > lower_ && next_ < upper_)) next_ = std::sqrt(lower_ * upper_);  // rounding met a bound
  } else if (passed) {
    next_ = rate * 2;
    if (next_ > probe_ * plan_.ceiling_factor)
      return Finish(fmt::format("passed at {} ops/s; the ramp stops above {:g}× the closed-loop throughput",
                                FormatCount(rate), plan_.ceiling_factor));
  } else {
    next_ = rate / 2;
    if (next_ < std::max(probe_ * plan_.floor_fraction, min_rate_))
      return Finish(fmt::format("no rate met the SLA: every step failed, down to {} ops/s", FormatCount(rate)));
  }
  FinishIfOutOfSteps();
}

void CapacitySearch::FinishIfOutOfSteps() {
  if (steps_ >= static_cast<int>(plan_.max_steps))
    Finish(fmt::format("stopped after {} steps, the most a search takes", plan_.max_steps));
}

double MeasureHarnessFloor(const CapacityPlan& plan, const PhaseRunOptions& options) {
  // An operation that does nothing, open loop: what the harness alone takes.
  PhaseSpec spec;
  spec.name = "harness floor";
  spec.op_types = {"empty"};
  spec.target_rate = kHarnessFloorRate;
  spec.duration_seconds = StepSeconds(plan, kHarnessFloorRate);
  spec.warmup_operations = 100;
  EmptyPhase empty(std::move(spec));
  PhaseRunOptions o = options;
  o.keep_raw_latencies = false;
  o.keep_interval_histograms = false;
  PhaseRun run = RunPhase({"harness", "", "", "none", {}}, empty, o);
  const PhaseResult& p = run.result;
  if (p.error_occurred || p.incomplete || p.operations == 0) return 0;
  if (plan.sla.service_time) return static_cast<double>(run.service_time->ValueAtPercentile(plan.sla.percentile));
  return p.latency_from_intended_start ? AtPercentile(*p.latency_from_intended_start, plan.sla.percentile) : 0;
}

CapacityResult RunCapacitySearch(const PhaseIdentity& identity, Phase& phase, const CapacityPlan& plan,
                                 const PhaseRunOptions& options, CapacityProgress progress) {
  auto now = [&] { return options.test_clock != nullptr ? options.test_clock->now_ns() : MonotonicNowNs(); };
  const uint64_t start = now();
  CapacityResult r = Header(identity, phase.spec(), plan);
  const std::string label = JoinNonEmpty({r.suite, r.workload, r.dataset, r.phase, r.engine}, "/");
  r.harness_floor_ns = MeasureHarnessFloor(plan, options);
  // Above the bound, measured once more and the lower kept: as with a step, one stall of the machine
  // must not end the search (on the quiet VM one floor of 1.23 ms left SQLite's mixed-oltp unsearched).
  if (r.harness_floor_ns > plan.sla.bound_ns)
    r.harness_floor_ns = std::min(r.harness_floor_ns, MeasureHarnessFloor(plan, options));
  if (progress.out != nullptr)
    *progress.out << fmt::format("capacity {} harness floor: {} {} {} (an empty operation at {} ops/s)\n", label,
                                 PercentileName(plan.sla.percentile),
                                 plan.sla.service_time ? "service time" : "from intended start",
                                 FormatDuration(r.harness_floor_ns, 3), FormatCount(kHarnessFloorRate))
                  << std::flush;
  auto run = [&](const char* role, double rate, double seconds) {
    // Settled before the probe only: the steps are one sustained load, each with the phase's warm-up.
    RetargetedPhase step(phase, rate, seconds, r.steps.empty());
    r.steps.push_back(Evaluate(RunPhase(identity, step, options), plan, role, rate, seconds));
    r.measured_seconds += r.steps.back().duration_ns / 1e9;
    if (progress.out != nullptr)
      *progress.out << "capacity " << label << " " << StepLine(r, r.steps.back(), r.steps.size() - 1) << "\n"
                    << std::flush;
    return r.steps.back().error.empty();
  };
  std::string conclusion;
  const bool resolvable = !(r.harness_floor_ns > plan.sla.bound_ns);
  if (run("probe", 0, plan.min_step_seconds) && !resolvable) {
    conclusion = "not searched: no rate can meet a bound below the harness's own floor";
  } else if (r.steps.back().error.empty()) {
    CapacitySearch search(plan, r.steps.front().achieved_ops_per_sec);
    while (auto rate = search.next_rate()) {
      if (!run(search.next_role(), *rate, StepSeconds(plan, *rate))) break;
      search.Record(r.steps.back().passed());
    }
    r.capacity_ops_per_sec = search.lower();
    r.lower_step = search.lower_step() < 0 ? -1 : search.lower_step() + 1;  // steps[0] is the probe
    r.upper_step = search.upper_step() < 0 ? -1 : search.upper_step() + 1;
    conclusion = search.conclusion();
  }
  const CapacityStep& last = r.steps.back();
  if (last.error == "interrupted") {
    conclusion = "interrupted";
  } else if (!last.error.empty()) {
    r.error_occurred = true;
    r.error_message = last.error;
    conclusion = "a step failed";
  }
  r.search_seconds = static_cast<double>(now() - start) / 1e9;
  r.note = fmt::format("{} ({} step{}, {:.1f} s measured, {:.1f} s in all).{}{}", conclusion, r.steps.size(),
                       r.steps.size() == 1 ? "" : "s", r.measured_seconds, r.search_seconds, ShortTailNote(r, plan),
                       FloorNote(r));
  return r;
}

std::string CapacitySummaryLine(const CapacityResult& r) {
  const std::string label = JoinNonEmpty({r.suite, r.workload, r.dataset, r.phase, r.engine}, "/");
  if (r.error_occurred) return fmt::format("{}: capacity search FAILED: {}", label, r.error_message);
  std::string bounds;
  if (r.lower_step >= 0) bounds += fmt::format("{} passed", FormatCount(r.steps[r.lower_step].target_rate));
  if (r.upper_step >= 0)
    bounds += fmt::format("{}{} failed", bounds.empty() ? "" : ", ", FormatCount(r.steps[r.upper_step].target_rate));
  const std::string figure = r.capacity_ops_per_sec > 0 ? FormatCount(r.capacity_ops_per_sec) + " ops/s" : "none";
  return fmt::format("{}: capacity at {}: {} ({}{}{} step{}, {:.1f} s)", label, r.sla, figure, bounds,
                     bounds.empty() ? "" : "; ", r.steps.size(), r.steps.size() == 1 ? "" : "s", r.search_seconds);
}

}  // namespace dbxb
