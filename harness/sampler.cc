#include "harness/sampler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "stats/estimates.h"

namespace dbxb {
namespace {

// Past this a warm-up batch means the routine reports (almost) no time; doubling further would only
// overflow. A routine spending 0.3 ns per iteration fills a 3 s warm-up with ~2^33 iterations.
constexpr uint64_t kMaxWarmupBatch = uint64_t{1} << 40;

// Iteration counts are computed in double; keep them far from where uint64 conversion is undefined.
constexpr double kMaxIterationCount = 1e15;

uint64_t CeilCount(double x) { return static_cast<uint64_t>(std::clamp(std::ceil(x), 1.0, kMaxIterationCount)); }

// "5.0 s", "12.3 ms", "870.0 us", "95 ns": short enough for a note, precise enough at any scale.
std::string Seconds(double ns) {
  if (ns >= 1e9) return fmt::format("{:.1f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.1f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.1f} us", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

Status CheckElapsed(double elapsed_ns, uint64_t iterations) {
  if (!std::isfinite(elapsed_ns) || elapsed_ns < 0)
    return Status::Internal(fmt::format("routine reported {} ns for {} iterations", elapsed_ns, iterations));
  return Status::Ok();
}

// Criterion's suggestion of a sample count that would fit the target (rounded down to tens, >= 10).
uint64_t RecommendedSampleCount(SamplingMode mode, double mean_iteration_ns, double target_ns) {
  const double c = target_ns / mean_iteration_ns;
  const double n = mode == SamplingMode::kLinear ? (-1.0 + std::sqrt(4.0 * c)) / 2.0 : c;
  const auto tens = static_cast<uint64_t>(std::max(0.0, n)) / 10 * 10;
  return std::max(tens, kMinSampleCount);
}

class SteadyClock final : public WallClock {
 public:
  double NowNs() override {
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
};

// Calls `progress`, when the caller gave one.
void NotifyProgress(const ProgressFn& progress, const SamplingProgress& p) {
  if (progress) progress(p);
}

// The note for a warm-up cut short by its wall-time limit.
std::string WarmupWallLimitNote(const SampledRun& run, double warmup_target_ns) {
  return fmt::format(
      "Warm-up stopped at its wall-time limit ({} x {}) after {} iterations with only {} of timed time: "
      "untimed setup dominates, so iteration counts were planned from wall time per iteration.",
      kWallTimeGuardFactor, Seconds(warmup_target_ns), run.warmup_iterations, Seconds(run.warmup_ns));
}

// The warm-up batch after `batch`: twice as many iterations, but not many more than fit before the
// wall-time limit, as a routine with slow setup would otherwise warm up for up to twice the limit.
uint64_t NextWarmupBatch(uint64_t batch, const SampledRun& run, double warmup_wall_limit_ns) {
  batch *= 2;
  const double wall_per_iteration = run.warmup_wall_ns / static_cast<double>(run.warmup_iterations);
  if (wall_per_iteration > 0) {
    const double fits = (warmup_wall_limit_ns - run.warmup_wall_ns) / wall_per_iteration;
    batch = std::min(batch, CeilCount(fits));
  }
  return batch;
}

// Warm-up: runs batches of 1, 2, 4, ... iterations until more than config.warmup_seconds of timed time
// (or the wall-time limit) has passed, and records the warm-up in *run.
Status WarmUp(Routine& routine, const SamplingConfig& config, const ProgressFn& progress, WallClock* clock,
              SampledRun* run) {
  const double warmup_target_ns = config.warmup_seconds * 1e9;
  const double warmup_wall_limit_ns = kWallTimeGuardFactor * warmup_target_ns;
  SamplingProgress warming{SamplingProgress::Phase::kWarmingUp, 0, 0, 0, config.warmup_seconds};
  NotifyProgress(progress, warming);
  const double warmup_start = clock->NowNs();
  uint64_t batch = 1;
  for (;;) {
    double elapsed = 0;
    DBXB_RETURN_IF_ERROR(routine.Run(batch, &elapsed));
    DBXB_RETURN_IF_ERROR(CheckElapsed(elapsed, batch));
    run->warmup_ns += elapsed;
    run->warmup_iterations += batch;
    run->warmup_wall_ns = clock->NowNs() - warmup_start;
    warming.elapsed_seconds = run->warmup_wall_ns / 1e9;
    NotifyProgress(progress, warming);
    if (run->warmup_ns > warmup_target_ns) break;
    if (run->warmup_wall_ns > warmup_wall_limit_ns) {
      run->notes.push_back(WarmupWallLimitNote(*run, warmup_target_ns));
      break;
    }
    if (batch >= kMaxWarmupBatch)
      return Status::InvalidArgument(
          fmt::format("warm-up measured no time after {} iterations", run->warmup_iterations));
    batch = NextWarmupBatch(batch, *run, warmup_wall_limit_ns);
  }
  return Status::Ok();
}

// The mean cost of one iteration in the warm-up: by wall time, or by timed time when the clock stood still.
Status MeanIterationNs(const SampledRun& run, double* mean_iteration_ns) {
  const auto warmup_iterations = static_cast<double>(run.warmup_iterations);
  *mean_iteration_ns = run.warmup_wall_ns / warmup_iterations;
  if (!(*mean_iteration_ns > 0)) *mean_iteration_ns = run.warmup_ns / warmup_iterations;
  if (!(*mean_iteration_ns > 0))
    return Status::InvalidArgument(fmt::format("warm-up measured no time in {} iterations", run.warmup_iterations));
  return Status::Ok();
}

// Plan: chooses the sampling mode and each sample's iteration count, records the plan in *run and notes
// when it cannot fit `target_ns`.
std::vector<uint64_t> PlanSamples(const SamplingConfig& config, double mean_iteration_ns, double target_ns,
                                  SampledRun* run) {
  const uint64_t n = config.sample_count;
  run->mode = config.forced_sampling_mode.value_or(ChooseSamplingMode(mean_iteration_ns, n, target_ns));
  std::vector<uint64_t> counts = IterationCounts(run->mode, mean_iteration_ns, n, target_ns);
  run->samples_planned = n;
  double planned_iterations = 0;
  for (uint64_t c : counts) planned_iterations += static_cast<double>(c);
  run->expected_measurement_ns = planned_iterations * mean_iteration_ns;
  if (counts.front() == 1 && run->expected_measurement_ns > target_ns) {
    run->notes.push_back(fmt::format(
        "Unable to complete {} samples in {} with {} sampling; expected {}. A longer measurement time{} or {} "
        "samples would fit.",
        n, Seconds(target_ns), run->mode == SamplingMode::kLinear ? "linear" : "flat",
        Seconds(run->expected_measurement_ns), run->mode == SamplingMode::kLinear ? ", flat sampling" : "",
        RecommendedSampleCount(run->mode, mean_iteration_ns, target_ns)));
  }
  return counts;
}

// The note for a measurement stopped by its wall-time guard after `taken` of `n` samples.
std::string MeasurementStopNote(const SampledRun& run, uint64_t taken, uint64_t n, double planned_ns) {
  return fmt::format(
      "Measurement stopped after {} of {} samples: its wall time {} exceeded {} x the planned {} (the routine "
      "or its untimed setup got slower than during warm-up). The samples taken are kept.",
      taken, n, Seconds(run.measurement_wall_ns), kWallTimeGuardFactor, Seconds(planned_ns));
}

// Measurement: takes one sample per planned count into *run, stopping early (never before
// kMinSampleCount samples) once the wall time passes its guard.
Status MeasureSamples(Routine& routine, const std::vector<uint64_t>& counts, double target_ns,
                      const ProgressFn& progress, WallClock* clock, SampledRun* run) {
  const uint64_t n = counts.size();
  const double guard_ns = kWallTimeGuardFactor * std::max(target_ns, run->expected_measurement_ns);
  const uint64_t min_samples = std::min(n, kMinSampleCount);
  SamplingProgress measuring{SamplingProgress::Phase::kMeasuring, 0, n, 0, run->expected_measurement_ns / 1e9};
  NotifyProgress(progress, measuring);
  const double measurement_start = clock->NowNs();
  run->samples.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    double elapsed = 0;
    DBXB_RETURN_IF_ERROR(routine.Run(counts[i], &elapsed));
    DBXB_RETURN_IF_ERROR(CheckElapsed(elapsed, counts[i]));
    run->samples.push_back(Sample{counts[i], elapsed});
    run->measurement_wall_ns = clock->NowNs() - measurement_start;
    measuring.samples_done = i + 1;
    measuring.elapsed_seconds = run->measurement_wall_ns / 1e9;
    NotifyProgress(progress, measuring);
    if (i + 1 < n && i + 1 >= min_samples && run->measurement_wall_ns > guard_ns) {
      run->notes.push_back(MeasurementStopNote(*run, i + 1, n, std::max(target_ns, run->expected_measurement_ns)));
      break;
    }
  }
  return Status::Ok();
}

}  // namespace

Routine::~Routine() = default;
WallClock::~WallClock() = default;

Status CallableRoutine::Run(uint64_t iterations, double* elapsed_ns) {
  Stopwatch watch;
  if (!setup_) {
    Status status;
    watch.Start();
    for (uint64_t i = 0; i < iterations && status.ok(); ++i) status = body_();
    watch.AddElapsedTo(elapsed_ns);
    return status;
  }
  for (uint64_t i = 0; i < iterations; ++i) {
    DBXB_RETURN_IF_ERROR(setup_());
    watch.Start();
    Status status = body_();
    watch.AddElapsedTo(elapsed_ns);
    DBXB_RETURN_IF_ERROR(status);
  }
  return Status::Ok();
}

WallClock* SteadyWallClock() {
  static SteadyClock clock;
  return &clock;
}

SamplingMode ChooseSamplingMode(double mean_iteration_ns, uint64_t sample_count, double target_ns) {
  const double total_runs = static_cast<double>(sample_count) * static_cast<double>(sample_count + 1) / 2.0;
  const double d = std::ceil(target_ns / mean_iteration_ns / total_runs);
  const double expected_ns = total_runs * d * mean_iteration_ns;
  return expected_ns > 2.0 * target_ns ? SamplingMode::kFlat : SamplingMode::kLinear;
}

std::vector<uint64_t> IterationCounts(SamplingMode mode, double mean_iteration_ns, uint64_t sample_count,
                                      double target_ns) {
  const auto n = static_cast<double>(sample_count);
  std::vector<uint64_t> counts(sample_count);
  if (mode == SamplingMode::kLinear) {
    // Solve (d + 2d + ... + nd) * mean = target for d.
    const uint64_t d = CeilCount(target_ns / mean_iteration_ns / (n * (n + 1) / 2.0));
    for (uint64_t i = 0; i < sample_count; ++i) counts[i] = (i + 1) * d;
  } else {
    std::fill(counts.begin(), counts.end(), CeilCount(target_ns / n / mean_iteration_ns));
  }
  return counts;
}

Result<SampledRun> RunSampling(Routine& routine, const SamplingConfig& config, const ProgressFn& progress,
                               WallClock* clock) {
  DBXB_RETURN_IF_ERROR(ValidateSamplingConfig(config));
  if (clock == nullptr) clock = SteadyWallClock();
  SampledRun run;
  DBXB_RETURN_IF_ERROR(WarmUp(routine, config, progress, clock, &run));
  double mean_iteration_ns = 0;
  DBXB_RETURN_IF_ERROR(MeanIterationNs(run, &mean_iteration_ns));
  const double target_ns = config.measurement_seconds * 1e9;
  const std::vector<uint64_t> counts = PlanSamples(config, mean_iteration_ns, target_ns, &run);
  DBXB_RETURN_IF_ERROR(MeasureSamples(routine, counts, target_ns, progress, clock, &run));
  return run;
}

void RecordSampling(const SampledRun& run, BenchmarkResult* out) {
  out->sampling_mode = run.mode;
  out->warmup_iterations = run.warmup_iterations;
  out->warmup_ns = run.warmup_ns;
  out->samples = run.samples;
  out->sampling_notes = run.notes;
}

}  // namespace dbxb
