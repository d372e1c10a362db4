#include "cli/units.h"

#include <gtest/gtest.h>

namespace dbxb {
namespace {

TEST(ParseCount, AcceptsPlainAndSuffixed) {
  uint64_t v = 0;
  ASSERT_TRUE(ParseCount("10000", &v).ok());
  EXPECT_EQ(v, 10000u);
  ASSERT_TRUE(ParseCount("10k", &v).ok());
  EXPECT_EQ(v, 10000u);
  ASSERT_TRUE(ParseCount("1M", &v).ok());
  EXPECT_EQ(v, 1000000u);
  ASSERT_TRUE(ParseCount("0", &v).ok());
  EXPECT_EQ(v, 0u);
}

TEST(ParseCount, RejectsGarbage) {
  uint64_t v = 7;
  for (const char* bad : {"", "-5", "+5", "abc", "5x", "1.5", "99999999999999999999", "20000000000G", "1 0"}) {
    Status s = ParseCount(bad, &v);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad;
  }
  EXPECT_EQ(v, 7u) << "a failed parse must not write the output";
}

TEST(ParseBytes, BinaryUnits) {
  uint64_t v = 0;
  ASSERT_TRUE(ParseBytes("64MiB", &v).ok());
  EXPECT_EQ(v, 64ull << 20);
  ASSERT_TRUE(ParseBytes("1g", &v).ok());
  EXPECT_EQ(v, 1ull << 30);
  ASSERT_TRUE(ParseBytes("4096", &v).ok());
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(ParseBytes("12XB", &v).IsInvalidArgument());
  EXPECT_TRUE(ParseBytes("-1", &v).IsInvalidArgument());
  EXPECT_TRUE(ParseBytes("99999999999T", &v).IsInvalidArgument());
}

TEST(ParseDuration, Units) {
  double s = 0;
  ASSERT_TRUE(ParseDuration("5", &s).ok());
  EXPECT_DOUBLE_EQ(s, 5);
  ASSERT_TRUE(ParseDuration("500ms", &s).ok());
  EXPECT_DOUBLE_EQ(s, 0.5);
  ASSERT_TRUE(ParseDuration("1.5s", &s).ok());
  EXPECT_DOUBLE_EQ(s, 1.5);
  ASSERT_TRUE(ParseDuration("2m", &s).ok());
  EXPECT_DOUBLE_EQ(s, 120);
  for (const char* bad : {"5x", "", "-1s", "s", "1..5", "nan", "inf", "9999h"})
    EXPECT_FALSE(ParseDuration(bad, &s).ok()) << bad;
}

TEST(Units, ParseFraction) {
  double v = 0;
  ASSERT_TRUE(ParseFraction("5%", &v).ok());
  EXPECT_DOUBLE_EQ(v, 0.05);
  ASSERT_TRUE(ParseFraction("0.05", &v).ok());
  EXPECT_DOUBLE_EQ(v, 0.05);
  ASSERT_TRUE(ParseFraction("2.5%", &v).ok());
  EXPECT_DOUBLE_EQ(v, 0.025);
  ASSERT_TRUE(ParseFraction("150%", &v).ok());
  EXPECT_DOUBLE_EQ(v, 1.5);
  ASSERT_TRUE(ParseFraction("0", &v).ok());
  EXPECT_EQ(v, 0);
  for (const char* bad : {"", "%", "5", "-1%", "x%", "5 %", "nan", "inf%", "1e999"})
    EXPECT_TRUE(ParseFraction(bad, &v).IsInvalidArgument()) << bad;
}

TEST(Units, OptionFormsNameTheOptionAndCheckTheRange) {
  uint64_t n = 0;
  ASSERT_TRUE(ParseCountOption("--rounds", "10k", 2, 100000, &n).ok());
  EXPECT_EQ(n, 10000u);
  EXPECT_EQ(ParseCountOption("--rounds", "1", 2, 1000, &n).message(), "--rounds: '1' is out of range (2 to 1000)");
  EXPECT_EQ(ParseCountOption("--rounds", "x", 2, 1000, &n).message().rfind("--rounds: ", 0), 0u);
  double d = 0;
  EXPECT_TRUE(ParseDurationOption("--warmup", "500ms", 0.1, &d).ok());
  EXPECT_DOUBLE_EQ(d, 0.5);
  EXPECT_TRUE(ParseDurationOption("--warmup", "1ms", 0.1, &d).IsInvalidArgument());
  ASSERT_TRUE(ParseRateOption("--target-rate", "2.5k", &d).ok());
  EXPECT_DOUBLE_EQ(d, 2500);
  EXPECT_TRUE(ParseRateOption("--target-rate", "0", &d).IsInvalidArgument());
  EXPECT_EQ(ParseFractionOption("--max-regression", "lots", &d).message().rfind("--max-regression: 'lots'", 0), 0u);
}

TEST(Units, ListsSplitAndJoin) {
  EXPECT_EQ(SplitList("a,b,,c"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(SplitList(""), (std::vector<std::string>{""}));
  EXPECT_EQ(JoinList({"a", "b"}), "a, b");
}

}  // namespace
}  // namespace dbxb
