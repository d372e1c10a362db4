// Number formatting shared by every human-facing reporter (console, Markdown), so that one number
// reads the same everywhere. Pure functions of their arguments; locale-independent.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dbxb {

/// A duration given in nanoseconds, in the largest of ns, µs, ms, s that keeps the value >= 1, with
/// `significant_digits` significant digits: FormatDuration(1234567, 4) == "1.235 ms",
/// FormatDuration(1234567, 5) == "1.2346 ms" (Criterion's style). Values below 1 ns stay in ns
/// ("0.500 ns"); values of 1000 s and more keep all their integer digits ("1234 s").
/// NaN reads "NaN", infinities "inf" / "-inf"; negative values get a leading '-'.
/// REQUIRES: significant_digits >= 1.
std::string FormatDuration(double ns, int significant_digits = 4);

/// A rate with a decimal (1000-based) prefix: FormatRate(8263700, "elem/s", 5) == "8.2637 Melem/s".
/// Prefixes: none, K, M, G, T. Same digit rules and special values as FormatDuration.
std::string FormatRate(double per_second, std::string_view unit, int significant_digits = 5);

/// Elements per second in Criterion's words: FormatThroughput(8263700) == "8.2637 Melem/s".
std::string FormatThroughput(double elements_per_second, int significant_digits = 5);

/// A number rounded to an integer with thousands separators: 1234567.4 -> "1,234,567".
/// Values below 100 in magnitude keep 3 significant digits instead ("42.5", "0.123"), since rounding
/// them to an integer would lose the number. NaN and infinities as in FormatDuration.
std::string FormatCount(double value);

/// An integer with thousands separators: 100000 -> "100,000".
std::string FormatInteger(uint64_t value);

/// A fraction as a percentage: FormatPercent(0.03) == "3.00%".
std::string FormatPercent(double fraction, int decimals = 2);

/// A value with a fixed number of decimals ("3.0000"), for seconds in progress lines and settings.
std::string FormatFixed(double value, int decimals);

/// A byte count in binary units: 17179869184 -> "16.0 GiB", 512 -> "512 B".
std::string FormatBytes(double bytes);

}  // namespace dbxb
