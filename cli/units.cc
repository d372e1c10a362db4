#include "cli/units.h"

#include <fmt/format.h>

#include <string>

namespace dbxb {

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
  return ParseRate(text, out).WithContext(option);
}

Status ParseFractionOption(std::string_view option, std::string_view text, double* out) {
  return ParseFraction(text, out).WithContext(option);
}

}  // namespace dbxb
