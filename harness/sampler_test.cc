// The sampler against a fake routine that reports synthetic times and advances a fake wall clock:
// nothing sleeps and nothing depends on how fast this machine is.
#include "harness/sampler.h"

#include <gtest/gtest.h>

#include <vector>

#include "stats/estimates.h"

namespace dbxb {
namespace {

class FakeClock final : public WallClock {
 public:
  double NowNs() override { return now_ns; }
  double now_ns = 0;
};

// Each iteration costs `timed_ns` of measured time plus `setup_ns` of untimed wall time.
class FakeRoutine final : public Routine {
 public:
  FakeRoutine(FakeClock* clock, double timed_ns, double setup_ns = 0)
      : clock_(clock), timed_ns(timed_ns), setup_ns(setup_ns) {}

  Status Run(uint64_t iterations, double* elapsed_ns) override {
    calls.push_back(iterations);
    if (fail_on_call != 0 && calls.size() == fail_on_call) return Status::IOError("disk on fire");
    const auto n = static_cast<double>(iterations);
    *elapsed_ns += n * timed_ns + extra_ns;
    clock_->now_ns += n * (timed_ns + setup_ns);
    return Status::Ok();
  }

  FakeClock* clock_;
  double timed_ns;
  double setup_ns;
  double extra_ns = 0;      // added to every report (e.g. negative, to test validation)
  size_t fail_on_call = 0;  // 1-based; 0 never fails
  std::vector<uint64_t> calls;
};

SamplingConfig Config(double warmup_s, double measurement_s, uint64_t samples) {
  SamplingConfig c;
  c.warmup_seconds = warmup_s;
  c.measurement_seconds = measurement_s;
  c.sample_count = samples;
  return c;
}

std::vector<uint64_t> Linear(uint64_t n, uint64_t d) {
  std::vector<uint64_t> v;
  for (uint64_t i = 1; i <= n; ++i) v.push_back(i * d);
  return v;
}

std::vector<uint64_t> Counts(const SampledRun& run) {
  std::vector<uint64_t> v;
  for (const Sample& s : run.samples) v.push_back(s.iterations);
  return v;
}

TEST(SamplerTest, WarmupDoublesThenLinearCountsFollowCriterion) {
  FakeClock clock;
  FakeRoutine routine(&clock, 1e6);  // 1 ms per iteration
  Result<SampledRun> r = RunSampling(routine, Config(0.1, 1.0, 10), {}, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // 1 + 2 + ... + 64 = 127 ms is the first total above 100 ms.
  const std::vector<uint64_t> warmup = {1, 2, 4, 8, 16, 32, 64};
  ASSERT_GE(routine.calls.size(), warmup.size());
  EXPECT_EQ(std::vector<uint64_t>(routine.calls.begin(), routine.calls.begin() + 7), warmup);
  EXPECT_EQ(r->warmup_iterations, 127u);
  EXPECT_DOUBLE_EQ(r->warmup_ns, 127e6);
  // d = ceil(1e9 / 1e6 / 55) = 19; 55 * 19 ms = 1.045 s <= 2 s, so linear.
  EXPECT_EQ(r->mode, SamplingMode::kLinear);
  EXPECT_EQ(Counts(*r), Linear(10, 19));
  EXPECT_EQ(std::vector<uint64_t>(routine.calls.begin() + 7, routine.calls.end()), Linear(10, 19));
  EXPECT_DOUBLE_EQ(r->samples[3].total_ns, 4 * 19 * 1e6);
  EXPECT_NEAR(r->expected_measurement_ns, 1.045e9, 1.0);
  EXPECT_TRUE(r->notes.empty());
}

TEST(SamplerTest, FastRoutineWithDefaultsIsLinear) {
  FakeClock clock;
  FakeRoutine routine(&clock, 100);  // 100 ns per iteration
  Result<SampledRun> r = RunSampling(routine, SamplingConfig{}, {}, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->warmup_iterations, (uint64_t{1} << 25) - 1);  // 2^25 - 1 iterations: 3.36 s > 3 s
  EXPECT_EQ(r->mode, SamplingMode::kLinear);
  EXPECT_EQ(Counts(*r), Linear(100, 9901));  // ceil(5e9 / 100 / 5050)
}

TEST(SamplerTest, SlowRoutineIsFlat) {
  FakeClock clock;
  FakeRoutine routine(&clock, 10e6);  // 10 ms per iteration
  Result<SampledRun> r = RunSampling(routine, SamplingConfig{}, {}, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->warmup_iterations, 511u);
  // Linear would need d = 1: 5050 * 10 ms = 50.5 s > 2 * 5 s, so flat with ceil(5e9 / 100 / 1e7) = 5.
  EXPECT_EQ(r->mode, SamplingMode::kFlat);
  EXPECT_EQ(Counts(*r), std::vector<uint64_t>(100, 5));
  EXPECT_TRUE(r->notes.empty());
}

TEST(SamplerTest, ForcedModeOverridesAutoAndNotesWhatDoesNotFit) {
  FakeClock clock;
  FakeRoutine routine(&clock, 10e6);
  SamplingConfig config;
  config.forced_sampling_mode = SamplingMode::kLinear;
  Result<SampledRun> r = RunSampling(routine, config, {}, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->mode, SamplingMode::kLinear);
  EXPECT_EQ(Counts(*r), Linear(100, 1));
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("Unable to complete 100 samples in 5.0 s"), std::string::npos) << r->notes[0];
  EXPECT_NE(r->notes[0].find("expected 50.5 s"), std::string::npos) << r->notes[0];

  FakeRoutine fast(&clock, 100);
  config.forced_sampling_mode = SamplingMode::kFlat;
  r = RunSampling(fast, config, {}, &clock);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mode, SamplingMode::kFlat);
  EXPECT_EQ(Counts(*r), std::vector<uint64_t>(100, 500000));  // 5e9 / 100 / 100
}

TEST(SamplerTest, PlanningFunctions) {
  EXPECT_EQ(ChooseSamplingMode(100, 100, 5e9), SamplingMode::kLinear);
  EXPECT_EQ(ChooseSamplingMode(10e6, 100, 5e9), SamplingMode::kFlat);
  // 5050 runs of 1.98 ms = 10.0 s: just within twice the target; 2.0 ms is not.
  EXPECT_EQ(ChooseSamplingMode(1.98e6, 100, 5e9), SamplingMode::kLinear);
  EXPECT_EQ(ChooseSamplingMode(2.0e6, 100, 5e9), SamplingMode::kFlat);
  EXPECT_EQ(IterationCounts(SamplingMode::kLinear, 1e9, 10, 1e9), Linear(10, 1));  // never zero
  EXPECT_EQ(IterationCounts(SamplingMode::kFlat, 1e9, 10, 1e9), std::vector<uint64_t>(10, 1));
  EXPECT_EQ(IterationCounts(SamplingMode::kFlat, 3, 10, 100), std::vector<uint64_t>(10, 4));  // ceil(10 / 3)
}

TEST(SamplerTest, SlowUntimedSetupIsBoundedByWallTime) {
  FakeClock clock;
  FakeRoutine routine(&clock, 1e3, 1e6);  // 1 us timed, 1 ms of setup per iteration
  Result<SampledRun> r = RunSampling(routine, SamplingConfig{}, {}, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // The timed 3 s would take 50 minutes of wall time; the warm-up stops near 3 x 3 s instead.
  EXPECT_LE(r->warmup_wall_ns, 9e9 + 2e6);
  EXPECT_GT(r->warmup_wall_ns, 9e9);
  EXPECT_LT(r->warmup_ns, 0.1e9);
  ASSERT_FALSE(r->notes.empty());
  EXPECT_NE(r->notes[0].find("Warm-up stopped at its wall-time limit"), std::string::npos) << r->notes[0];
  // Planned from wall time per iteration (1.001 ms): linear with d = 1, about 5 s of wall time.
  EXPECT_EQ(r->mode, SamplingMode::kLinear);
  EXPECT_EQ(Counts(*r), Linear(100, 1));
  EXPECT_NEAR(r->measurement_wall_ns, 5050 * 1.001e6, 1e3);
  EXPECT_DOUBLE_EQ(r->samples[9].total_ns, 10 * 1e3);  // setup excluded
}

TEST(SamplerTest, MeasurementGuardStopsAfterMinimumSamplesAndSaysSo) {
  FakeClock clock;
  FakeRoutine routine(&clock, 1e6);  // 1 ms, no setup during warm-up
  std::vector<SamplingProgress> events;
  auto progress = [&](const SamplingProgress& p) {
    events.push_back(p);
    // From the first sample on, every iteration also needs 100 ms of untimed setup.
    if (p.phase == SamplingProgress::Phase::kMeasuring) routine.setup_ns = 100e6;
  };
  Result<SampledRun> r = RunSampling(routine, Config(0.1, 1.0, 20), progress, &clock);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // Planned: d = ceil(1e9 / 1e6 / 210) = 5, 1.05 s; the guard is 3.15 s, passed after 4 samples, but
  // at least 10 are always taken.
  EXPECT_EQ(r->samples_planned, 20u);
  EXPECT_EQ(Counts(*r), Linear(10, 5));
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("Measurement stopped after 10 of 20 samples"), std::string::npos) << r->notes[0];
  EXPECT_DOUBLE_EQ(r->samples[9].total_ns, 50 * 1e6);  // still valid timed samples

  BenchmarkResult result;
  RecordSampling(*r, &result);
  EXPECT_EQ(result.samples.size(), 10u);
  EXPECT_EQ(result.sampling_notes, r->notes);
  EXPECT_EQ(result.warmup_iterations, 127u);
  EXPECT_EQ(result.sampling_mode, SamplingMode::kLinear);
}

TEST(SamplerTest, ProgressReportsPhasesInOrder) {
  FakeClock clock;
  FakeRoutine routine(&clock, 1e6);
  std::vector<SamplingProgress> events;
  Result<SampledRun> r = RunSampling(
      routine, Config(0.1, 1.0, 10), [&](const SamplingProgress& p) { events.push_back(p); }, &clock);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(events.size(), 1 + 7 + 1 + 10u);  // warm-up start, 7 batches, measuring start, 10 samples
  EXPECT_EQ(events[0].phase, SamplingProgress::Phase::kWarmingUp);
  EXPECT_DOUBLE_EQ(events[0].expected_seconds, 0.1);
  EXPECT_DOUBLE_EQ(events[7].elapsed_seconds, 0.127);
  EXPECT_EQ(events[8].phase, SamplingProgress::Phase::kMeasuring);
  EXPECT_EQ(events[8].samples_done, 0u);
  EXPECT_NEAR(events[8].expected_seconds, 1.045, 1e-9);
  for (size_t i = 9; i < events.size(); ++i) {
    EXPECT_EQ(events[i].samples_done, i - 8);
    EXPECT_EQ(events[i].sample_count, 10u);
    EXPECT_GT(events[i].elapsed_seconds, events[i - 1].elapsed_seconds);
  }
}

TEST(SamplerTest, RoutineErrorsAbortSampling) {
  FakeClock clock;
  FakeRoutine in_warmup(&clock, 1e6);
  in_warmup.fail_on_call = 3;
  Result<SampledRun> r = RunSampling(in_warmup, Config(0.1, 1.0, 10), {}, &clock);
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_EQ(in_warmup.calls.size(), 3u);

  FakeRoutine in_measurement(&clock, 1e6);
  in_measurement.fail_on_call = 7 + 4;  // the 4th sample
  r = RunSampling(in_measurement, Config(0.1, 1.0, 10), {}, &clock);
  EXPECT_TRUE(r.status().IsIOError());
  EXPECT_EQ(r.status().message(), "disk on fire");
  EXPECT_EQ(in_measurement.calls.size(), 11u);
}

TEST(SamplerTest, BadConfigAndBadTimesAreErrors) {
  FakeClock clock;
  FakeRoutine routine(&clock, 1e6);
  EXPECT_TRUE(RunSampling(routine, Config(0.1, 1.0, 9), {}, &clock).status().IsInvalidArgument());
  EXPECT_TRUE(RunSampling(routine, Config(0, 1.0, 10), {}, &clock).status().IsInvalidArgument());
  EXPECT_TRUE(routine.calls.empty());

  FakeRoutine negative(&clock, 1e6);
  negative.extra_ns = -1e9;
  EXPECT_EQ(RunSampling(negative, Config(0.1, 1.0, 10), {}, &clock).status().code(), Status::Code::kInternal);

  // Reports nothing and takes no wall time: the warm-up must give up instead of doubling forever.
  FakeRoutine nothing(&clock, 0);
  EXPECT_TRUE(RunSampling(nothing, Config(0.1, 1.0, 10), {}, &clock).status().IsInvalidArgument());
}

TEST(SamplerTest, SamplesFeedAnalyze) {
  FakeClock clock;
  FakeRoutine routine(&clock, 250);
  Result<SampledRun> r = RunSampling(routine, Config(0.01, 0.05, 10), {}, &clock);
  ASSERT_TRUE(r.ok());
  SamplingConfig analysis;
  analysis.bootstrap_resamples = 500;
  BenchmarkResult result;
  ASSERT_TRUE(Analyze(r->samples, r->mode, 1, analysis, &result).ok());
  ASSERT_TRUE(result.estimates.slope.has_value());
  EXPECT_DOUBLE_EQ(result.estimates.slope->point, 250.0);
  EXPECT_DOUBLE_EQ(result.throughput.point, 4e6);
}

TEST(CallableRoutineTest, RunsBodyAndUntimedSetupPerIteration) {
  int bodies = 0, setups = 0;
  CallableRoutine plain([&] {
    ++bodies;
    return Status::Ok();
  });
  double elapsed = 0;
  ASSERT_TRUE(plain.Run(5, &elapsed).ok());
  EXPECT_EQ(bodies, 5);
  EXPECT_GE(elapsed, 0.0);

  bodies = 0;
  CallableRoutine batched(
      [&] {
        EXPECT_EQ(setups, bodies + 1);  // setup ran just before this body
        ++bodies;
        return Status::Ok();
      },
      [&] {
        ++setups;
        return Status::Ok();
      });
  ASSERT_TRUE(batched.Run(7, &elapsed).ok());
  EXPECT_EQ(bodies, 7);
  EXPECT_EQ(setups, 7);
}

TEST(CallableRoutineTest, FirstErrorStopsTheLoop) {
  int bodies = 0;
  CallableRoutine failing([&] { return ++bodies == 3 ? Status::Corruption("bad value") : Status::Ok(); });
  double elapsed = 0;
  EXPECT_TRUE(failing.Run(10, &elapsed).IsCorruption());
  EXPECT_EQ(bodies, 3);

  int setups = 0;
  bodies = 0;
  CallableRoutine bad_setup(
      [&] {
        ++bodies;
        return Status::Ok();
      },
      [&] { return ++setups == 2 ? Status::IOError("no space") : Status::Ok(); });
  EXPECT_TRUE(bad_setup.Run(10, &elapsed).IsIOError());
  EXPECT_EQ(bodies, 1);

  // Through the sampler: the routine's Status comes back unchanged.
  CallableRoutine always_failing([] { return Status::NotSupported("no scans"); });
  SamplingConfig config;
  EXPECT_TRUE(RunSampling(always_failing, config).status().IsNotSupported());
}

TEST(StopwatchTest, MeasuresForwardTime) {
  Stopwatch watch;
  watch.Start();
  double total = 5;
  watch.AddElapsedTo(&total);
  EXPECT_GE(total, 5.0);  // steady_clock never runs backwards; no assertion on how long it took
  EXPECT_GE(SteadyWallClock()->NowNs(), 0.0);
}

}  // namespace
}  // namespace dbxb
