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
  auto report = [&](const SamplingProgress& p) {
    if (progress) progress(p);
  };
  SampledRun run;

  // --- Warm-up ---
  const double warmup_target_ns = config.warmup_seconds * 1e9;
  const double warmup_wall_limit_ns = kWallTimeGuardFactor * warmup_target_ns;
  SamplingProgress warming{SamplingProgress::Phase::kWarmingUp, 0, 0, 0, config.warmup_seconds};
  report(warming);
  const double warmup_start = clock->NowNs();
  uint64_t batch = 1;
  for (;;) {
    double elapsed = 0;
    DBXB_RETURN_IF_ERROR(routine.Run(batch, &elapsed));
    DBXB_RETURN_IF_ERROR(CheckElapsed(elapsed, batch));
    run.warmup_ns += elapsed;
    run.warmup_iterations += batch;
    run.warmup_wall_ns = clock->NowNs() - warmup_start;
    warming.elapsed_seconds = run.warmup_wall_ns / 1e9;
    report(warming);
    if (run.warmup_ns > warmup_target_ns) break;
    if (run.warmup_wall_ns > warmup_wall_limit_ns) {
      run.notes.push_back(fmt::format(
          "Warm-up stopped at its wall-time limit ({} x {}) after {} iterations with only {} of timed time: "
          "untimed setup dominates, so iteration counts were planned from wall time per iteration.",
          kWallTimeGuardFactor, Seconds(warmup_target_ns), run.warmup_iterations, Seconds(run.warmup_ns)));
      break;
    }
    if (batch >= kMaxWarmupBatch)
      return Status::InvalidArgument(
          fmt::format("warm-up measured no time after {} iterations", run.warmup_iterations));
    batch *= 2;
    // Do not let one doubled batch overshoot the wall-time limit by much: a routine with slow setup
    // would otherwise warm up for up to twice the limit.
    const double wall_per_iteration = run.warmup_wall_ns / static_cast<double>(run.warmup_iterations);
    if (wall_per_iteration > 0) {
      const double fits = (warmup_wall_limit_ns - run.warmup_wall_ns) / wall_per_iteration;
      batch = std::min(batch, CeilCount(fits));
    }
  }

  const auto warmup_iterations = static_cast<double>(run.warmup_iterations);
  double mean_iteration_ns = run.warmup_wall_ns / warmup_iterations;
  if (!(mean_iteration_ns > 0)) mean_iteration_ns = run.warmup_ns / warmup_iterations;  // a clock that stood still
  if (!(mean_iteration_ns > 0))
    return Status::InvalidArgument(fmt::format("warm-up measured no time in {} iterations", run.warmup_iterations));

  // --- Plan ---
  const double target_ns = config.measurement_seconds * 1e9;
  const uint64_t n = config.sample_count;
  run.mode = config.forced_sampling_mode.value_or(ChooseSamplingMode(mean_iteration_ns, n, target_ns));
  const std::vector<uint64_t> counts = IterationCounts(run.mode, mean_iteration_ns, n, target_ns);
  run.samples_planned = n;
  double planned_iterations = 0;
  for (uint64_t c : counts) planned_iterations += static_cast<double>(c);
  run.expected_measurement_ns = planned_iterations * mean_iteration_ns;
  if (counts.front() == 1 && run.expected_measurement_ns > target_ns) {
    run.notes.push_back(fmt::format(
        "Unable to complete {} samples in {} with {} sampling; expected {}. A longer measurement time{} or {} "
        "samples would fit.",
        n, Seconds(target_ns), run.mode == SamplingMode::kLinear ? "linear" : "flat",
        Seconds(run.expected_measurement_ns), run.mode == SamplingMode::kLinear ? ", flat sampling" : "",
        RecommendedSampleCount(run.mode, mean_iteration_ns, target_ns)));
  }

  // --- Measurement ---
  const double guard_ns = kWallTimeGuardFactor * std::max(target_ns, run.expected_measurement_ns);
  const uint64_t min_samples = std::min(n, kMinSampleCount);
  SamplingProgress measuring{SamplingProgress::Phase::kMeasuring, 0, n, 0, run.expected_measurement_ns / 1e9};
  report(measuring);
  const double measurement_start = clock->NowNs();
  run.samples.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    double elapsed = 0;
    DBXB_RETURN_IF_ERROR(routine.Run(counts[i], &elapsed));
    DBXB_RETURN_IF_ERROR(CheckElapsed(elapsed, counts[i]));
    run.samples.push_back(Sample{counts[i], elapsed});
    run.measurement_wall_ns = clock->NowNs() - measurement_start;
    measuring.samples_done = i + 1;
    measuring.elapsed_seconds = run.measurement_wall_ns / 1e9;
    report(measuring);
    if (i + 1 < n && i + 1 >= min_samples && run.measurement_wall_ns > guard_ns) {
      run.notes.push_back(fmt::format(
          "Measurement stopped after {} of {} samples: its wall time {} exceeded {} x the planned {} (the routine "
          "or its untimed setup got slower than during warm-up). The samples taken are kept.",
          i + 1, n, Seconds(run.measurement_wall_ns), kWallTimeGuardFactor,
          Seconds(std::max(target_ns, run.expected_measurement_ns))));
      break;
    }
  }
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
