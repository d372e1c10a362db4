#include "records/hdr_encoding.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace dbxb {
namespace {

constexpr uint32_t kV2Cookie = 0x1c849303 | 0x10;  // the low nibble of byte 3: word size 1 (LEB128)
constexpr uint32_t kV2CompressedCookie = 0x1c849304 | 0x10;
constexpr uint32_t kCookieBaseMask = ~uint32_t{0xf0};  // HdrHistogram ignores the word-size nibble
constexpr size_t kHeaderBytes = 40;
constexpr size_t kMaxInflatedBytes = 64u << 20;  // far above any real histogram (5 digits, 1 h: ~10 MiB)

void PutBig(std::vector<uint8_t>* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t GetBig(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

// ZigZag, then LEB128 with at most 9 bytes: eight of 7 bits, the ninth carrying the last 8 bits whole.
void PutZigZag(std::vector<uint8_t>* out, int64_t value) {
  uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if (v < 0x80) {
      out->push_back(static_cast<uint8_t>(v));
      return;
    }
    out->push_back(static_cast<uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<uint8_t>(v));
}

bool GetZigZag(const uint8_t* p, size_t size, size_t* pos, int64_t* value) {
  uint64_t v = 0;
  for (int i = 0; i < 9; ++i) {
    if (*pos >= size) return false;
    const uint8_t b = p[(*pos)++];
    if (i == 8) {
      v |= static_cast<uint64_t>(b) << 56;
      break;
    }
    v |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) break;
  }
  *value = static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  return true;
}

Status Bad(std::string_view what) { return Status::Corruption(fmt::format("HdrHistogram encoding: {}", what)); }

Result<std::vector<uint8_t>> Inflate(const uint8_t* data, size_t size) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Status::Internal("zlib inflateInit failed");
  std::vector<uint8_t> out(std::max<size_t>(4 * size, 4096));
  zs.next_in = const_cast<Bytef*>(data);
  zs.avail_in = static_cast<uInt>(size);
  int rc = Z_OK;
  while (true) {
    zs.next_out = out.data() + zs.total_out;
    zs.avail_out = static_cast<uInt>(out.size() - zs.total_out);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (zs.avail_out != 0) {  // no progress possible: the input ended early
      rc = Z_DATA_ERROR;
      break;
    }
    if (out.size() >= kMaxInflatedBytes) {
      rc = Z_MEM_ERROR;
      break;
    }
    out.resize(std::min(out.size() * 2, kMaxInflatedBytes));
  }
  const size_t produced = zs.total_out;
  inflateEnd(&zs);
  if (rc == Z_MEM_ERROR) return Bad("the deflated histogram inflates to more than 64 MiB");
  if (rc != Z_STREAM_END) return Bad("the deflate stream is corrupt or truncated");
  out.resize(produced);
  return out;
}

// HdrHistogram's layout for a lowest discernible value other than 1: index -> lowest value.
struct ForeignLayout {
  int unit_magnitude;
  int half_count_magnitude;
  uint64_t ValueFromIndex(size_t index) const {
    int64_t bucket = static_cast<int64_t>(index >> half_count_magnitude) - 1;
    const uint64_t half = uint64_t{1} << half_count_magnitude;
    uint64_t sub_bucket = (index & (half - 1)) + half;
    if (bucket < 0) {
      sub_bucket -= half;
      bucket = 0;
    }
    const int shift = static_cast<int>(bucket) + unit_magnitude;
    return shift >= 64 || (sub_bucket >> (64 - shift)) != 0 ? std::numeric_limits<uint64_t>::max()
                                                            : sub_bucket << shift;
  }
};

}  // namespace

std::vector<uint8_t> EncodeHdrCompressed(const LatencyHistogram& h) {
  std::vector<uint8_t> plain;
  PutBig(&plain, kV2Cookie, 4);
  PutBig(&plain, 0, 4);  // payload length, filled in below
  PutBig(&plain, 0, 4);  // normalizing index offset
  PutBig(&plain, static_cast<uint64_t>(h.significant_digits()), 4);
  PutBig(&plain, 1, 8);  // lowest discernible value
  PutBig(&plain, h.highest_trackable_ns(), 8);
  PutBig(&plain, std::bit_cast<uint64_t>(1.0), 8);
  const size_t relevant = h.IndexOf(std::min(h.Max(), h.highest_trackable_ns())) + 1;
  for (size_t i = 0; i < relevant;) {
    const uint64_t count = h.CountAtIndex(i++);
    if (count != 0) {
      PutZigZag(&plain, static_cast<int64_t>(std::min<uint64_t>(count, std::numeric_limits<int64_t>::max())));
      continue;
    }
    int64_t zeros = 1;
    while (i < relevant && h.CountAtIndex(i) == 0) {
      ++zeros;
      ++i;
    }
    PutZigZag(&plain, zeros > 1 ? -zeros : 0);
  }
  const uint64_t payload = plain.size() - kHeaderBytes;
  for (int b = 0; b < 4; ++b) plain[4 + b] = static_cast<uint8_t>(payload >> (8 * (3 - b)));

  uLongf deflated_size = compressBound(static_cast<uLong>(plain.size()));
  std::vector<uint8_t> out(8 + deflated_size);
  // compress2 cannot fail with a buffer of compressBound bytes.
  (void)compress2(out.data() + 8, &deflated_size, plain.data(), static_cast<uLong>(plain.size()),
                  Z_DEFAULT_COMPRESSION);
  out.resize(8 + deflated_size);
  for (int b = 0; b < 4; ++b) {
    out[b] = static_cast<uint8_t>(kV2CompressedCookie >> (8 * (3 - b)));
    out[4 + b] = static_cast<uint8_t>(deflated_size >> (8 * (3 - b)));
  }
  return out;
}

std::string EncodeHdrBase64(const LatencyHistogram& h) {
  const std::vector<uint8_t> bytes = EncodeHdrCompressed(h);
  return Base64Encode(bytes.data(), bytes.size());
}

namespace {

// The bucket layout of a histogram written with `digits` significant digits and lowest discernible `lowest`.
ForeignLayout ForeignLayoutOf(int64_t digits, uint64_t lowest) {
  uint64_t single_unit = 2;
  for (int64_t i = 0; i < digits; ++i) single_unit *= 10;
  const int count_magnitude = std::max(1, static_cast<int>(std::bit_width(single_unit - 1)));
  return ForeignLayout{static_cast<int>(std::bit_width(lowest) - 1), count_magnitude - 1};
}

}  // namespace

Result<LatencyHistogram> DecodeHdrCompressed(const uint8_t* data, size_t size) {
  if (size < 8) return Bad(fmt::format("{} bytes, shorter than the 8-byte header", size));
  const uint32_t cookie = static_cast<uint32_t>(GetBig(data, 4));
  if ((cookie & kCookieBaseMask) != (kV2CompressedCookie & kCookieBaseMask))
    return Bad(fmt::format("cookie {:#010x} is not the V2 compressed cookie {:#010x}", cookie, kV2CompressedCookie));
  const uint64_t deflated = GetBig(data + 4, 4);
  if (deflated > size - 8) return Bad(fmt::format("declares {} deflated bytes, holds {}", deflated, size - 8));
  Result<std::vector<uint8_t>> inflated = Inflate(data + 8, deflated);
  if (!inflated.ok()) return inflated.status();
  const std::vector<uint8_t>& plain = inflated.value();
  if (plain.size() < kHeaderBytes) return Bad("the inflated histogram is shorter than its 40-byte header");
  const uint32_t inner = static_cast<uint32_t>(GetBig(plain.data(), 4));
  if ((inner & kCookieBaseMask) != (kV2Cookie & kCookieBaseMask))
    return Bad(fmt::format("inner cookie {:#010x} is not the V2 cookie {:#010x}", inner, kV2Cookie));
  const uint64_t payload = GetBig(plain.data() + 4, 4);
  const int64_t normalizing_offset = static_cast<int32_t>(GetBig(plain.data() + 8, 4));
  const int64_t digits = static_cast<int32_t>(GetBig(plain.data() + 12, 4));
  const uint64_t lowest = GetBig(plain.data() + 16, 8);
  const uint64_t highest = GetBig(plain.data() + 24, 8);
  if (payload > plain.size() - kHeaderBytes)
    return Bad(fmt::format("declares {} payload bytes, holds {}", payload, plain.size() - kHeaderBytes));
  if (normalizing_offset != 0) return Bad("a normalizing index offset (shifted histogram) is not supported");
  if (digits < 0 || digits > 5) return Bad(fmt::format("{} significant digits (0 to 5 allowed)", digits));
  if (lowest < 1 || highest > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) || highest < 2 * lowest)
    return Bad(fmt::format("trackable range {}..{} is not a valid range", lowest, highest));

  // Our layout when theirs is ours (lowest discernible 1); otherwise at least their precision and range.
  const int our_digits = static_cast<int>(std::max<int64_t>(digits, 1));
  uint64_t min_highest = 2;
  for (int i = 0; i < our_digits; ++i) min_highest *= 10;
  LatencyHistogram h(our_digits, std::max(highest, min_highest));
  const bool same_layout = lowest == 1 && digits >= 1;
  const ForeignLayout foreign = ForeignLayoutOf(digits, lowest);

  const uint8_t* p = plain.data() + kHeaderBytes;
  size_t pos = 0, index = 0;
  while (pos < payload) {
    int64_t count = 0;
    if (!GetZigZag(p, payload, &pos, &count)) return Bad("the payload ends inside a count");
    if (count < 0) {
      const uint64_t zeros = count == std::numeric_limits<int64_t>::min() ? 0 : static_cast<uint64_t>(-count);
      if (zeros > h.CountsLength() * 64) return Bad("a run of empty buckets beyond the histogram's range");
      index += zeros;
      continue;
    }
    if (count > 0) {
      if (same_layout) {
        if (index >= h.CountsLength()) return Bad(fmt::format("a count at index {} beyond the declared range", index));
        h.AddCountAtIndex(index, static_cast<uint64_t>(count));
      } else {
        const uint64_t v = foreign.ValueFromIndex(index);
        if (v > highest) return Bad(fmt::format("a count at index {} beyond the declared range", index));
        h.RecordCount(v, static_cast<uint64_t>(count));
      }
    }
    ++index;
  }
  return h;
}

Result<LatencyHistogram> DecodeHdrBase64(std::string_view text) {
  Result<std::vector<uint8_t>> bytes = Base64Decode(text);
  if (!bytes.ok()) return bytes.status();
  return DecodeHdrCompressed(bytes.value().data(), bytes.value().size());
}

Result<LatencyHistogram> HistogramOf(const LatencySummary& summary) {
  if (summary.count == 0) return LatencyHistogram();
  if (summary.hdr_histogram.empty())
    return Status::InvalidArgument("no histogram recorded (a results file from before dbx-bench kept histograms)");
  Result<LatencyHistogram> h = DecodeHdrBase64(summary.hdr_histogram);
  if (!h.ok()) return h.status();
  if (h->Count() != summary.count)
    return Status::Corruption(
        fmt::format("the histogram holds {} values, the summary says {}", h->Count(), summary.count));
  auto as_ns = [](double v) { return v > 0 ? static_cast<uint64_t>(std::llround(v)) : uint64_t{0}; };
  h->SetExactStatistics(as_ns(summary.min_ns), as_ns(summary.max_ns), summary.mean_ns);
  return h;
}

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}  // namespace

std::string Base64Encode(const uint8_t* data, size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    const uint32_t n = (uint32_t{data[i]} << 16) | (i + 1 < size ? uint32_t{data[i + 1]} << 8 : 0) |
                       (i + 2 < size ? uint32_t{data[i + 2]} : 0);
    out += kAlphabet[(n >> 18) & 63];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[n & 63] : '=';
  }
  return out;
}

Result<std::vector<uint8_t>> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return Bad(fmt::format("base64 text of {} characters (not a multiple of 4)", text.size()));
  std::array<int, 256> value;
  value.fill(-1);
  for (int i = 0; i < 64; ++i) value[static_cast<uint8_t>(kAlphabet[i])] = i;
  std::vector<uint8_t> out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
    uint32_t n = 0;
    for (int k = 0; k < 4; ++k) {
      const int v = k >= 4 - pad ? 0 : value[static_cast<uint8_t>(text[i + k])];
      if (v < 0) return Bad(fmt::format("'{}' at position {} is not a base64 character", text[i + k], i + k));
      n = (n << 6) | static_cast<uint32_t>(v);
    }
    out.push_back(static_cast<uint8_t>(n >> 16));
    if (pad < 2) out.push_back(static_cast<uint8_t>(n >> 8));
    if (pad < 1) out.push_back(static_cast<uint8_t>(n));
  }
  return out;
}

LatencySummary SummarizeLatency(const LatencyHistogram& h, int ticks_per_half_distance) {
  LatencySummary s;
  s.count = h.Count();
  if (s.count == 0) return s;
  s.mean_ns = h.Mean();
  s.stddev_ns = h.StdDev();
  s.min_ns = static_cast<double>(h.Min());
  s.p50_ns = static_cast<double>(h.ValueAtPercentile(50));
  s.p90_ns = static_cast<double>(h.ValueAtPercentile(90));
  s.p95_ns = static_cast<double>(h.ValueAtPercentile(95));
  s.p99_ns = static_cast<double>(h.ValueAtPercentile(99));
  s.p999_ns = static_cast<double>(h.ValueAtPercentile(99.9));
  s.p9999_ns = static_cast<double>(h.ValueAtPercentile(99.99));
  s.max_ns = static_cast<double>(h.Max());
  for (const auto& p : h.PercentileCurve(ticks_per_half_distance))
    s.percentile_curve.emplace_back(p.percentile, static_cast<double>(p.value));
  s.hdr_histogram = EncodeHdrBase64(h);
  return s;
}

}  // namespace dbxb
