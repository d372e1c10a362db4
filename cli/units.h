// Parsing of the CLI's human-friendly values, for every command: counts ("10000", "10k", "1M"), byte
// sizes ("64MiB", "1G", "4096"), durations ("5s", "500ms", "1.5"), rates ("2.5k"), fractions ("5%",
// "0.05") and comma-separated lists. Each rejects garbage, negatives, overflow and trailing junk with a
// message that names the problem; the *Option forms prefix the option, e.g. "--rounds: 'x' is not a number".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace dbxb {

/// A non-negative integer with an optional decimal suffix k/K (10^3), M (10^6), G (10^9).
Status ParseCount(std::string_view text, uint64_t* out);
/// Bytes with an optional binary suffix: B, K/KiB, M/MiB, G/GiB, T/TiB (case-insensitive).
Status ParseBytes(std::string_view text, uint64_t* out);
/// Seconds as a decimal number with an optional unit: ns, us, ms, s (default), m, h.
Status ParseDuration(std::string_view text, double* seconds);
/// A fraction from "5%" (percent) or "0.05" (a plain fraction). InvalidArgument for garbage,
/// negatives, non-finite values and plain numbers above 1 ("write 5% or 0.05").
Status ParseFraction(std::string_view text, double* out);

/// ParseCount of `text`, then a check that it lies in [min, max]; messages start with `option`
/// (as typed, e.g. "--rounds").
Status ParseCountOption(std::string_view option, std::string_view text, uint64_t min, uint64_t max, uint64_t* out);
/// ParseDuration of `text`, at least `min_seconds`; messages start with `option`.
Status ParseDurationOption(std::string_view option, std::string_view text, double min_seconds, double* out);
/// A positive rate in operations per second with an optional k (10^3) or M (10^6) suffix ("2500", "2.5k").
Status ParseRateOption(std::string_view option, std::string_view text, double* out);
/// ParseFraction of `text`; messages start with `option`.
Status ParseFractionOption(std::string_view option, std::string_view text, double* out);

/// The items of "a,b,c" in order; "" is one empty item, so that callers name an empty item as such.
std::vector<std::string> SplitList(std::string_view text);
/// "a, b, c".
std::string JoinList(const std::vector<std::string>& items);

}  // namespace dbxb
