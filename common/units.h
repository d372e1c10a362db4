// Parsing of human-friendly values, for the command line and for engine settings alike: counts
// ("10000", "10k", "1M"), byte sizes ("64MiB", "1G", "4096"), durations ("5s", "500ms", "1.5"), rates
// ("2.5k"), fractions ("5%", "0.05") and comma-separated lists. Each rejects garbage, signs, overflow, exponents
// ("1e3s": the exponent is named as the problem) and trailing junk with a message that quotes the text. The command
// line's forms that name the option are in cli/units.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace dbxb {

/// A non-negative integer with an optional decimal suffix k/K (10^3), M (10^6), G (10^9).
Status ParseCount(std::string_view text, uint64_t* out);
/// Bytes with an optional binary suffix: B, K/KiB, M/MiB, G/GiB, T/TiB, P/PiB (case-insensitive).
Status ParseBytes(std::string_view text, uint64_t* out);
/// Seconds as a decimal number with an optional unit: ns, us, ms, s (default), m, h. At most a week.
Status ParseDuration(std::string_view text, double* seconds);
/// A positive rate in operations per second with an optional k (10^3) or M (10^6) suffix ("2.5k").
Status ParseRate(std::string_view text, double* out);
/// A fraction from "5%" (percent) or "0.05" (a plain fraction). InvalidArgument for garbage,
/// negatives, non-finite values and plain numbers above 1 ("write 5% or 0.05").
Status ParseFraction(std::string_view text, double* out);

/// The items of "a,b,c" in order; "" is one empty item, so that callers name an empty item as such.
std::vector<std::string> SplitList(std::string_view text);
/// "a, b, c".
std::string JoinList(const std::vector<std::string>& items);

}  // namespace dbxb
