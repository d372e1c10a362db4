#include "records/hdr_log.h"

#include <gtest/gtest.h>

#include <string>

namespace dbxb {
namespace {

constexpr uint64_t kSecond = 1'000'000'000;

HdrLog TwoIntervals() {
  HdrLog log;
  log.comments = {"made by a test"};
  log.start_unix_s = 1764580496.25;
  for (int i = 0; i < 2; ++i) {
    HdrLogInterval line;
    line.tag = i == 0 ? "" : "read";
    line.start_s = i * 1.0;
    line.length_s = 1.0;
    for (uint64_t v = 1000; v < 2'000'000; v += 777 * (i + 1)) line.histogram.Record(v);
    log.intervals.push_back(std::move(line));
  }
  return log;
}

TEST(HdrLog, WritesHistogramLogWritersFormat) {
  const std::string text = FormatHdrLog(TwoIntervals());
  EXPECT_EQ(text.rfind("#made by a test\n#[Histogram log format version 1.3]\n"
                       "#[StartTime: 1764580496.250 (seconds since epoch), Mon Dec 01 09:14:56 UTC 2025]\n"
                       "#[BaseTime: 1764580496.250 (seconds since epoch)]\n"
                       "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
                       "0.000,1.000,1.999,HISTF",
                       0),
            0u)
      << text.substr(0, 400);
  EXPECT_NE(text.find("\nTag=read,1.000,1.000,1.99"), std::string::npos);
}

TEST(HdrLog, ParsesWhatItWrites) {
  const HdrLog in = TwoIntervals();
  Result<HdrLog> out = ParseHdrLog(FormatHdrLog(in));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_DOUBLE_EQ(out->start_unix_s, 1764580496.25);
  ASSERT_EQ(out->intervals.size(), 2u);
  EXPECT_EQ(out->comments, in.comments);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(out->intervals[i].tag, in.intervals[i].tag);
    EXPECT_DOUBLE_EQ(out->intervals[i].start_s, in.intervals[i].start_s);
    EXPECT_EQ(out->intervals[i].histogram.Count(), in.intervals[i].histogram.Count());
    EXPECT_EQ(out->intervals[i].histogram.ValueAtPercentile(99), in.intervals[i].histogram.ValueAtPercentile(99));
  }
}

TEST(HdrLog, AbsoluteTimestampsWithoutBaseTimeBecomeRelative) {
  LatencyHistogram h;
  h.Record(5);
  HdrLog one;
  one.intervals.push_back({"", 0, 1, h});
  std::string text = FormatHdrLog(one);
  text.replace(text.find("\n0.000,"), 7, "\n1764580500.500,");
  Result<HdrLog> out = ParseHdrLog(text);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_DOUBLE_EQ(out->start_unix_s, 1764580500.5);
  EXPECT_DOUBLE_EQ(out->intervals[0].start_s, 0.0);
}

TEST(HdrLog, BadLinesAreNamed) {
  EXPECT_EQ(ParseHdrLog("#c\n1.0,2.0\n").status().message(),
            "line 2: expected START,LENGTH,MAX,HISTOGRAM (an interval line of an HdrHistogram log)");
  EXPECT_EQ(ParseHdrLog("x,1,1,HISTF\n").status().message(), "line 1: the start, length or max is not a number");
  EXPECT_TRUE(ParseHdrLog("0,1,1,HISTFAAA\n").status().IsCorruption());
  EXPECT_TRUE(ParseHdrLog("Tag=read\n").status().IsCorruption());
}

TEST(HdrLog, PhaseLogHasEveryTypeAndTheTotals) {
  PhaseResult r;
  r.suite = "sqlite-vps";
  r.phase = "mixed";
  r.engine = "lmdb";
  r.dataset = "cached";
  r.threads = 2;
  r.start_unix_s = 1764580496.25;
  r.duration_ns = 2.5 * kSecond;  // three intervals, the last half long
  r.per_op = {{"read", 30, 0, {}, std::nullopt}, {"write", 3, 0, {}, std::nullopt}, {"scan", 0, 0, {}, std::nullopt}};
  std::vector<IntervalRecorder> service;
  for (int op = 0; op < 3; ++op) service.emplace_back(0, kSecond, 3);
  for (uint64_t i = 0; i < 30; ++i) service[0].Record(i * kSecond / 12, 1000 + i);
  for (uint64_t i = 0; i < 3; ++i) service[1].Record(i * kSecond, 50'000 + i);
  r.operations = 33;
  const HdrLog log = PhaseHdrLog(r, service, {});
  ASSERT_EQ(log.intervals.size(), 9u);  // 3 intervals x (all, read, write); scan had nothing
  uint64_t all = 0, read = 0, write = 0;
  for (const HdrLogInterval& i : log.intervals) {
    (i.tag.empty() ? all : i.tag == "read" ? read : write) += i.histogram.Count();
    EXPECT_TRUE(i.tag.empty() || i.tag == "read" || i.tag == "write") << i.tag;
    EXPECT_DOUBLE_EQ(i.length_s, i.start_s == 2.0 ? 0.5 : 1.0);
  }
  EXPECT_EQ(all, 33u);
  EXPECT_EQ(read, 30u);
  EXPECT_EQ(write, 3u);
  for (size_t i = 1; i < log.intervals.size(); ++i) EXPECT_LE(log.intervals[i - 1].start_s, log.intervals[i].start_s);
  EXPECT_EQ(PhaseHdrLogFileName(r), "sqlite-vps.mixed.lmdb.cached.hlog");
}

TEST(HdrLog, TagsLoseWhatHdrHistogramForbids) { EXPECT_EQ(HdrLogTag("read, all rows"), "read__all_rows"); }

}  // namespace
}  // namespace dbxb
