// Parsing of the CLI's human-friendly values, for every command: the values of common/units.h
// (counts, byte sizes, durations, rates, fractions) with the option named in every message, e.g.
// "--rounds: 'x' is not a number", and comma-separated lists.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/units.h"

namespace dbxb {

/// ParseCount of `text`, then a check that it lies in [min, max]; messages start with `option`
/// (as typed, e.g. "--rounds").
Status ParseCountOption(std::string_view option, std::string_view text, uint64_t min, uint64_t max, uint64_t* out);
/// ParseDuration of `text`, at least `min_seconds`; messages start with `option`.
Status ParseDurationOption(std::string_view option, std::string_view text, double min_seconds, double* out);
/// A positive rate in operations per second with an optional k (10^3) or M (10^6) suffix ("2500", "2.5k").
Status ParseRateOption(std::string_view option, std::string_view text, double* out);
/// ParseFraction of `text`; messages start with `option`.
Status ParseFractionOption(std::string_view option, std::string_view text, double* out);

}  // namespace dbxb
