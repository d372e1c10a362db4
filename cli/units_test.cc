#include "cli/units.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "cli/command_result.h"

namespace dbxb {
namespace {

// Each text of `cases` parses to its value: exactly for counts and bytes, to within 4 ULPs for doubles.
template <typename T>
void ExpectParses(Status (*parse)(std::string_view, T*), std::initializer_list<std::pair<const char*, T>> cases) {
  for (const auto& [text, want] : cases) {
    T v{};
    ASSERT_TRUE(parse(text, &v).ok()) << text;
    if constexpr (std::is_integral_v<T>)
      EXPECT_EQ(v, want) << text;
    else
      EXPECT_DOUBLE_EQ(v, want) << text;
  }
}

TEST(ParseCount, AcceptsPlainAndSuffixed) {
  ExpectParses<uint64_t>(ParseCount, {{"10000", 10000}, {"10k", 10000}, {"1M", 1000000}, {"0", 0}});
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
  ExpectParses<uint64_t>(ParseBytes, {{"64MiB", 64ull << 20}, {"1g", 1ull << 30}, {"4096", 4096}});
  uint64_t v = 0;
  EXPECT_TRUE(ParseBytes("12XB", &v).IsInvalidArgument());
  EXPECT_TRUE(ParseBytes("-1", &v).IsInvalidArgument());
  EXPECT_TRUE(ParseBytes("99999999999T", &v).IsInvalidArgument());
}

TEST(ParseDuration, Units) {
  ExpectParses<double>(ParseDuration, {{"5", 5}, {"500ms", 0.5}, {"1.5s", 1.5}, {"2m", 120}});
  double s = 0;
  for (const char* bad : {"5x", "", "-1s", "s", "1..5", "nan", "inf", "9999h"})
    EXPECT_FALSE(ParseDuration(bad, &s).ok()) << bad;
}

TEST(Units, ParseFraction) {
  ExpectParses<double>(ParseFraction, {{"5%", 0.05}, {"0.05", 0.05}, {"2.5%", 0.025}, {"150%", 1.5}});
  double v = 0;
  ASSERT_TRUE(ParseFraction("0", &v).ok());
  EXPECT_EQ(v, 0) << "exactly zero";
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

TEST(Units, AnExponentIsNamedAsTheProblem) {
  double d = 0;
  uint64_t n = 0;
  EXPECT_EQ(ParseDuration("1e3s", &d).message(),
            "'1e3s' is written with an exponent (e3...); write the number out in digits");
  EXPECT_EQ(ParseDurationOption("--measurement", "1E+2", 0, &d).message(),
            "--measurement: '1E+2' is written with an exponent (E+...); write the number out in digits");
  EXPECT_EQ(ParseCount("1e3", &n).message(),
            "'1e3' is written with an exponent (e3...); write the number out in digits");
  EXPECT_EQ(ParseRateOption("--target-rate", "1e400", &d).message(),
            "--target-rate: '1e400' is written with an exponent (e4...); write the number out in digits");
  EXPECT_EQ(ParseDuration("5e", &d).message(), "'5e' has an unknown time unit (use ns, us, ms, s, m or h)");
}

TEST(Units, BytesUpToPebibytes) {
  uint64_t n = 0;
  ASSERT_TRUE(ParseBytes("1PiB", &n).ok());
  EXPECT_EQ(n, uint64_t{1} << 50);
  EXPECT_TRUE(ParseBytes("16384P", &n).IsInvalidArgument()) << "2^64 overflows";
}

TEST(Units, RatesMayBeTinyButNotZero) {
  double d = 0;
  ASSERT_TRUE(ParseRateOption("--target-rate", "0.000000001", &d).ok())
      << "a slow rate is refused by the plan's length";
  EXPECT_DOUBLE_EQ(d, 1e-9);
  EXPECT_EQ(ParseRateOption("--target-rate", "0.0", &d).message(),
            "--target-rate: '0.0' is not a positive rate in operations per second (e.g. 5000, 2.5k)");
  EXPECT_TRUE(ParseRateOption("--target-rate", "-5", &d).IsInvalidArgument());
  EXPECT_TRUE(ParseRateOption("--target-rate", "5x", &d).IsInvalidArgument());
}

TEST(OneLine, EscapesWhatWouldSplitTheLineOrDriveTheTerminal) {
  EXPECT_EQ(OneLine("--out: 'a\nb': No such file"), "--out: 'a\\nb': No such file");
  EXPECT_EQ(OneLine("unknown engine 'null\x1b[31mX'"), "unknown engine 'null\\x1b[31mX'");
  EXPECT_EQ(OneLine(std::string("nul\0byte\t\r\x7f", 11)), "nul\\x00byte\\t\\r\\x7f");
  EXPECT_EQ(OneLine("csi \xc2\x9b"
                    "2J"),
            "csi \\u009b2J")
      << "a C1 control in UTF-8";
  EXPECT_EQ(OneLine("p50 12.3 \xc2\xb5s, 1.05\xc3\x97"), "p50 12.3 \xc2\xb5s, 1.05\xc3\x97") << "other UTF-8 stays";
}

TEST(Units, ListsSplitAndJoin) {
  EXPECT_EQ(SplitList("a,b,,c"), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(SplitList(""), (std::vector<std::string>{""}));
  EXPECT_EQ(JoinList({"a", "b"}), "a, b");
}

}  // namespace
}  // namespace dbxb
