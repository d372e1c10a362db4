#include "records/hdr_encoding.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dbxb {
namespace {

void ExpectSameBuckets(const LatencyHistogram& a, const LatencyHistogram& b) {
  ASSERT_EQ(a.significant_digits(), b.significant_digits());
  ASSERT_EQ(a.highest_trackable_ns(), b.highest_trackable_ns());
  ASSERT_EQ(a.CountsLength(), b.CountsLength());
  for (size_t i = 0; i < a.CountsLength(); ++i) ASSERT_EQ(a.CountAtIndex(i), b.CountAtIndex(i)) << "index " << i;
  EXPECT_EQ(a.Count(), b.Count());
}

TEST(HdrEncoding, RoundTripKeepsEveryBucket) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> latency(9.0, 1.5);  // ~8 µs median, tails to seconds
  LatencyHistogram h;
  for (int i = 0; i < 200000; ++i) h.Record(static_cast<uint64_t>(latency(rng)));
  h.Record(0);
  h.Record(LatencyHistogram::kOneHourNs);
  Result<LatencyHistogram> back = DecodeHdrBase64(EncodeHdrBase64(h));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSameBuckets(h, back.value());
  for (double p : {0.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    EXPECT_EQ(h.HighestEquivalentValue(h.ValueAtPercentile(p)),
              back->HighestEquivalentValue(back->ValueAtPercentile(p)))
        << "p" << p;
  }
  // Min and max come back as the bounds of their buckets (the encoding does not carry them) ...
  EXPECT_EQ(back->Min(), 0u);
  EXPECT_EQ(back->Max(), h.HighestEquivalentValue(LatencyHistogram::kOneHourNs));
  // ... until the exact ones are restored.
  back->SetExactStatistics(h.Min(), h.Max(), h.Mean());
  EXPECT_EQ(back->Max(), h.Max());
  EXPECT_NEAR(back->Mean(), h.Mean(), 1e-6 * h.Mean());
}

TEST(HdrEncoding, OtherPrecisionAndRangeKeepTheirLayout) {
  LatencyHistogram h(2, 10'000'000);
  for (uint64_t v = 1; v < 10'000'000; v = v * 3 + 1) h.Record(v);
  Result<LatencyHistogram> back = DecodeHdrBase64(EncodeHdrBase64(h));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectSameBuckets(h, back.value());
}

TEST(HdrEncoding, EmptyHistogramRoundTrips) {
  LatencyHistogram h;
  Result<LatencyHistogram> back = DecodeHdrBase64(EncodeHdrBase64(h));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->Count(), 0u);
  EXPECT_EQ(back->Max(), 0u);
}

TEST(HdrEncoding, StartsWithTheV2CompressedCookie) {
  LatencyHistogram h;
  h.Record(1000);
  const std::vector<uint8_t> bytes = EncodeHdrCompressed(h);
  ASSERT_GE(bytes.size(), 8u);
  EXPECT_EQ(bytes[0], 0x1c);
  EXPECT_EQ(bytes[1], 0x84);
  EXPECT_EQ(bytes[2], 0x93);
  EXPECT_EQ(bytes[3], 0x14);
  // Every HdrHistogram log line starts so: the base64 of that cookie.
  EXPECT_EQ(EncodeHdrBase64(h).substr(0, 5), "HISTF");
}

// HdrHistogram (Java, 2.1.11) wrote this: new Histogram(1, 3600000000000L, 3) with the values 1, 2, 3,
// 1000, 1000, 2048, 123456 and 10^9 recorded, encodeIntoCompressedByteBuffer, base64.
// (tests/interop/HdrInterop.java `encode-vector` prints it.)
constexpr char kJavaVector[] = "HISTFAAAADF4nJNpmSzMwMAgyAABzFCaEch0M9ixgMH+A1SEiYnpOD/LWgGm/jimi+cZmQC5GQiN";

TEST(HdrEncoding, ReadsWhatHdrHistogramJavaWrote) {
  Result<LatencyHistogram> h = DecodeHdrBase64(kJavaVector);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  LatencyHistogram expected;
  for (uint64_t v : {1, 2, 3, 1000, 1000, 2048, 123456, 1000000000}) expected.Record(v);
  ExpectSameBuckets(expected, h.value());
}

TEST(HdrEncoding, LowestDiscernibleAboveOneIsConverted) {
  // The same 8 values in a histogram with lowest discernible value 1000 (microsecond buckets), from Java:
  // new Histogram(1000, 3600000000000L, 3).
  constexpr char kMicros[] = "HISTFAAAACx4nJNpmSzMwMDAzQABzFDqBRC7GexYwGD/ASLCxsLMdJ2ZqXEXIxMAo7kHaQ==";
  Result<LatencyHistogram> h = DecodeHdrBase64(kMicros);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->Count(), 8u);
  // 1000 fell in the 512-wide bucket [512, 1024), which is added at its lowest value.
  EXPECT_EQ(h->ValueAtPercentile(50), 512u);
  EXPECT_EQ(h->ValueAtPercentile(100), 999817216u);  // the lowest value of 10^9's bucket there (2^19 wide)
}

TEST(HdrEncoding, RejectsCorruptInput) {
  LatencyHistogram h;
  h.Record(42);
  const std::string good = EncodeHdrBase64(h);
  EXPECT_TRUE(DecodeHdrBase64(good).ok());
  EXPECT_TRUE(DecodeHdrBase64("").status().IsCorruption());
  EXPECT_TRUE(DecodeHdrBase64("HIST").status().IsCorruption());
  EXPECT_TRUE(DecodeHdrBase64(good.substr(0, good.size() - 4)).status().IsCorruption());
  std::string bad_char = good;
  bad_char[1] = '!';
  EXPECT_TRUE(DecodeHdrBase64(bad_char).status().IsCorruption());
  std::string wrong_cookie = good;
  wrong_cookie[0] = 'A';
  EXPECT_TRUE(DecodeHdrBase64(wrong_cookie).status().IsCorruption());
  std::vector<uint8_t> bytes = EncodeHdrCompressed(h);
  bytes.back() ^= 0x5a;  // the deflate stream's Adler-32 checksum
  EXPECT_TRUE(DecodeHdrCompressed(bytes.data(), bytes.size()).status().IsCorruption());
  // Random garbage never crashes.
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> junk = EncodeHdrCompressed(h);
    junk[rng() % junk.size()] = static_cast<uint8_t>(rng());
    (void)DecodeHdrCompressed(junk.data(), rng() % (junk.size() + 1));
  }
}

TEST(Base64, KnownValues) {
  const std::string text = "any carnal pleas";
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  EXPECT_EQ(Base64Encode(p, 16), "YW55IGNhcm5hbCBwbGVhcw==");
  EXPECT_EQ(Base64Encode(p, 15), "YW55IGNhcm5hbCBwbGVh");
  EXPECT_EQ(Base64Encode(p, 14), "YW55IGNhcm5hbCBwbGU=");
  Result<std::vector<uint8_t>> back = Base64Decode("YW55IGNhcm5hbCBwbGU=");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::string(back->begin(), back->end()), text.substr(0, 14));
}

TEST(SummarizeLatency, EmptyAndKnownValues) {
  LatencyHistogram h;
  LatencySummary empty = SummarizeLatency(h);
  EXPECT_EQ(empty.count, 0u);
  EXPECT_TRUE(empty.percentile_curve.empty());
  for (uint64_t v = 1; v <= 1000; ++v) h.Record(v);
  LatencySummary s = SummarizeLatency(h);
  EXPECT_EQ(s.count, 1000u);
  EXPECT_EQ(s.min_ns, 1);
  EXPECT_EQ(s.max_ns, 1000);
  EXPECT_EQ(s.p50_ns, 500);
  EXPECT_EQ(s.p90_ns, 900);
  EXPECT_EQ(s.p95_ns, 950);
  EXPECT_EQ(s.p99_ns, 990);
  EXPECT_EQ(s.p999_ns, 999);
  EXPECT_EQ(s.p9999_ns, 1000);
  EXPECT_DOUBLE_EQ(s.mean_ns, 500.5);
}

}  // namespace
}  // namespace dbxb
