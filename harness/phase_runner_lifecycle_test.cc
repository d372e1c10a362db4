// The phase runner around its measured loop: a failing worker, warm-up or spec, a bad operation index,
// the settle before the workers, and an interrupt.
#include <gtest/gtest.h>

#include <string>

#include "harness/phase_runner.h"
#include "harness/phase_runner_fakes.h"
#include "harness/signal_handlers.h"

namespace dbxb {
namespace {

TEST(PhaseRunner, AFailingWorkerFailsThePhaseNamingTheThread) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(3, 30000);
  c.fail_thread = 1;
  c.fail_at = 50;
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  EXPECT_TRUE(run.result.error_occurred);
  EXPECT_EQ(run.result.error_message, "Corruption: thread 1: wrong value for key_50");
  EXPECT_LT(run.result.operations, 30000u) << "the other threads stop too";
  EXPECT_EQ(counters.finishes.load(), 2) << "Finish on every worker but the failed one";
  EXPECT_EQ(counters.tear_downs, 1);
}

TEST(PhaseRunner, FailureDuringWarmUpStopsBeforeMeasuring) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(2, 100);
  c.spec.warmup_operations = 20;
  c.fail_thread = 0;
  c.fail_at = 5;
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  EXPECT_TRUE(run.result.error_occurred);
  EXPECT_EQ(run.result.operations, 0u);
}

TEST(PhaseRunner, BadOperationIndexIsAnInternalError) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 10);
  c.bad_op_index = true;
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  EXPECT_TRUE(run.result.error_occurred);
  EXPECT_NE(run.result.error_message.find("operation type 7 of 3"), std::string::npos) << run.result.error_message;
}

TEST(PhaseRunner, InvalidSpecOrSetUpFailureIsRecorded) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(1, 0);  // neither count nor duration
  {
    FakePhase phase(c, &counters);
    PhaseRun run = RunPhase({}, phase);
    EXPECT_TRUE(run.result.error_occurred);
    EXPECT_NE(run.result.error_message.find("neither"), std::string::npos) << run.result.error_message;
  }
  c.spec = Spec(0, 10);
  {
    FakePhase phase(c, &counters);
    EXPECT_TRUE(RunPhase({}, phase).result.error_occurred);
  }
  c.spec = Spec(1, 10);
  c.set_up = Status::IOError("disk gone");
  {
    FakePhase phase(c, &counters);
    PhaseRun run = RunPhase({}, phase);
    EXPECT_EQ(run.result.error_message, "IOError: set-up: disk gone");
    EXPECT_EQ(counters.next_op_calls.load(), 0u);
  }
}

TEST(PhaseRunner, SettlesBeforeTheWorkersOnlyWhenTheSpecAsksAndTimesItApart) {
  FakeClock clock;
  PhaseTestClock test_clock = clock.clock;
  PhaseRunOptions options;
  options.test_clock = &test_clock;
  FakePhaseConfig c;
  c.spec = Spec(2, 100);
  c.clock = &clock;
  c.settle_cost_ns = 5'000'000;
  {
    FakeCounters counters;
    FakePhase phase(c, &counters);
    PhaseRun run = RunPhase({}, phase, options);
    ASSERT_FALSE(run.result.error_occurred) << run.result.error_message;
    EXPECT_EQ(counters.settles, 0);
    EXPECT_FALSE(run.result.settle_ns.has_value());
  }
  c.spec.settle = true;
  {
    FakeCounters counters;
    FakePhase phase(c, &counters);
    PhaseRun run = RunPhase({}, phase, options);
    ASSERT_FALSE(run.result.error_occurred) << run.result.error_message;
    EXPECT_EQ(counters.settles, 1);
    EXPECT_TRUE(counters.settled_before_workers);
    ASSERT_TRUE(run.result.settle_ns.has_value());
    EXPECT_EQ(*run.result.settle_ns, 5'000'000.0);
    EXPECT_EQ(run.result.operations, 100u);
    EXPECT_LT(run.result.duration_ns, 5'000'000.0);  // the settle is not measured time
  }
  c.settle = Status::IOError("compaction failed");
  {
    FakeCounters counters;
    FakePhase phase(c, &counters);
    PhaseRun run = RunPhase({}, phase, options);
    EXPECT_TRUE(run.result.error_occurred);
    EXPECT_EQ(run.result.error_message, "IOError: settle: compaction failed");
    EXPECT_EQ(counters.next_op_calls.load(), 0u);
    EXPECT_EQ(counters.tear_downs, 1);
  }
}

TEST(PhaseRunner, InterruptStopsAtAnOperationBoundaryAndMarksIncomplete) {
  FakeCounters counters;
  FakePhaseConfig c;
  c.spec = Spec(2, 100000);
  c.interrupt_at = 100;
  FakePhase phase(c, &counters);
  PhaseRun run = RunPhase({}, phase);
  SetInterruptRequestedForTesting(false);
  EXPECT_FALSE(run.result.error_occurred) << run.result.error_message;
  EXPECT_TRUE(run.result.incomplete);
  EXPECT_LT(run.result.operations, 100000u);
  EXPECT_GE(run.result.operations, 100u);
  EXPECT_EQ(run.result.service_time.count, run.result.operations);
}

}  // namespace
}  // namespace dbxb
