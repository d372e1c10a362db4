#include "compare/verdict.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dbxb {
namespace {

constexpr auto kLower = Direction::kLowerIsBetter;
constexpr auto kHigher = Direction::kHigherIsBetter;

Interval Change(double point, double lower, double upper) { return Interval{point, lower, upper, 0}; }

TEST(Decide, LowerIsBetter) {
  EXPECT_EQ(Decide(Change(0.10, 0.06, 0.14), kLower, 0.05), Verdict::kRegressed);
  EXPECT_EQ(Decide(Change(0.08, 0.04, 0.12), kLower, 0.05), Verdict::kInconclusive);  // may be within 5 %
  EXPECT_EQ(Decide(Change(0.01, -0.02, 0.04), kLower, 0.05), Verdict::kNoRegression);
  EXPECT_EQ(Decide(Change(0.00, -0.02, 0.05), kLower, 0.05), Verdict::kNoRegression);  // the bound may touch X
  EXPECT_EQ(Decide(Change(-0.10, -0.14, -0.06), kLower, 0.05), Verdict::kImproved);
  EXPECT_EQ(Decide(Change(0, 0, 0), kLower, 0), Verdict::kNoRegression);  // exact and unchanged, gate 0
  EXPECT_EQ(Decide(Change(0.01, 0.01, 0.01), kLower, 0), Verdict::kRegressed);
  EXPECT_EQ(Decide(Change(0.0, -1, INFINITY), kLower, 0.05), Verdict::kInconclusive);
  EXPECT_EQ(Decide(Change(NAN, NAN, NAN), kLower, 0.05), Verdict::kInconclusive);
  EXPECT_EQ(Decide(Change(INFINITY, INFINITY, INFINITY), kLower, 0.05), Verdict::kRegressed);  // 0 -> some
}

TEST(Decide, HigherIsBetterRegressesOnADrop) {
  EXPECT_EQ(Decide(Change(-0.20, -0.25, -0.15), kHigher, 0.05), Verdict::kRegressed);
  EXPECT_EQ(Decide(Change(-0.05, -0.08, -0.02), kHigher, 0.05), Verdict::kInconclusive);
  EXPECT_EQ(Decide(Change(0.0, -0.04, 0.04), kHigher, 0.05), Verdict::kNoRegression);
  EXPECT_EQ(Decide(Change(0.2, 0.1, 0.3), kHigher, 0.05), Verdict::kImproved);
}

TEST(DetectableRegression, TheWidthBelowThePointAboveTheGate) {
  // Lower side 4 % below a point of +2 % (on the ratio scale 1.02 / 0.98): detectable from
  // 1.05 x 1.02 / 0.98 - 1 = +9.29 %.
  EXPECT_NEAR(DetectableRegression(Change(0.02, -0.02, 0.06), kLower, 0.05), 1.05 * 1.02 / 0.98 - 1, 1e-12);
  // An exact interval detects anything beyond the gate.
  EXPECT_NEAR(DetectableRegression(Change(0.3, 0.3, 0.3), kLower, 0.05), 0.05, 1e-12);
  // Throughput: the drop it would detect.
  EXPECT_NEAR(DetectableRegression(Change(0, -0.1, 0.1), kHigher, 0.05), 0.95 / 1.1 - 1, 1e-12);
  EXPECT_TRUE(std::isinf(DetectableRegression(Change(0, -1, INFINITY), kLower, 0.05)));
  EXPECT_DOUBLE_EQ(DetectableRegression(Change(0, -1, INFINITY), kHigher, 0.05), -1);
}

TEST(FamilyLevel, BonferroniOverRowsAndLooks) {
  EXPECT_DOUBLE_EQ(FamilyLevel(0.05, 1, 1), 0.9);  // each end a one-sided 5 % test
  EXPECT_DOUBLE_EQ(FamilyLevel(0.05, 10, 1), 0.99);
  EXPECT_DOUBLE_EQ(FamilyLevel(0.05, 10, 4), 1 - 0.1 / 40);
  EXPECT_DOUBLE_EQ(FamilyLevel(0.05, 0, 0), 0.9);
}

TEST(WidenedBy, OnTheRatioScale) {
  const Interval w = WidenedBy(Change(0.1, 0.05, 0.15), 0.1);
  EXPECT_DOUBLE_EQ(w.point, 0.1);
  EXPECT_NEAR(w.lower, 1.05 / 1.1 - 1, 1e-15);
  EXPECT_NEAR(w.upper, 1.15 * 1.1 - 1, 1e-15);
  EXPECT_EQ(WidenedBy(Change(0.1, 0.05, 0.15), 0), Change(0.1, 0.05, 0.15));
}

TEST(VerdictName, Words) {
  EXPECT_STREQ(VerdictName(Verdict::kRegressed), "regressed");
  EXPECT_STREQ(VerdictName(Verdict::kInconclusive), "inconclusive");
  EXPECT_STREQ(VerdictName(Verdict::kNoRegression), "no regression");
  EXPECT_STREQ(VerdictName(Verdict::kImproved), "improved");
}

}  // namespace
}  // namespace dbxb
