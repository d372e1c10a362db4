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

}  // namespace
}  // namespace dbxb
