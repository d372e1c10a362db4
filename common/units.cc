#include "common/units.h"

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

// "1e3s": what follows the digits is an exponent, not a unit; say so rather than "unknown unit".
Status RefuseExponent(std::string_view text, std::string_view rest) {
  const bool exponent = rest.size() >= 2 && (rest[0] == 'e' || rest[0] == 'E') &&
                        (std::isdigit(static_cast<unsigned char>(rest[1])) || rest[1] == '+' || rest[1] == '-');
  if (!exponent) return Status::Ok();
  return Status::InvalidArgument(Quote(text) + " is written with an exponent (" + std::string(rest.substr(0, 2)) +
                                 "...); write the number out in digits");
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
  return RefuseExponent(text, *unit);
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

namespace {

struct Unit {
  std::string_view name;
  uint64_t scale;
};

// Decimal suffixes of counts (case matters: "m" is not "M").
constexpr Unit kCountUnits[] = {{"", 1}, {"k", 1000}, {"K", 1000}, {"M", 1000000}, {"G", 1000000000}};
// Binary units of sizes, compared in lower case.
constexpr Unit kByteUnits[] = {{"", 1},
                               {"b", 1},
                               {"k", 1ull << 10},
                               {"kib", 1ull << 10},
                               {"kb", 1ull << 10},
                               {"m", 1ull << 20},
                               {"mib", 1ull << 20},
                               {"mb", 1ull << 20},
                               {"g", 1ull << 30},
                               {"gib", 1ull << 30},
                               {"gb", 1ull << 30},
                               {"t", 1ull << 40},
                               {"tib", 1ull << 40},
                               {"tb", 1ull << 40},
                               {"p", 1ull << 50},
                               {"pib", 1ull << 50},
                               {"pb", 1ull << 50}};

// A whole number followed by one of `units`; `unknown` says what may follow when nothing matches.
template <size_t N>
Status ParseScaled(std::string_view text, const Unit (&units)[N], bool ignore_case, std::string_view unknown,
                   uint64_t* out) {
  std::string_view number, unit;
  DBXB_RETURN_IF_ERROR(SplitNumber(text, false, &number, &unit));
  const std::string name = ignore_case ? Lower(unit) : std::string(unit);
  for (const Unit& u : units)
    if (u.name == name) return ScaleInteger(text, number, u.scale, out);
  return Status::InvalidArgument(Quote(text) + " " + std::string(unknown));
}

}  // namespace

Status ParseCount(std::string_view text, uint64_t* out) {
  return ParseScaled(text, kCountUnits, false, "has an unknown suffix (use k, M or G)", out);
}

Status ParseBytes(std::string_view text, uint64_t* out) {
  return ParseScaled(text, kByteUnits, true, "has an unknown size unit (use B, KiB, MiB, GiB, TiB or PiB)", out);
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

Status ParseRate(std::string_view text, double* out) {
  std::string_view number, unit;
  Status st = SplitNumber(text, true, &number, &unit);
  double v = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  const double scale = unit.empty() ? 1 : unit == "k" || unit == "K" ? 1e3 : unit == "M" ? 1e6 : 0;
  if (st.ok() && (ec != std::errc() || ptr != number.data() + number.size() || scale == 0 ||
                  !std::isfinite(v * scale) || v * scale <= 0))
    st = Status::InvalidArgument(Quote(text) + " is not a positive rate in operations per second (e.g. 5000, 2.5k)");
  if (!st.ok()) return st;
  *out = v * scale;
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
