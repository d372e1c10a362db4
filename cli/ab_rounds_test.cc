#include "cli/ab_rounds.h"

#include <gtest/gtest.h>

#include <vector>

#include "cli/ab_command.h"

namespace dbxb {
namespace {

TEST(SequentialLooks, GrowByHalfInWholeAbbaPairsAndEndAtTheBudget) {
  EXPECT_EQ(SequentialLooks(20), (std::vector<size_t>{6, 10, 16, 20}));
  EXPECT_EQ(SequentialLooks(30), (std::vector<size_t>{6, 10, 16, 24, 30}));
  EXPECT_EQ(SequentialLooks(16), (std::vector<size_t>{6, 10, 16}));
  EXPECT_EQ(SequentialLooks(6), (std::vector<size_t>{6}));
  EXPECT_EQ(SequentialLooks(4), (std::vector<size_t>{4}));  // fewer than 6: one look at the budget
  EXPECT_EQ(SequentialLooks(2), (std::vector<size_t>{2}));
}

TEST(LookEndsRounds, WhenEveryRowIsDecidedOrOneRegressed) {
  ComparisonReport report;
  report.rows.resize(2);
  report.rows[0].verdict = Verdict::kNoRegression;
  report.rows[1].verdict = Verdict::kInconclusive;
  EXPECT_FALSE(LookEndsRounds(report));  // a row is open and nothing failed: more rounds
  report.rows[1].verdict = Verdict::kNoRegression;
  EXPECT_TRUE(LookEndsRounds(report));  // all decided
  report.rows[0].verdict = Verdict::kRegressed;
  report.rows[1].verdict = Verdict::kInconclusive;
  EXPECT_TRUE(LookEndsRounds(report));                // the gate's answer is known
  report.rows[0].outcome = Outcome::kOnlyInBaseline;  // not compared: its verdict does not count
  EXPECT_FALSE(LookEndsRounds(report));
}

TEST(NextRunTimeout, FromTheFlagOrTheSlowestFinishedRun) {
  EXPECT_DOUBLE_EQ(NextRunTimeout(0, 0), kFirstRunTimeoutSeconds);
  EXPECT_DOUBLE_EQ(NextRunTimeout(0, 5), kMinRunTimeoutSeconds);  // 5 x 5 s is below a minute
  EXPECT_DOUBLE_EQ(NextRunTimeout(0, 100), 500);
  EXPECT_DOUBLE_EQ(NextRunTimeout(42, 100), 42);  // --round-timeout wins
}

TEST(AbRounds, AbbaOrder) {
  EXPECT_TRUE(BaselineFirst(0));
  EXPECT_FALSE(BaselineFirst(1));
  EXPECT_TRUE(BaselineFirst(2));
}

TEST(RunArgValue, BothSpellings) {
  EXPECT_EQ(RunArgValue({"--suite", "dbx-micro", "--measure", "instructions"}, "--measure"), "instructions");
  EXPECT_EQ(RunArgValue({"--measure=instructions"}, "--measure"), "instructions");
  EXPECT_EQ(RunArgValue({"--measures", "x"}, "--measure"), "");
  EXPECT_EQ(RunArgValue({"--measure"}, "--measure"), "");
}

}  // namespace
}  // namespace dbxb
