#include "cli/units.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace dbxb {
namespace {

std::string Quote(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits "123.5ms" into the number "123.5" and the unit "ms". Rejects empty numbers and signs.
Status SplitNumber(std::string_view text, bool allow_fraction, std::string_view* number, std::string_view* unit) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || (allow_fraction && text[i] == '.')))
    ++i;
  *number = text.substr(0, i);
  *unit = text.substr(i);
  if (number->empty()) {
    if (!text.empty() && (text[0] == '-' || text[0] == '+'))
      return Status::InvalidArgument(Quote(text) + " must not be signed");
    return Status::InvalidArgument(Quote(text) + " is not a number");
  }
  return Status::Ok();
}

Status ScaleInteger(std::string_view text, std::string_view number, uint64_t scale, uint64_t* out) {
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && scale != 0 && v > std::numeric_limits<uint64_t>::max() / scale))
    return Status::InvalidArgument(Quote(text) + " is too large");
  if (ec != std::errc() || ptr != number.data() + number.size())
    return Status::InvalidArgument(Quote(text) + " is not a whole number");
  *out = v * scale;
  return Status::Ok();
}

}  // namespace

Status ParseCount(std::string_view text, uint64_t* out) {
  std::string_view number, unit;
  DBXB_RETURN_IF_ERROR(SplitNumber(text, false, &number, &unit));
  uint64_t scale;
  if (unit.empty())
    scale = 1;
  else if (unit == "k" || unit == "K")
    scale = 1000;
  else if (unit == "M")
    scale = 1000000;
  else if (unit == "G")
    scale = 1000000000;
  else
    return Status::InvalidArgument(Quote(text) + " has an unknown suffix (use k, M or G)");
  return ScaleInteger(text, number, scale, out);
}

Status ParseBytes(std::string_view text, uint64_t* out) {
  std::string_view number, unit_raw;
  DBXB_RETURN_IF_ERROR(SplitNumber(text, false, &number, &unit_raw));
  std::string unit = Lower(unit_raw);
  uint64_t scale;
  if (unit.empty() || unit == "b")
    scale = 1;
  else if (unit == "k" || unit == "kib" || unit == "kb")
    scale = 1ull << 10;
  else if (unit == "m" || unit == "mib" || unit == "mb")
    scale = 1ull << 20;
  else if (unit == "g" || unit == "gib" || unit == "gb")
    scale = 1ull << 30;
  else if (unit == "t" || unit == "tib" || unit == "tb")
    scale = 1ull << 40;
  else
    return Status::InvalidArgument(Quote(text) + " has an unknown size unit (use B, KiB, MiB, GiB or TiB)");
  return ScaleInteger(text, number, scale, out);
}

Status ParseDuration(std::string_view text, double* seconds) {
  std::string_view number, unit;
  DBXB_RETURN_IF_ERROR(SplitNumber(text, true, &number, &unit));
  double v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(v))
    return Status::InvalidArgument(Quote(text) + " is not a duration");
  double scale;
  if (unit.empty() || unit == "s")
    scale = 1;
  else if (unit == "ms")
    scale = 1e-3;
  else if (unit == "us")
    scale = 1e-6;
  else if (unit == "ns")
    scale = 1e-9;
  else if (unit == "m" || unit == "min")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  else
    return Status::InvalidArgument(Quote(text) + " has an unknown time unit (use ns, us, ms, s, m or h)");
  if (v * scale > 7 * 24 * 3600.0) return Status::InvalidArgument(Quote(text) + " is longer than a week");
  *seconds = v * scale;
  return Status::Ok();
}

Status ParseFraction(std::string_view text, double* out) {
  const bool percent = !text.empty() && text.back() == '%';
  std::string_view number = percent ? text.substr(0, text.size() - 1) : text;
  double v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(v))
    return Status::InvalidArgument(fmt::format("'{}' is not a number (write 5% or 0.05)", text));
  if (v < 0) return Status::InvalidArgument(fmt::format("'{}' must not be negative", text));
  if (!percent && v > 1)
    return Status::InvalidArgument(
        fmt::format("'{}' is ambiguous: write {}% for a percentage, or a fraction up to 1", text, text));
  *out = percent ? v / 100 : v;
  return Status::Ok();
}

Status ParseCountOption(std::string_view option, std::string_view text, uint64_t min, uint64_t max, uint64_t* out) {
  uint64_t v = 0;
  DBXB_RETURN_IF_ERROR(ParseCount(text, &v).WithContext(option));
  if (v < min || v > max)
    return Status::InvalidArgument(fmt::format("{}: '{}' is out of range ({} to {})", option, text, min, max));
  *out = v;
  return Status::Ok();
}

Status ParseDurationOption(std::string_view option, std::string_view text, double min_seconds, double* out) {
  double v = 0;
  DBXB_RETURN_IF_ERROR(ParseDuration(text, &v).WithContext(option));
  if (v < min_seconds)
    return Status::InvalidArgument(fmt::format("{}: '{}' is shorter than {} s", option, text, min_seconds));
  *out = v;
  return Status::Ok();
}

Status ParseRateOption(std::string_view option, std::string_view text, double* out) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  std::string_view number = text.substr(0, i);
  std::string_view unit = text.substr(i);
  double v = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  const double scale = unit.empty() ? 1 : unit == "k" || unit == "K" ? 1e3 : unit == "M" ? 1e6 : 0;
  if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() || scale == 0 || !std::isfinite(v) ||
      v * scale <= 0)
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is not a positive rate in operations per second (e.g. 5000, 2.5k)", option, text));
  *out = v * scale;
  return Status::Ok();
}

Status ParseFractionOption(std::string_view option, std::string_view text, double* out) {
  return ParseFraction(text, out).WithContext(option);
}

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace dbxb
