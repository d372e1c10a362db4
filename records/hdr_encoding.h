// HdrHistogram's V2 compressed histogram encoding, the form its interval logs and every HdrHistogram
// implementation (Java, C, Go, Rust, ...) exchange histograms in.
//
// Layout (all integers big-endian):
//   compressed:   int32 cookie 0x1c849314 | int32 length of the zlib stream | zlib (DEFLATE) stream of:
//   uncompressed: int32 cookie 0x1c849313 | int32 payload length | int32 normalizing index offset (0) |
//                 int32 significant digits | int64 lowest discernible value | int64 highest trackable value |
//                 float64 integer-to-double ratio (1.0) | payload
//   payload:      the counts array up to the bucket of the maximum, in HdrHistogram's index order, each
//                 count a ZigZag LEB128 varint (at most 9 bytes); a run of n > 1 empty buckets is the one
//                 varint -n.
// LatencyHistogram's bucket layout is HdrHistogram's with lowest discernible value 1 (unit magnitude 0),
// so its counts are written index for index, and a histogram HdrHistogram wrote with that layout is
// read back bucket for bucket. Other layouts (lowest discernible value > 1) are converted: each of
// their buckets is added at its lowest value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "records/latency_histogram.h"
#include "records/result.h"

namespace dbxb {

/// The V2 compressed encoding of `h`.
std::vector<uint8_t> EncodeHdrCompressed(const LatencyHistogram& h);
/// The same, in base64 (standard alphabet, padded): the text of an interval log line, "HISTF...".
std::string EncodeHdrBase64(const LatencyHistogram& h);

/// Reads a V2 compressed encoding. Min(), Max() and Mean() come from the buckets (lowest, highest and
/// middle equivalent values), as in HdrHistogram; a caller that knows the exact ones sets them with
/// LatencyHistogram::SetExactStatistics. Corruption naming the problem for anything else (a wrong cookie,
/// a truncated or inflated-to-garbage stream, counts beyond the declared range, an unusable layout).
Result<LatencyHistogram> DecodeHdrCompressed(const uint8_t* data, size_t size);
/// The same from base64 text (whitespace not allowed).
Result<LatencyHistogram> DecodeHdrBase64(std::string_view text);

/// The histogram behind `summary` (decoded from hdr_histogram, with the exact min, max and mean of the
/// summary restored). An empty histogram for count 0; InvalidArgument when the summary has a count but
/// no histogram, or Corruption when it does not decode. For anyone who needs more than the recorded
/// percentiles of a phase, e.g. compare gating on tails.
Result<LatencyHistogram> HistogramOf(const LatencySummary& summary);

/// Count, mean, standard deviation, min, the percentiles of LatencySummary, max, the percentile curve
/// and the whole histogram (HdrHistogram V2 encoding) of `h` (all 0 and empty when `h` is empty).
LatencySummary SummarizeLatency(const LatencyHistogram& h, int ticks_per_half_distance = 5);

/// Standard base64 with padding, and its inverse (Corruption for a character outside the alphabet or a
/// length that is not a multiple of 4).
std::string Base64Encode(const uint8_t* data, size_t size);
Result<std::vector<uint8_t>> Base64Decode(std::string_view text);

}  // namespace dbxb
