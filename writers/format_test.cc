#include "writers/format.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <string_view>

namespace dbxb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// FormatDuration(ns, digits) == text.
struct DurationCase {
  double ns;
  int digits;
  std::string_view text;
};

void ExpectDurations(std::initializer_list<DurationCase> cases) {
  for (const DurationCase& c : cases)
    EXPECT_EQ(FormatDuration(c.ns, c.digits), c.text) << "FormatDuration(" << c.ns << ", " << c.digits << ")";
}

// format(value) == text, for a formatter of one number.
struct NumberCase {
  double value;
  std::string_view text;
};

template <typename Format>
void ExpectFormats(std::string_view name, Format format, std::initializer_list<NumberCase> cases) {
  for (const NumberCase& c : cases) EXPECT_EQ(format(c.value), c.text) << name << "(" << c.value << ")";
}

TEST(FormatDuration, PicksUnitAndSignificantDigits) {
  ExpectDurations({{1234567, 4, "1.235 ms"},
                   {1203400, 5, "1.2034 ms"},
                   {12.5, 4, "12.50 ns"},
                   {999, 4, "999.0 ns"},
                   {1000, 4, "1.000 µs"},
                   {45678.9, 4, "45.68 µs"},
                   {123456789, 4, "123.5 ms"},
                   {2.5e9, 4, "2.500 s"},
                   {1234.6e9, 4, "1235 s"},
                   {0.5, 4, "0.5000 ns"},
                   {0.01234, 3, "0.0123 ns"},
                   {0, 4, "0.000 ns"}});
}

TEST(FormatDuration, RoundingCarriesIntoNextUnit) {
  ExpectDurations({{999.96, 4, "1.000 µs"},
                   {999999.9, 4, "1.000 ms"},
                   {9.99996, 4, "10.00 ns"},
                   {99.996, 5, "99.996 ns"},
                   {99.9999, 5, "100.00 ns"}});
  ExpectFormats("FormatCount", FormatCount, {{0.99996, "1.00"}, {0.099996, "0.100"}});
}

TEST(FormatDuration, SpecialAndNegativeValues) {
  ExpectFormats("FormatDuration", [](double ns) { return FormatDuration(ns); },
                {{kNaN, "NaN"}, {kInf, "inf"}, {-kInf, "-inf"}});
  EXPECT_EQ(FormatDuration(-1500, 4), "-1.500 µs");
}

TEST(FormatRate, DecimalPrefixes) {
  ExpectFormats("FormatThroughput", [](double per_second) { return FormatThroughput(per_second); },
                {{8263700, "8.2637 Melem/s"},
                 {950, "950.00 elem/s"},
                 {12345, "12.345 Kelem/s"},
                 {3.2e9, "3.2000 Gelem/s"},
                 {999999.99, "1.0000 Melem/s"}});
  EXPECT_EQ(FormatRate(1500, "op/s", 3), "1.50 Kop/s");
}

TEST(FormatCount, ThousandsSeparators) {
  ExpectFormats("FormatCount", FormatCount,
                {{1234567.4, "1,234,567"},
                 {1000, "1,000"},
                 {999.6, "1,000"},
                 {100, "100"},
                 {123456, "123,456"},
                 {42.46, "42.5"},
                 {0.1234, "0.123"},
                 {-2500, "-2,500"},
                 {kNaN, "NaN"}});
}

TEST(FormatInteger, ThousandsSeparators) {
  EXPECT_EQ(FormatInteger(0), "0");
  EXPECT_EQ(FormatInteger(999), "999");
  EXPECT_EQ(FormatInteger(100000), "100,000");
  EXPECT_EQ(FormatInteger(18446744073709551615ull), "18,446,744,073,709,551,615");
}

TEST(FormatPercent, Decimals) {
  EXPECT_EQ(FormatPercent(0.03), "3.00%");
  EXPECT_EQ(FormatPercent(0.12345, 1), "12.3%");
  EXPECT_EQ(FormatPercent(1), "100.00%");
}

TEST(FormatFixedAndBytes, Basics) {
  EXPECT_EQ(FormatFixed(3, 4), "3.0000");
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(16.0 * 1024 * 1024 * 1024), "16.0 GiB");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
}

}  // namespace
}  // namespace dbxb
