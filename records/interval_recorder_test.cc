#include "records/interval_recorder.h"

#include <gtest/gtest.h>

namespace dbxb {
namespace {

constexpr uint64_t kSec = IntervalRecorder::kOneSecondNs;
constexpr uint64_t kStart = 5 * kSec + 123;  // an arbitrary clock origin

TEST(IntervalRecorderTest, PutsEachCompletionInItsSecond) {
  IntervalRecorder r(kStart);
  for (int i = 0; i < 100; ++i) r.Record(kStart + i * (kSec / 100), 1000);  // second 0: 100 ops of 1 us
  for (int i = 0; i < 50; ++i) r.Record(kStart + kSec + i, 2000);           // second 1: 50 ops of 2 us
  r.Record(kStart + 3 * kSec + 1, 1'000'000);                               // second 3: 1 op; second 2 empty
  ASSERT_EQ(r.IntervalCount(), 4u);
  const auto series = r.Series();
  ASSERT_EQ(series.size(), 4u);
  EXPECT_EQ(series[0].operations, 100u);
  EXPECT_DOUBLE_EQ(series[0].ops_per_sec, 100.0);
  EXPECT_EQ(series[0].p99_ns, 1000u);
  EXPECT_EQ(series[1].operations, 50u);
  EXPECT_EQ(series[1].p50_ns, 2000u);
  EXPECT_DOUBLE_EQ(series[1].start_s, 1.0);
  EXPECT_EQ(series[2].operations, 0u);
  EXPECT_EQ(series[3].operations, 1u);
  EXPECT_EQ(series[3].max_ns, 1'000'000u);
}

TEST(IntervalRecorderTest, BoundariesAreHalfOpen) {
  IntervalRecorder r(kStart);
  r.Record(kStart + kSec - 1, 1);
  r.Record(kStart + kSec, 2);
  r.Record(kStart - 10, 3);  // before the start: counted in interval 0
  ASSERT_EQ(r.IntervalCount(), 2u);
  EXPECT_EQ(r.Interval(0).Count(), 2u);
  EXPECT_EQ(r.Interval(1).Count(), 1u);
  EXPECT_EQ(r.Interval(1).Min(), 2u);
  // Going back to an earlier interval (out-of-order completions across threads' clocks) still works.
  r.Record(kStart + 10, 4);
  EXPECT_EQ(r.Interval(0).Count(), 3u);
}

TEST(IntervalRecorderTest, P99PerIntervalFollowsTheLatencyShift) {
  IntervalRecorder r(kStart);
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < 1000; ++i) {
      const uint64_t latency = (s == 1 && i % 10 == 0) ? 500'000 : 10'000;  // second 1: 10 % slow ops
      r.Record(kStart + s * kSec + i * 1000, latency);
    }
  }
  const auto series = r.Series();
  ASSERT_EQ(series.size(), 3u);
  EXPECT_NEAR(static_cast<double>(series[0].p99_ns), 10'000.0, 100.0);
  EXPECT_NEAR(static_cast<double>(series[1].p99_ns), 500'000.0, 5'000.0);
  EXPECT_NEAR(static_cast<double>(series[2].p99_ns), 10'000.0, 100.0);
}

TEST(IntervalRecorderTest, ReservePreallocatesWithoutChangingResults) {
  IntervalRecorder r(kStart);
  r.Reserve(10);
  EXPECT_EQ(r.IntervalCount(), 10u);
  r.Record(kStart + 2 * kSec, 7);
  EXPECT_EQ(r.IntervalCount(), 10u);
  EXPECT_EQ(r.Interval(2).Count(), 1u);
  EXPECT_EQ(r.Interval(0).Count(), 0u);
}

TEST(IntervalRecorderTest, MergeAddsIntervalByInterval) {
  IntervalRecorder a(kStart), b(kStart), all(kStart);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t now = kStart + static_cast<uint64_t>(i) * 997'000;  // about 5 s of completions
    const uint64_t latency = 1000 + (i * 7919) % 100000;
    (i % 2 ? a : b).Record(now, latency);
    all.Record(now, latency);
  }
  b.Record(kStart + 9 * kSec, 42);  // b runs longer than a
  all.Record(kStart + 9 * kSec, 42);
  ASSERT_TRUE(a.Merge(b).ok());
  ASSERT_EQ(a.IntervalCount(), all.IntervalCount());
  const auto merged = a.Series(), expected = all.Series();
  for (size_t i = 0; i < merged.size(); ++i) {
    EXPECT_EQ(merged[i].operations, expected[i].operations) << i;
    EXPECT_EQ(merged[i].p50_ns, expected[i].p50_ns) << i;
    EXPECT_EQ(merged[i].p99_ns, expected[i].p99_ns) << i;
    EXPECT_EQ(merged[i].max_ns, expected[i].max_ns) << i;
  }
  // Recording after a merge still lands in the right place.
  a.Record(kStart + 1, 5);
  EXPECT_EQ(a.Interval(0).Count(), all.Interval(0).Count() + 1);
}

TEST(IntervalRecorderTest, MergeRejectsMisalignedRecorders) {
  IntervalRecorder a(kStart), other_start(kStart + 1), other_len(kStart, kSec / 10);
  EXPECT_TRUE(a.Merge(other_start).IsInvalidArgument());
  EXPECT_TRUE(a.Merge(other_len).IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
