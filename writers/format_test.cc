#include "writers/format.h"

#include <gtest/gtest.h>

#include <limits>

namespace dbxb {
namespace {

TEST(FormatDuration, PicksUnitAndSignificantDigits) {
  EXPECT_EQ(FormatDuration(1234567, 4), "1.235 ms");
  EXPECT_EQ(FormatDuration(1203400, 5), "1.2034 ms");
  EXPECT_EQ(FormatDuration(12.5, 4), "12.50 ns");
  EXPECT_EQ(FormatDuration(999, 4), "999.0 ns");
  EXPECT_EQ(FormatDuration(1000, 4), "1.000 µs");
  EXPECT_EQ(FormatDuration(45678.9, 4), "45.68 µs");
  EXPECT_EQ(FormatDuration(123456789, 4), "123.5 ms");
  EXPECT_EQ(FormatDuration(2.5e9, 4), "2.500 s");
  EXPECT_EQ(FormatDuration(1234.6e9, 4), "1235 s");
  EXPECT_EQ(FormatDuration(0.5, 4), "0.5000 ns");
  EXPECT_EQ(FormatDuration(0.01234, 3), "0.0123 ns");
  EXPECT_EQ(FormatDuration(0, 4), "0.000 ns");
}

TEST(FormatDuration, RoundingCarriesIntoNextUnit) {
  EXPECT_EQ(FormatDuration(999.96, 4), "1.000 µs");
  EXPECT_EQ(FormatDuration(999999.9, 4), "1.000 ms");
  EXPECT_EQ(FormatDuration(9.99996, 4), "10.00 ns");
  EXPECT_EQ(FormatDuration(99.996, 5), "99.996 ns");
  EXPECT_EQ(FormatDuration(99.9999, 5), "100.00 ns");
  EXPECT_EQ(FormatCount(0.99996), "1.00");
  EXPECT_EQ(FormatCount(0.099996), "0.100");
}

TEST(FormatDuration, SpecialAndNegativeValues) {
  EXPECT_EQ(FormatDuration(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(FormatDuration(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDuration(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatDuration(-1500, 4), "-1.500 µs");
}

TEST(FormatRate, DecimalPrefixes) {
  EXPECT_EQ(FormatThroughput(8263700), "8.2637 Melem/s");
  EXPECT_EQ(FormatThroughput(950), "950.00 elem/s");
  EXPECT_EQ(FormatThroughput(12345), "12.345 Kelem/s");
  EXPECT_EQ(FormatThroughput(3.2e9), "3.2000 Gelem/s");
  EXPECT_EQ(FormatThroughput(999999.99), "1.0000 Melem/s");
  EXPECT_EQ(FormatRate(1500, "op/s", 3), "1.50 Kop/s");
}

TEST(FormatCount, ThousandsSeparators) {
  EXPECT_EQ(FormatCount(1234567.4), "1,234,567");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(999.6), "1,000");
  EXPECT_EQ(FormatCount(100), "100");
  EXPECT_EQ(FormatCount(123456), "123,456");
  EXPECT_EQ(FormatCount(42.46), "42.5");
  EXPECT_EQ(FormatCount(0.1234), "0.123");
  EXPECT_EQ(FormatCount(-2500), "-2,500");
  EXPECT_EQ(FormatCount(std::numeric_limits<double>::quiet_NaN()), "NaN");
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
