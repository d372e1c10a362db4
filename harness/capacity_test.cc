#include "harness/capacity.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace dbxb {
namespace {

// --- The search alone, on a model engine whose latency at each rate is known in closed form ---

// An M/M/1-like engine: capacity mu ops/s, p99 latency s / (1 - rate / mu) below it; at or above mu it
// cannot keep up (it achieves mu).
struct ModelEngine {
  double mu = 10'000;
  double service_ns = 100'000;
  double Latency(double rate) const {
    return rate < mu ? service_ns / (1 - rate / mu) : std::numeric_limits<double>::infinity();
  }
  bool Passes(const CapacityPlan& plan, double rate) const {
    const bool kept_up = std::min(rate, mu) >= plan.keep_up * rate;
    return kept_up && Latency(rate) <= plan.sla.bound_ns;
  }
};

struct SearchOutcome {
  double lower = 0, upper = 0;
  int steps = 0;
  std::string conclusion;
};

SearchOutcome Search(const CapacityPlan& plan, const ModelEngine& engine, double probe) {
  CapacitySearch search(plan, probe);
  SearchOutcome out;
  while (auto rate = search.next_rate()) {
    search.Record(engine.Passes(plan, *rate));
    ++out.steps;
  }
  out.lower = search.lower();
  out.upper = search.upper();
  out.conclusion = search.conclusion();
  return out;
}

TEST(CapacitySearchTest, FindsTheLatencyKneeWithinItsResolution) {
  CapacityPlan plan;
  plan.sla.bound_ns = 1e6;  // p99 <= 1 ms
  ModelEngine engine;       // the knee: mu (1 - s / B) = 9,000 ops/s
  const double knee = engine.mu * (1 - engine.service_ns / plan.sla.bound_ns);
  SearchOutcome out = Search(plan, engine, engine.mu);
  EXPECT_LE(out.lower, knee);
  EXPECT_GT(out.upper, knee);
  EXPECT_LE(out.upper / out.lower, 1 + plan.resolution + 1e-9);
  EXPECT_NEAR(out.lower, knee, knee * plan.resolution);
  EXPECT_LE(out.steps, 16) << "ramp from mu/8 (4 steps) then bisection from a factor of 2 to 1.05 (5 steps), "
                              "each miss run twice";
  EXPECT_NE(out.conclusion.find("bisected"), std::string::npos) << out.conclusion;
}

// One stall in one step (the first open-loop step, or any once a rate passed) is run again and does not
// cap the search; a rate that misses twice fails. Misses while ramping down below a confirmed one are not
// repeated.
TEST(CapacitySearchTest, AOneOffMissIsRepeatedAndDoesNotCapTheSearch) {
  CapacityPlan plan;
  plan.sla.bound_ns = 1e6;
  ModelEngine engine;
  const double knee = engine.mu * (1 - engine.service_ns / plan.sla.bound_ns);
  const SearchOutcome steady = Search(plan, engine, engine.mu);
  for (int stalled_step : {0, 2, 5}) {
    SCOPED_TRACE(stalled_step);
    CapacitySearch search(plan, engine.mu);
    int step = 0, confirms = 0;
    std::vector<double> rates;
    while (auto rate = search.next_rate()) {
      confirms += std::string(search.next_role()) == "confirm";
      if (std::string(search.next_role()) == "confirm") EXPECT_EQ(*rate, rates.back()) << "the same rate again";
      rates.push_back(*rate);
      search.Record(step++ != stalled_step && engine.Passes(plan, *rate));
    }
    EXPECT_EQ(search.lower(), steady.lower) << "the stall changed nothing";
    EXPECT_GT(search.upper(), knee);
    EXPECT_GE(confirms, 1);
  }
  // Every step misses: only the first is repeated, then the ramp goes down without repeats.
  CapacitySearch never(plan, engine.mu);
  int steps = 0, confirms = 0;
  while (never.next_rate()) {
    confirms += std::string(never.next_role()) == "confirm";
    never.Record(false);
    ++steps;
  }
  EXPECT_EQ(confirms, 1);
  EXPECT_EQ(never.lower(), 0);
}

TEST(CapacitySearchTest, ALooseSlaIsBoundBySaturation) {
  CapacityPlan plan;
  plan.sla.bound_ns = 1e12;  // 1000 s: the latency explodes only as the rate reaches mu
  ModelEngine engine;
  const double knee = engine.mu * (1 - engine.service_ns / plan.sla.bound_ns);
  SearchOutcome out = Search(plan, engine, engine.mu);
  EXPECT_LE(out.lower, knee);
  EXPECT_GT(out.upper, knee);
  EXPECT_LE(out.upper / out.lower, 1 + plan.resolution + 1e-9);
}

TEST(CapacitySearchTest, AFirstFailureRampsDown) {
  CapacityPlan plan;
  plan.sla.bound_ns = 1e6;
  ModelEngine engine;
  engine.mu = 1'000;  // the probe overstated it 64 times: the ramp starts at 8,000, above the knee (900)
  SearchOutcome out = Search(plan, engine, 64'000);
  const double knee = engine.mu * (1 - engine.service_ns / plan.sla.bound_ns);
  EXPECT_LE(out.lower, knee);
  EXPECT_GT(out.upper, knee);
  EXPECT_LE(out.upper / out.lower, 1 + plan.resolution + 1e-9);
}

TEST(CapacitySearchTest, NoRateMeetsAnSlaBelowTheServiceTime) {
  CapacityPlan plan;
  plan.sla.bound_ns = 50'000;  // below the engine's 100 µs service time at any rate
  ModelEngine engine;
  SearchOutcome out = Search(plan, engine, engine.mu);
  EXPECT_EQ(out.lower, 0);
  EXPECT_GT(out.upper, 0);
  const double floor = std::max(engine.mu * plan.floor_fraction, MinimumRate(plan));
  EXPECT_LE(out.upper, 2 * floor) << "it ramped down to the floor";
  EXPECT_GE(out.upper, floor);
  EXPECT_NE(out.conclusion.find("no rate met the SLA"), std::string::npos) << out.conclusion;
}

TEST(CapacitySearchTest, NoRateTooLowForAStepToJudge) {
  CapacityPlan plan;  // p99 in steps of at most 60 s, 10 operations beyond it at least: 16.7 ops/s
  EXPECT_NEAR(MinimumRate(plan), 10 / 0.01 / 60, 1e-9);
  ModelEngine slow;
  slow.mu = 12;  // closed loop, it does fewer operations than a step needs
  CapacitySearch search(plan, slow.mu);
  EXPECT_FALSE(search.next_rate().has_value());
  EXPECT_NE(search.conclusion().find("not searched: the closed-loop throughput (12.0 ops/s) is below"),
            std::string::npos)
      << search.conclusion();
  ModelEngine modest;
  modest.mu = 80;  // an eighth of it is below the minimum: the ramp starts at the minimum
  modest.service_ns = 1e5;
  CapacitySearch from_min(plan, modest.mu);
  EXPECT_DOUBLE_EQ(*from_min.next_rate(), MinimumRate(plan));
}

TEST(CapacitySearchTest, StopsAtMaxSteps) {
  CapacityPlan plan;
  plan.max_steps = 3;
  ModelEngine engine;
  SearchOutcome out = Search(plan, engine, engine.mu);
  EXPECT_EQ(out.steps, 3);
  EXPECT_NE(out.conclusion.find("after 3 steps"), std::string::npos) << out.conclusion;
}

TEST(CapacitySearchTest, StepsAreLongEnoughForTheirPercentile) {
  CapacityPlan plan;  // p99: 100 operations beyond it, so 10,000 per step
  EXPECT_EQ(OperationsForPercentile(plan), 10'000);
  EXPECT_DOUBLE_EQ(StepSeconds(plan, 100'000), plan.min_step_seconds);  // 0.1 s of operations: 2 s
  EXPECT_DOUBLE_EQ(StepSeconds(plan, 1'000), 10);                       // 10,000 operations take 10 s
  EXPECT_DOUBLE_EQ(StepSeconds(plan, 10), plan.max_step_seconds);       // capped
  plan.sla.percentile = 99.9;
  EXPECT_EQ(OperationsForPercentile(plan), 100'000);
}

TEST(CapacitySearchTest, ScheduledOperationsFollowTheRunnersSchedule) {
  EXPECT_EQ(ScheduledOperations(1'000, 1, 2), 2'000u);
  EXPECT_EQ(ScheduledOperations(1'000, 2, 1), 1'000u);
  EXPECT_EQ(ScheduledOperations(3, 1, 1), 3u);  // at 0, 1/3 and 2/3 s
  EXPECT_EQ(ScheduledOperations(0, 1, 1), 0u);
}

// --- The search through the phase runner, on a simulated engine and a fake clock ---

// A clock that only moves when an operation takes time or a thread sleeps.
// `late_ns`: how much later than asked a sleeping thread wakes (a busy machine).
struct FakeClock {
  std::atomic<uint64_t> now{1'000'000'000};
  uint64_t late_ns = 0;
  uint64_t late_until_ns = UINT64_MAX;  // wake-ups asked for from this time on are on time
  PhaseTestClock clock{[this] { return now.load(); },
                       [this](uint64_t t) {
                         if (t < late_until_ns) t += late_ns;
                         uint64_t cur = now.load();
                         while (cur < t && !now.compare_exchange_weak(cur, t)) {
                         }
                       }};
};

// An engine whose every operation takes exactly service_ns: open loop, it keeps up with any rate up to
// 1e9 / service_ns and its latency from the intended start is then service_ns; above, a queue grows.
class FixedServiceWorker final : public PhaseWorker {
 public:
  FixedServiceWorker(FakeClock* clock, uint64_t service_ns) : clock_(clock), service_ns_(service_ns) {}
  Status NextOp(uint32_t* op) override {
    *op = 0;
    clock_->now.fetch_add(service_ns_);
    return Status::Ok();
  }

 private:
  FakeClock* clock_;
  uint64_t service_ns_;
};

class FixedServicePhase final : public Phase {
 public:
  FixedServicePhase(FakeClock* clock, uint64_t service_ns) : clock_(clock), service_ns_(service_ns) {
    spec_.name = "simulated";
    spec_.op_types = {"op"};
    spec_.operations = 1000;
    spec_.warmup_operations = 10;
    spec_.settle = true;  // as a phase after writes
    spec_.parameters = {{"records", "1000"}, {kMemoryMethodParameter, "eviction; 12 of 4096 bytes still cached"}};
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status SetUp() override {
    ++setups;
    return Status::Ok();
  }
  Status Settle() override {
    ++settles;
    return Status::Ok();
  }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t) override {
    return std::unique_ptr<PhaseWorker>(new FixedServiceWorker(clock_, service_ns_));
  }
  int setups = 0;
  int settles = 0;

 private:
  FakeClock* clock_;
  uint64_t service_ns_;
  PhaseSpec spec_;
};

TEST(CapacityRunTest, FindsTheKneeOfASimulatedEngine) {
  FakeClock clock;
  FixedServicePhase phase(&clock, 100'000);  // 100 µs per operation: the knee is 10,000 ops/s
  CapacityPlan plan;
  plan.sla = Sla{99, 500'000, false, "p99<=500us"};
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  CapacityResult r = RunCapacitySearch({"suite", "", "", "sim", {}}, phase, plan, options);
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  ASSERT_GE(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].role, "probe");
  EXPECT_NEAR(r.steps[0].achieved_ops_per_sec, 10'000, 1);
  const double knee = 10'000;
  ASSERT_GE(r.lower_step, 1);
  ASSERT_GE(r.upper_step, 1);
  EXPECT_EQ(r.capacity_ops_per_sec, r.steps[r.lower_step].target_rate);
  EXPECT_LE(r.capacity_ops_per_sec, knee);
  EXPECT_GE(r.capacity_ops_per_sec, knee / (1 + plan.resolution));
  EXPECT_GT(r.steps[r.upper_step].target_rate, knee);
  EXPECT_EQ(phase.setups, static_cast<int>(r.steps.size())) << "every step runs the phase from its set-up";
  EXPECT_EQ(phase.settles, 1) << "settled before the probe only";
  EXPECT_TRUE(r.steps[0].settle_ns.has_value());
  EXPECT_FALSE(r.steps[1].settle_ns.has_value());
  for (size_t i = 1; i < r.steps.size(); ++i) {
    const CapacityStep& s = r.steps[i];
    SCOPED_TRACE(s.target_rate);
    EXPECT_GE(static_cast<double>(s.operations), std::min(OperationsForPercentile(plan), s.target_rate * 2) - 2);
    if (s.target_rate <= knee) {
      EXPECT_TRUE(s.passed());
      EXPECT_EQ(s.from_intended.sla_percentile_ns, 100'000);
      EXPECT_EQ(s.dropped_operations, 0u);
    } else {
      EXPECT_FALSE(s.passed());
      EXPECT_GT(s.late_operations, 0u);
      EXPECT_GT(s.dropped_operations, 0u);
      EXPECT_GT(s.from_intended.sla_percentile_ns, plan.sla.bound_ns);
    }
  }
  EXPECT_NE(r.note.find("steps"), std::string::npos);
  EXPECT_EQ(r.harness_floor_ns, 0) << "on the fake clock an empty operation is on time";
  EXPECT_EQ(r.parameters, (KeyValues{{"records", "1000"}}));
  EXPECT_EQ(r.memory_method, "eviction; 12 of 4096 bytes still cached") << "apart from the parameters";
  EXPECT_EQ(r.note.find("harness alone"), std::string::npos);
  EXPECT_NE(CapacitySummaryLine(r).find("capacity at p99<=500us"), std::string::npos) << CapacitySummaryLine(r);
}

TEST(CapacityRunTest, AMachineThatWakesLateIsNotSearched) {
  FakeClock clock;
  clock.late_ns = 2'000'000;  // every wake-up 2 ms late: the harness alone misses p99<=1ms
  FixedServicePhase phase(&clock, 10'000);
  CapacityPlan plan;
  plan.sla = Sla{99, 1e6, false, "p99<=1ms"};
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  EXPECT_EQ(MeasureHarnessFloor(plan, options), 2e6);
  CapacityResult r = RunCapacitySearch({"suite", "", "", "sim", {}}, phase, plan, options);
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_EQ(r.harness_floor_ns, 2e6);
  ASSERT_EQ(r.steps.size(), 1u) << "the probe only";
  EXPECT_EQ(r.capacity_ops_per_sec, 0);
  EXPECT_NE(r.note.find("not searched"), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("The harness alone measured p99 2.00 ms"), std::string::npos) << r.note;
}

// One late burst during the first floor measurement: measured again, the search runs.
TEST(CapacityRunTest, AFloorLateOnceIsMeasuredAgainAndTheSearchRuns) {
  FakeClock clock;
  CapacityPlan plan;
  plan.sla = Sla{99, 1e6, false, "p99<=1ms"};
  clock.late_ns = 2'000'000;
  clock.late_until_ns = clock.now.load() + static_cast<uint64_t>(StepSeconds(plan, kHarnessFloorRate) * 1e9);
  FixedServicePhase phase(&clock, 10'000);
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  CapacityResult r = RunCapacitySearch({"suite", "", "", "sim", {}}, phase, plan, options);
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  EXPECT_LE(r.harness_floor_ns, 1e6) << "the second measurement";
  EXPECT_GT(r.steps.size(), 1u) << "searched";
  EXPECT_GT(r.capacity_ops_per_sec, 0);
}

TEST(CapacityRunTest, ServiceTimeSlaIgnoresTheQueue) {
  FakeClock clock;
  FixedServicePhase phase(&clock, 100'000);
  CapacityPlan plan;
  plan.sla = Sla{99, 500'000, true, "p99<=500us"};  // service time: 100 µs at any rate
  PhaseRunOptions options;
  options.test_clock = &clock.clock;
  CapacityResult r = RunCapacitySearch({"suite", "", "", "sim", {}}, phase, plan, options);
  ASSERT_FALSE(r.error_occurred) << r.error_message;
  // Only keeping up limits it: up to 10,000 / 0.95.
  EXPECT_GT(r.capacity_ops_per_sec, 10'000);
  EXPECT_LE(r.capacity_ops_per_sec, 10'000 / plan.keep_up);
}

}  // namespace
}  // namespace dbxb
