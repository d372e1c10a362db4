// Phases in every reporter: results.json (writer and strict reader), results.md and the console.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "records/json_results.h"
#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_phases.h"
#include "tests/fixtures/sample_results.h"
#include "writers/console_reporter.h"
#include "writers/markdown_phases.h"
#include "writers/markdown_reporter.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

// "/phases/3/per_op/0/count" -> "phases[3].per_op[0].count"
std::string PathOf(const std::string& pointer) {
  std::string out;
  size_t pos = 1;
  while (pos <= pointer.size()) {
    size_t next = pointer.find('/', pos);
    if (next == std::string::npos) next = pointer.size();
    std::string token = pointer.substr(pos, next - pos);
    bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + token + "]" : (out.empty() ? token : "." + token);
    pos = next + 1;
  }
  return out;
}

TEST(PhaseJson, RoundTripGivesEqualRecords) {
  RunResults in = testdata::SamplePhaseResults();
  RunResults out;
  Status s = ParseResults(SerializeResults(in), &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(out == in);
  out.phases[2].latency_from_intended_start->percentile_curve[1].second += 1;
  EXPECT_FALSE(out == in) << "the comparison must be able to fail";
}

TEST(PhaseJson, MatchesGoldenFile) {
  testdata::ExpectMatchesGolden("sample_phases.json", SerializeResults(testdata::SamplePhaseResults()));
}

TEST(PhaseJson, PhasesComeAfterBenchmarks) {
  Json j = ToJson(testdata::SamplePhaseResults());
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schema_version", "context", "benchmarks", "phases"}));
  EXPECT_EQ(j["phases"][2]["latency_from_intended_start"]["percentile_curve"][1], Json::array({50, 1500}));
  EXPECT_TRUE(j["phases"][0]["latency_from_intended_start"].is_null()) << "closed loop";
}

TEST(PhaseJson, FilesWithoutPhasesStillRead) {
  Json j = ToJson(testdata::SampleRunResults());
  j.erase("phases");
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_TRUE(out == testdata::SampleRunResults());
  j["phases"] = nullptr;
  ASSERT_TRUE(FromJson(j, &out).ok());
  j["phases"] = Json::object();
  EXPECT_EQ(FromJson(j, &out).message(), "phases: expected array, got object");
}

TEST(PhaseJson, EveryWrongTypeIsNamedByItsPath) {
  const Json good = ToJson(testdata::SamplePhaseResults());
  const Json flat = good.flatten();
  int checked = 0;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (it.key().rfind("/phases/", 0) != 0) continue;
    Json doc = good;
    Json::json_pointer ptr(it.key());
    doc[ptr] = it.value().is_boolean() ? Json("yes") : Json(true);
    RunResults out;
    Status s = FromJson(doc, &out);
    ASSERT_TRUE(s.IsInvalidArgument()) << it.key() << ": " << s.ToString();
    EXPECT_EQ(s.message().rfind(PathOf(it.key()) + ": expected ", 0), 0u) << it.key() << " -> " << s.message();
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(PhaseJson, EveryMissingRequiredFieldIsNamed) {
  const Json good = ToJson(testdata::SamplePhaseResults());
  const std::set<std::string> optional = {"latency_from_intended_start", "hdr_histogram", "start_unix_s", "merged_from",
                                          "merged_throughput",           "resources",     "settle_ns"};
  const std::set<std::string> free_form = {"parameters", "engine_settings"};
  int checked = 0;
  std::function<void(const Json&, const Json::json_pointer&)> walk = [&](const Json& node,
                                                                         const Json::json_pointer& ptr) {
    if (node.is_array()) {
      for (size_t i = 0; i < node.size(); ++i) walk(node[i], ptr / i);
      return;
    }
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      Json::json_pointer child = ptr / it.key();
      if (free_form.count(it.key())) continue;
      walk(it.value(), child);
      if (optional.count(it.key())) continue;
      Json doc = good;
      doc[ptr].erase(it.key());
      RunResults out;
      Status s = FromJson(doc, &out);
      ASSERT_TRUE(s.IsInvalidArgument()) << child.to_string();
      EXPECT_EQ(s.message(), PathOf(child.to_string()) + ": missing field");
      ++checked;
    }
  };
  walk(good["phases"], Json::json_pointer("/phases"));
  EXPECT_GT(checked, 200);
}

TEST(PhaseJson, BadCurvePointsAndThreadCounts) {
  Json j = ToJson(testdata::SamplePhaseResults());
  RunResults out;
  j["phases"][1]["service_time"]["percentile_curve"][2] = Json::array({99});
  EXPECT_EQ(FromJson(j, &out).message(),
            "phases[1].service_time.percentile_curve[2]: expected [percentile, ns] pair, got array");
  j = ToJson(testdata::SamplePhaseResults());
  j["phases"][0]["threads"] = 1ull << 33;
  EXPECT_EQ(FromJson(j, &out).message(), "phases[0].threads: 8589934592 is out of range (at most 4294967295)");
  j = ToJson(testdata::SamplePhaseResults());
  j["phases"][0]["per_second"][1]["operations"] = -3;
  EXPECT_EQ(FromJson(j, &out).message(),
            "phases[0].per_second[1].operations: expected unsigned integer, got negative integer");
}

TEST(PhaseMarkdown, MatchesGoldenFile) {
  std::ostringstream out;
  ASSERT_TRUE(MarkdownReporter().Write(testdata::SamplePhaseResults(), out).ok());
  testdata::ExpectMatchesGolden("sample_phases.md", out.str());
}

TEST(PhaseMarkdown, TablesInTheStudysShape) {
  std::ostringstream out;
  WritePhaseTables(testdata::SamplePhaseResults(), out);
  std::string md = out.str();
  EXPECT_NE(
      md.find("## ycsb / workloada / sqlite\n\n| Phase | Throughput (ops/s) | p50 | p95 | p99 | p999 | Ops/hour |"),
      std::string::npos)
      << md;
  // run on sqlite: 1000 ops in 1.25 s = 800 ops/s, 2,880,000 per hour; p50 4321 ns.
  EXPECT_NE(md.find("| run | 800 | 4.321 µs | 10.37 µs | 22.69 µs | 58.33 µs | 2,880,000 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| run (incomplete) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| run | FAILED: Corruption: thread 1: read: key user6284781860667377211"), std::string::npos)
      << md;
  EXPECT_NE(md.find("## sqlite-vps / disk-bound / sqlite"), std::string::npos) << md;
  EXPECT_NE(md.find("Memory: cgroup-v2 memory.max=1073741824."), std::string::npos) << md;
  EXPECT_NE(md.find("one operation is a batch of up to 1,000 rows (1,333 rows/s)"), std::string::npos) << md;
  EXPECT_NE(md.find("open loop at 1,000 ops/s, latency from the intended start p50 1.500 µs"), std::string::npos) << md;
  EXPECT_NE(md.find("| run | update | 497 | 398 | 6.789 µs |"), std::string::npos) << md;
  EXPECT_NE(md.find("| run (incomplete) | scan | 0 | 0.00 | — | — | — | — |"), std::string::npos) << md;
  std::ostringstream none;
  WritePhaseTables(testdata::SampleRunResults(), none);
  EXPECT_EQ(none.str(), "");
}

TEST(PhaseMarkdown, WarningsNameFailedAndInterruptedPhases) {
  std::vector<std::string> w = PhaseWarnings(testdata::SamplePhaseResults());
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "⚠️ Phase ycsb/workloada/run/lmdb was interrupted: its figures cover what finished.");
  EXPECT_EQ(w[1].rfind("⚠️ Phase ycsb/workloada/run/rocksdb failed: Corruption: ", 0), 0u) << w[1];
}

TEST(PhaseConsole, OneLinePerPhase) {
  RunResults r = testdata::SamplePhaseResults();
  EXPECT_EQ(PhaseSummaryLine(r.phases[1]),
            "ycsb/workloada/run/sqlite: 800 ops/s (1,000 ops, 2 threads, 1.250 s), p50 4.321 µs, p99 22.69 µs, "
            "p999 58.33 µs\n");
  EXPECT_EQ(PhaseSummaryLine(r.phases[2]),
            "ycsb/workloada/run/lmdb: 1,000 ops/s (1,000 ops, 2 threads, 1.000 s), p50 1.234 µs, p99 6.481 µs, "
            "p999 16.67 µs, open loop at 1,000 ops/s: from intended start p99 7.875 µs [incomplete]\n");
  EXPECT_EQ(PhaseSummaryLine(r.phases[3]).rfind("ycsb/workloada/run/rocksdb: FAILED: Corruption: thread 1", 0), 0u);
  EXPECT_EQ(PhaseName(r.phases[4]), "sqlite-vps/disk-bound/select-pk/sqlite");
}

TEST(PhaseConsole, MatchesGoldenFile) {
  std::ostringstream out;
  ASSERT_TRUE(ConsoleReporter().Write(testdata::SamplePhaseResults(), out).ok());
  testdata::ExpectMatchesGolden("sample_phases_console.txt", out.str());
}

}  // namespace
}  // namespace dbxb
