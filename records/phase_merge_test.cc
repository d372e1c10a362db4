#include "records/phase_merge.h"

#include <gtest/gtest.h>

#include <random>

#include "records/hdr_encoding.h"

namespace dbxb {
namespace {

// A phase of `n` lognormal operations (two types) starting at `start_unix_s` and lasting `seconds`;
// every value also goes into *all.
PhaseResult Phase(uint64_t seed, uint64_t n, double start_unix_s, double seconds, LatencyHistogram* all) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> latency(9.0, 1.2);
  LatencyHistogram total, read, write;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t v = static_cast<uint64_t>(latency(rng));
    total.Record(v);
    (i % 4 == 0 ? write : read).Record(v);
    all->Record(v);
  }
  PhaseResult p;
  p.suite = "sqlite-vps";
  p.phase = "mixed-oltp";
  p.engine = "lmdb";
  p.dataset = "cached";
  p.parameters = {{"records", "20000"}};
  p.threads = 2;
  p.operations = n;
  p.start_unix_s = start_unix_s;
  p.duration_ns = seconds * 1e9;
  p.throughput_ops_per_sec = static_cast<double>(n) / seconds;
  p.service_time = SummarizeLatency(total);
  p.per_op = {
      {"read", read.Count(), static_cast<double>(read.Count()) / seconds, SummarizeLatency(read), std::nullopt},
      {"write", write.Count(), static_cast<double>(write.Count()) / seconds, SummarizeLatency(write), std::nullopt}};
  return p;
}

MergeInput Input(std::string file, std::string host, PhaseResult p) {
  MergeInput in;
  in.file = std::move(file);
  in.results.context.host_name = std::move(host);
  in.results.context.date_utc = "2026-12-01T09:00:00Z";
  in.results.context.configuration = {{"suite", "sqlite-vps"}, {"records", "20000"}, {"seed", in.file}};
  in.results.phases.push_back(std::move(p));
  return in;
}

TEST(MergeRuns, AddsHistogramsNeverAveragesPercentiles) {
  LatencyHistogram all;
  std::vector<MergeInput> in = {Input("a.json", "client-a", Phase(1, 30000, 1000.0, 10.0, &all)),
                                Input("b.json", "client-b", Phase(2, 5000, 1001.0, 9.5, &all))};
  Result<RunResults> merged = MergeRuns(in);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  ASSERT_EQ(merged->phases.size(), 1u);
  const PhaseResult& m = merged->phases[0];
  const LatencySummary expected = SummarizeLatency(all);
  EXPECT_EQ(m.service_time.count, 35000u);
  EXPECT_EQ(m.service_time.p50_ns, expected.p50_ns);
  EXPECT_EQ(m.service_time.p99_ns, expected.p99_ns);
  EXPECT_EQ(m.service_time.p999_ns, expected.p999_ns);
  EXPECT_EQ(m.service_time.min_ns, expected.min_ns);
  EXPECT_EQ(m.service_time.max_ns, expected.max_ns);
  EXPECT_NEAR(m.service_time.mean_ns, expected.mean_ns, 1e-6 * expected.mean_ns);
  EXPECT_EQ(m.service_time.hdr_histogram, expected.hdr_histogram);
  // The mean of the two p99s would be wrong here: the inputs differ in size.
  const double averaged =
      (in[0].results.phases[0].service_time.p99_ns + in[1].results.phases[0].service_time.p99_ns) / 2;
  EXPECT_NE(m.service_time.p99_ns, averaged);
  EXPECT_EQ(m.per_op[0].count + m.per_op[1].count, 35000u);
  EXPECT_EQ(m.threads, 4u);

  // They overlapped in time: the rates add; per host they stay as they were.
  EXPECT_EQ(m.merged_throughput, "concurrent");
  EXPECT_DOUBLE_EQ(m.throughput_ops_per_sec, 3000.0 + 5000 / 9.5);
  EXPECT_DOUBLE_EQ(m.duration_ns, 10.5e9);
  ASSERT_EQ(m.merged_from.size(), 2u);
  EXPECT_EQ(m.merged_from[1].host_name, "client-b");
  EXPECT_EQ(m.merged_from[1].file, "b.json");
  EXPECT_DOUBLE_EQ(m.merged_from[1].throughput_ops_per_sec, 5000 / 9.5);
  EXPECT_TRUE(m.per_second.empty());
  EXPECT_EQ(merged->context.host_name, "client-a+client-b");
  EXPECT_EQ(merged->context.merged_files, (std::vector<std::string>{"a.json", "b.json"}));
}

TEST(MergeRuns, RunsOneAfterTheOtherAreSequential) {
  LatencyHistogram all;
  Result<RunResults> merged = MergeRuns({Input("a.json", "h", Phase(1, 1000, 1000.0, 10.0, &all)),
                                         Input("b.json", "h", Phase(2, 3000, 1010.5, 5.0, &all))});
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  const PhaseResult& m = merged->phases[0];
  EXPECT_EQ(m.merged_throughput, "sequential");
  EXPECT_DOUBLE_EQ(m.duration_ns, 15e9);
  EXPECT_DOUBLE_EQ(m.throughput_ops_per_sec, 4000 / 15.0);
  EXPECT_EQ(merged->context.host_name, "h");
}

TEST(MergeRuns, MismatchesAreOneLineNamingTheDifference) {
  LatencyHistogram all;
  auto a = [&] { return Input("a.json", "h", Phase(1, 100, 1000.0, 1.0, &all)); };
  auto expect_error = [&](MergeInput b, const std::string& message) {
    Result<RunResults> r = MergeRuns({a(), std::move(b)});
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsInvalidArgument());
    EXPECT_EQ(r.status().message(), message);
  };
  MergeInput b = a();
  b.file = "b.json";
  b.results.phases[0].parameters = {{"records", "10000"}};
  expect_error(b,
               "merge: phase sqlite-vps/cached/mixed-oltp/lmdb: parameter records is '20000' in a.json, '10000' in "
               "b.json");
  b = a();
  b.file = "b.json";
  b.results.phases[0].phase = "select-pk";
  expect_error(b, "merge: phase sqlite-vps/cached/mixed-oltp/lmdb is in a.json but not in b.json");
  b = a();
  b.file = "b.json";
  b.results.context.configuration[1].second = "5";
  expect_error(b, "merge: the runs differ: records is '20000' in a.json, '5' in b.json");
  b = a();
  b.file = "b.json";
  b.results.phases[0].service_time.hdr_histogram.clear();
  expect_error(b,
               "merge: b.json: phase sqlite-vps/cached/mixed-oltp/lmdb: service_time: no histogram recorded (a "
               "results file from before dbx-bench kept histograms)");
  b = a();
  b.file = "b.json";
  b.results.phases[0].error_occurred = true;
  b.results.phases[0].error_message = "IOError: disk full";
  expect_error(b,
               "merge: b.json: phase sqlite-vps/cached/mixed-oltp/lmdb failed (IOError: disk full); there is "
               "nothing to merge");
  b = a();
  b.file = "b.json";
  b.results.phases[0].latency_from_intended_start = b.results.phases[0].service_time;
  expect_error(b, "merge: phase sqlite-vps/cached/mixed-oltp/lmdb: open loop in b.json, closed loop in a.json");
  b = a();
  b.file = "b.json";
  b.results.phases[0].service_time.hdr_histogram = "HISTFAAAAAAA";
  Result<RunResults> corrupt = MergeRuns({a(), b});
  ASSERT_FALSE(corrupt.ok());
  const std::string prefix = "merge: b.json: phase sqlite-vps/cached/mixed-oltp/lmdb: service_time: ";
  EXPECT_EQ(corrupt.status().message().rfind(prefix, 0), 0u) << corrupt.status().message();
  EXPECT_FALSE(MergeRuns({a()}).ok());
}

TEST(HistogramOf, RestoresTheExactExtremes) {
  LatencyHistogram h;
  for (uint64_t v : {1234567u, 89u, 1000001u}) h.Record(v);
  Result<LatencyHistogram> back = HistogramOf(SummarizeLatency(h));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->Min(), 89u);
  EXPECT_EQ(back->Max(), 1234567u);
  EXPECT_EQ(back->ValueAtPercentile(50), h.ValueAtPercentile(50));
  EXPECT_EQ(HistogramOf(LatencySummary{})->Count(), 0u);
}

}  // namespace
}  // namespace dbxb
