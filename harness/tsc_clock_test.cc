#include "harness/tsc_clock.h"

#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace dbxb {
namespace {

TEST(TscClockMath, ScalesTicksToNanoseconds) {
  const TscClock c(1000, 5'000'000'000ull, 2.5e9);  // 2.5 GHz: 0.4 ns per tick
  EXPECT_EQ(c.TicksToNs(1000), 5'000'000'000ull);
  // One second later, to the fixed-point rate's resolution (0.4 is not a binary fraction).
  EXPECT_NEAR(static_cast<double>(c.TicksToNs(1000 + 2'500'000'000ull)), 6e9, 1.0);
  EXPECT_NEAR(static_cast<double>(c.TicksToNs(1000 + 25)), 5'000'000'010.0, 1.0);
  EXPECT_EQ(c.TicksToNs(0), 5'000'000'000ull);  // before the base: clamped, never wraps
}

TEST(TscClockMath, LongDeltasDoNotOverflow) {
  // One day at 3.7 GHz (3.2e14 ticks): the 64-bit product delta * rate_q32 would overflow 2^64.
  const TscClock c(0, 0, 3.7e9);
  const uint64_t day_ticks = static_cast<uint64_t>(3.7e9 * 86400);
  const double ns = static_cast<double>(c.TicksToNs(day_ticks));
  EXPECT_NEAR(ns, 86400e9, 86400e9 * 1e-9);
}

TEST(TscClockMath, SlowCountersScaleAboveOneNanosecondPerTick) {
  const TscClock c(0, 0, 1e8);  // 10 ns per tick
  EXPECT_EQ(c.TicksToNs(123), 1230u);
}

TEST(TscClock, UsableOrSaysWhyNot) {
  const Status st = TscClock::Usable();
  if (!st.ok()) {
    EXPECT_EQ(st.code(), Status::Code::kNotSupported);
    EXPECT_FALSE(st.message().empty());
    EXPECT_FALSE(TscClock::Calibrate().ok());
  }
}

TEST(TscClock, RejectsTooShortCalibration) {
  if (!TscClock::Usable().ok()) GTEST_SKIP() << TscClock::Usable().ToString();
  EXPECT_FALSE(TscClock::Calibrate(1000).ok());
}

// A correctness check of the calibration, not a performance test: over a sleep the calibrated clock
// and CLOCK_MONOTONIC must measure the same elapsed time (within 1 % plus scheduling slack), and every
// thread must read a non-decreasing clock that agrees with the others' to within the same slack.
TEST(TscClock, TracksTheMonotonicClock) {
  if (!TscClock::Usable().ok()) GTEST_SKIP() << TscClock::Usable().ToString();
  auto clock = TscClock::Calibrate(5'000'000);
  ASSERT_TRUE(clock.ok()) << clock.status().ToString();
  const TscClock& c = clock.value();
  EXPECT_GT(c.ticks_per_second(), 1e7);
  EXPECT_NE(c.Describe().find("MHz"), std::string::npos);

  const uint64_t mono0 = MonotonicNowNs(), tsc0 = c.Now();
  // Readings of the two clocks start within scheduling slack of each other.
  EXPECT_LT(tsc0 > mono0 ? tsc0 - mono0 : mono0 - tsc0, 5'000'000u);
  timespec ts{0, 30'000'000};
  nanosleep(&ts, nullptr);
  const uint64_t mono1 = MonotonicNowNs(), tsc1 = c.Now();
  const double mono_elapsed = static_cast<double>(mono1 - mono0);
  const double tsc_elapsed = static_cast<double>(tsc1 - tsc0);
  EXPECT_NEAR(tsc_elapsed, mono_elapsed, 0.01 * mono_elapsed + 2e6);
}

TEST(TscClock, NonDecreasingOnEveryThread) {
  if (!TscClock::Usable().ok()) GTEST_SKIP() << TscClock::Usable().ToString();
  auto clock = TscClock::Calibrate(2'000'000);
  ASSERT_TRUE(clock.ok()) << clock.status().ToString();
  const TscClock c = clock.value();
  std::atomic<int> backwards{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      uint64_t prev = c.Now();
      for (int i = 0; i < 200'000; ++i) {
        const uint64_t now = c.Now();
        if (now < prev) backwards.fetch_add(1);
        prev = now;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(backwards.load(), 0);
}

}  // namespace
}  // namespace dbxb
