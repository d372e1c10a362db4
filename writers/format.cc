#include "writers/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace dbxb {
namespace {

// Special values get fixed words so that a broken estimate is visible instead of formatting as
// garbage; returns true when `value` was one.
bool FormatSpecial(double value, std::string* out) {
  if (std::isnan(value)) {
    *out = "NaN";
    return true;
  }
  if (std::isinf(value)) {
    *out = value > 0 ? "inf" : "-inf";
    return true;
  }
  return false;
}

size_t IntegerDigits(const std::string& s) {
  size_t dot = s.find('.');
  return dot == std::string::npos ? s.size() : dot;
}

// Digits from the first non-zero one on: "0.01230" has 4.
int SignificantDigitsIn(const std::string& s) {
  int n = 0;
  bool started = false;
  for (char c : s) {
    if (c < '0' || c > '9') continue;
    if (c != '0') started = true;
    if (started) ++n;
  }
  return n;
}

// Formats non-negative `x` with `significant` significant digits, but never fewer than all its
// integer digits and never more than 12 decimals.
std::string FormatSignificant(double x, int significant) {
  int digits = x > 0 ? static_cast<int>(std::floor(std::log10(x))) + 1 : 1;
  int decimals = std::min(12, std::max(0, significant - digits));
  std::string s = fmt::format("{:.{}f}", x, decimals);
  // Rounding can add a digit (9.99996 -> "10.0000"), and log10 can be off by one next to a power
  // of ten; drop one decimal to stay at `significant` digits.
  if (decimals > 0 && SignificantDigitsIn(s) > significant) s = fmt::format("{:.{}f}", x, decimals - 1);
  return s;
}

struct Unit {
  double scale;
  const char* name;
};

// Picks the largest unit keeping the scaled value >= 1, then moves up one unit if rounding made it
// reach the next unit's scale ("1000.0 µs" -> "1.000 ms").
std::string FormatScaled(double value, const Unit* units, size_t n, int significant, std::string_view suffix) {
  std::string special;
  if (FormatSpecial(value, &special)) return special;
  std::string sign = value < 0 ? "-" : "";
  double v = std::fabs(value);
  size_t u = 0;
  while (u + 1 < n && v >= units[u + 1].scale) ++u;
  std::string number = FormatSignificant(v / units[u].scale, significant);
  if (u + 1 < n && IntegerDigits(number) > 3 && units[u + 1].scale / units[u].scale == 1000) {
    ++u;
    number = FormatSignificant(v / units[u].scale, significant);
  }
  return fmt::format("{}{} {}{}", sign, number, units[u].name, suffix);
}

std::string WithThousandsSeparators(const std::string& digits) {
  std::string out;
  size_t n = digits.size();
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string FormatDuration(double ns, int significant_digits) {
  static const Unit kUnits[] = {{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
  return FormatScaled(ns, kUnits, 4, significant_digits, "");
}

std::string FormatRate(double per_second, std::string_view unit, int significant_digits) {
  static const Unit kPrefixes[] = {{1, ""}, {1e3, "K"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}};
  return FormatScaled(per_second, kPrefixes, 5, significant_digits, unit);
}

std::string FormatThroughput(double elements_per_second, int significant_digits) {
  return FormatRate(elements_per_second, "elem/s", significant_digits);
}

std::string FormatCount(double value) {
  std::string special;
  if (FormatSpecial(value, &special)) return special;
  std::string sign = value < 0 ? "-" : "";
  double v = std::fabs(value);
  if (v < 99.5) return sign + FormatSignificant(v, 3);
  return sign + WithThousandsSeparators(fmt::format("{:.0f}", v));
}

std::string FormatInteger(uint64_t value) { return WithThousandsSeparators(std::to_string(value)); }

std::string FormatPercent(double fraction, int decimals) {
  std::string special;
  if (FormatSpecial(fraction, &special)) return special;
  return fmt::format("{:.{}f}%", fraction * 100, decimals);
}

std::string FormatFixed(double value, int decimals) {
  std::string special;
  if (FormatSpecial(value, &special)) return special;
  return fmt::format("{:.{}f}", value, decimals);
}

std::string FormatBytes(double bytes) {
  std::string special;
  if (FormatSpecial(bytes, &special)) return special;
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = bytes;
  size_t u = 0;
  while (u + 1 < 5 && std::fabs(v) >= 1024) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{:.0f} B", v);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

}  // namespace dbxb
