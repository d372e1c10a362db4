// Parsing of the CLI's human-friendly numbers: counts ("10000", "10k", "1M"), byte sizes ("64MiB",
// "1G", "4096") and durations ("5s", "500ms", "1.5"). Each rejects garbage, negatives, overflow and
// trailing junk with a message that names the problem; callers add the option name.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"

namespace dbxb {

/// A non-negative integer with an optional decimal suffix k/K (10^3), M (10^6), G (10^9).
Status ParseCount(std::string_view text, uint64_t* out);
/// Bytes with an optional binary suffix: B, K/KiB, M/MiB, G/GiB, T/TiB (case-insensitive).
Status ParseBytes(std::string_view text, uint64_t* out);
/// Seconds as a decimal number with an optional unit: ns, us, ms, s (default), m, h.
Status ParseDuration(std::string_view text, double* seconds);

}  // namespace dbxb
