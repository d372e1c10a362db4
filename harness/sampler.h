// Criterion-style sampling of one routine: warm-up, choice of linear or flat sampling, the samples.
//
// The method (Criterion.rs's, reproduced; RunSampling documents our additions for slow setup):
//  1. Warm-up: run the routine 1, 2, 4, 8, ... iterations until more than warmup_seconds of timed
//     time have been spent. The warm-up gives the mean cost of one iteration.
//  2. Plan: with m the mean cost of an iteration, n samples and a measurement target T,
//     linear sampling runs sample i (1..n) with i * d iterations, d = max(1, ceil(T / m / (n(n+1)/2)));
//     flat sampling runs every sample with k = max(1, ceil(T / n / m)) iterations.
//     Auto mode picks linear unless n(n+1)/2 * ceil(T / m / (n(n+1)/2)) * m > 2T, i.e. unless even
//     d = 1 would take more than twice the target, and then flat.
//  3. Measure: run the planned iteration counts, one sample each.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "records/result.h"

namespace dbxb {

/// Times a stretch of code with std::chrono::steady_clock, for routines to time their measured body
/// and nothing else. Not thread-safe; cheap to create.
class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts (or restarts) timing.
  void Start() { start_ = Clock::now(); }

  /// Nanoseconds since the last Start().
  double ElapsedNs() const { return std::chrono::duration<double, std::nano>(Clock::now() - start_).count(); }

  /// Adds the nanoseconds since the last Start() to *total_ns.
  void AddElapsedTo(double* total_ns) const { *total_ns += ElapsedNs(); }

 private:
  Clock::time_point start_ = Clock::now();
};

/// The code under measurement. It times itself so that per-iteration setup (a fresh database, as with
/// Criterion's iter_batched) stays outside the timed region. A routine without setup should time its
/// whole loop once rather than each iteration (a clock read costs tens of nanoseconds).
class Routine {
 public:
  virtual ~Routine();

  /// Runs the measured body `iterations` times and adds the timed nanoseconds (setup excluded) to
  /// *elapsed_ns. A non-OK Status aborts sampling; RunSampling returns it.
  [[nodiscard]] virtual Status Run(uint64_t iterations, double* elapsed_ns) = 0;
};

/// A Routine made of callables, in the manner of Criterion's iter and iter_batched(PerIteration):
/// without `setup` the whole loop of `body` calls is timed at once; with it, `setup` runs untimed
/// before each iteration and only each `body` call is timed (two clock reads per iteration, so keep
/// the no-setup form for bodies of a few nanoseconds). The first non-OK Status of either aborts Run and
/// is returned; the time of the iterations already done is still added.
class CallableRoutine final : public Routine {
 public:
  using Step = std::function<Status()>;
  explicit CallableRoutine(Step body, Step setup = nullptr) : body_(std::move(body)), setup_(std::move(setup)) {}
  [[nodiscard]] Status Run(uint64_t iterations, double* elapsed_ns) override;

 private:
  Step body_;
  Step setup_;
};

/// The sampler's source of wall time (timed plus untimed), injectable so that tests can simulate slow
/// setup without sleeping.
class WallClock {
 public:
  virtual ~WallClock();
  /// Nanoseconds since an arbitrary fixed origin; never decreases.
  virtual double NowNs() = 0;
};

/// The process-wide steady_clock WallClock. Thread-safe.
WallClock* SteadyWallClock();

/// What the sampler is doing, for a console progress line.
struct SamplingProgress {
  enum class Phase { kWarmingUp, kMeasuring };
  Phase phase = Phase::kWarmingUp;
  uint64_t samples_done = 0;    ///< measuring: samples taken so far (0 when the phase starts)
  uint64_t sample_count = 0;    ///< measuring: samples planned
  double elapsed_seconds = 0;   ///< wall time since the phase began
  double expected_seconds = 0;  ///< warming up: the warm-up target; measuring: the planned wall time
};

/// Called when each phase starts and after every warm-up batch and every sample.
using ProgressFn = std::function<void(const SamplingProgress&)>;

/// Everything a sampling run produced.
struct SampledRun {
  SamplingMode mode = SamplingMode::kLinear;
  uint64_t warmup_iterations = 0;
  double warmup_ns = 0;       ///< timed
  double warmup_wall_ns = 0;  ///< timed plus untimed
  uint64_t samples_planned = 0;
  std::vector<Sample> samples;         ///< in the order taken; may stop short of samples_planned
  double expected_measurement_ns = 0;  ///< planned wall time of the measurement
  double measurement_wall_ns = 0;
  std::vector<std::string> notes;  ///< caveats, one sentence each (see RunSampling)
};

/// Ratio of wall time to target at which a phase is cut short (see RunSampling).
inline constexpr double kWallTimeGuardFactor = 3.0;

/// Criterion's Auto choice for a mean iteration cost `mean_iteration_ns`. REQUIRES: positive arguments.
SamplingMode ChooseSamplingMode(double mean_iteration_ns, uint64_t sample_count, double target_ns);

/// The iteration count of each of `sample_count` samples (see the method above). Every count is >= 1.
/// REQUIRES: positive arguments.
std::vector<uint64_t> IterationCounts(SamplingMode mode, double mean_iteration_ns, uint64_t sample_count,
                                      double target_ns);

/// Samples `routine` as described at the top of this file, with two additions for routines whose
/// untimed setup dominates (Criterion has the same concern: its warm-up times iter_batched routines by
/// wall clock):
///  - Warm-up also ends once its wall time exceeds kWallTimeGuardFactor x warmup_seconds (the last
///    batch is shortened to fit), with a note.
///  - The plan uses the warm-up's *wall* time per iteration, so that the measurement takes about
///    measurement_seconds of wall time even when setup is slow. The recorded warm-up mean
///    (warmup_ns / warmup_iterations) is the timed one.
///  - Measurement stops early once its wall time exceeds kWallTimeGuardFactor x the larger of
///    measurement_seconds and the planned time (the routine got slower than its warm-up), but never
///    before kMinSampleCount samples; the samples taken are kept and a note says how many of how
///    many.
/// config.forced_sampling_mode overrides the Auto choice. When the plan cannot fit the target (d = 1
/// or k = 1), a note says so, as Criterion warns. `progress` may be empty. `clock` defaults to
/// SteadyWallClock().
/// Errors: InvalidArgument for an unusable config (ValidateSamplingConfig) and when the warm-up
/// measures no time at all; Internal when the routine reports a negative or non-finite time;
/// otherwise the routine's own Status.
Result<SampledRun> RunSampling(Routine& routine, const SamplingConfig& config, const ProgressFn& progress = {},
                               WallClock* clock = nullptr);

/// Copies the sampling mode, warm-up, samples and notes of `run` into *out.
void RecordSampling(const SampledRun& run, BenchmarkResult* out);

}  // namespace dbxb
