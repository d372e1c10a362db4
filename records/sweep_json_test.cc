// The sweep and capacity members of results.json (records/sweep_json.h) and a phase's late operations:
// round trips, strict reading with every error named by its path, and files without them unchanged.
#include "records/sweep_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "records/json_results.h"
#include "tests/fixtures/json_paths.h"
#include "tests/fixtures/sample_capacity.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

// A sweep with capacity searches, and an open-loop phase with its late operations.
RunResults Sample() {
  RunResults r = testdata::SampleCapacityRuns()[0];
  PhaseResult p;
  p.suite = "sqlite-vps";
  p.phase = "select-pk";
  p.engine = "dbx";
  p.target_rate = 1000;
  p.latency_from_intended_start = LatencySummary{};
  p.late_operations = 17;
  r.phases.push_back(p);
  return r;
}

// The reader the checks of tests/fixtures/json_paths.h run.
Status Read(const Json& doc) {
  RunResults out;
  return FromJson(doc, &out);
}

TEST(SweepJson, RoundTripGivesEqualRecords) {
  const RunResults in = Sample();
  RunResults out;
  Status s = ParseResults(SerializeResults(in), &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(out.sweep.has_value());
  EXPECT_EQ(out.sweep->dimensions.front().values, (std::vector<std::string>{"normal", "full"}));
  EXPECT_EQ(out.phases.back().late_operations, std::optional<uint64_t>(17));
  EXPECT_TRUE(out == in);
  out.capacity[2].steps[1].from_intended.sla_percentile_ns += 1;  // the comparison must be able to fail
  EXPECT_FALSE(out == in);
}

TEST(SweepJson, RunsWithoutThemWriteNeither) {
  const Json j = ToJson(testdata::SampleRunResults());
  EXPECT_FALSE(j.contains("sweep"));
  EXPECT_FALSE(j.contains("capacity"));
  for (const Json& p : j["phases"]) EXPECT_FALSE(p.contains("late_operations"));
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_FALSE(out.sweep.has_value());
  EXPECT_TRUE(out.capacity.empty());
}

TEST(SweepJson, TopLevelOrderPutsTheSweepAfterTheContext) {
  std::vector<std::string> keys;
  const Json j = ToJson(Sample());
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schema_version", "context", "sweep", "benchmarks", "phases", "capacity"}));
}

TEST(SweepJson, EveryWrongTypeIsNamedByItsPath) {
  const Json good = ToJson(Sample());
  EXPECT_GT(testdata::ExpectEveryWrongTypeNamed(good, "/sweep/", Read), 10);
  EXPECT_GT(testdata::ExpectEveryWrongTypeNamed(good, "/capacity/0/", Read), 100);  // every field of a record
}

TEST(SweepJson, EveryMissingFieldIsNamed) {
  const Json good = ToJson(Sample());
  EXPECT_GT(testdata::ExpectEveryMissingFieldNamed(good, "/sweep", {"values"}, Read), 8);
  EXPECT_GT(testdata::ExpectEveryMissingFieldNamed(good, "/capacity/0", {"parameters", "memory_method"}, Read), 100);
}

TEST(SweepJson, InconsistentRecordsAreRefused) {
  Json j = ToJson(Sample());
  j["capacity"][0]["lower_step"] = 99;
  RunResults out;
  EXPECT_EQ(FromJson(j, &out).message(), "capacity[0]: lower_step or upper_step is not -1 or an index into steps");
  j = ToJson(Sample());
  j["sweep"]["dimensions"] = Json::array();
  EXPECT_EQ(FromJson(j, &out).message(), "sweep.dimensions: a sweep needs a dimension");
  j = ToJson(Sample());
  j["sweep"]["dimensions"][0]["values"] = Json::array();
  EXPECT_EQ(FromJson(j, &out).message(), "sweep.dimensions[0].values: a dimension needs at least one value");
  j = ToJson(Sample());
  j["phases"][0]["late_operations"] = -1;
  EXPECT_EQ(FromJson(j, &out).message(), "phases[0].late_operations: expected unsigned integer, got negative integer");
}

// A capacity is the rate of the passing step lower_step names; the reader refuses figures that
// contradict the steps (issue 44, item 17), which `report` would print otherwise.
TEST(SweepJson, ACapacityThatContradictsItsStepsIsRefused) {
  const Json good = ToJson(Sample());
  const Json& c = good["capacity"][0];
  ASSERT_GE(c["lower_step"].get<int>(), 0);
  RunResults out;
  ASSERT_TRUE(FromJson(good, &out).ok());
  Json j = good;
  j["capacity"][0]["capacity_ops_per_sec"] = c["capacity_ops_per_sec"].get<double>() * 10;
  EXPECT_NE(FromJson(j, &out).message().find("capacity[0].capacity_ops_per_sec: "), std::string::npos)
      << FromJson(j, &out).message();
  j = good;
  j["capacity"][0]["lower_step"] = -1;
  EXPECT_NE(FromJson(j, &out).message().find("no step passed"), std::string::npos) << FromJson(j, &out).message();
  j = good;
  j["capacity"][0]["steps"][c["lower_step"].get<int>()]["met_sla"] = false;
  EXPECT_NE(FromJson(j, &out).message().find("did not pass"), std::string::npos) << FromJson(j, &out).message();
  j = good;
  j["capacity"][0]["steps"][0]["achieved_ops_per_sec"] = -5;
  EXPECT_EQ(FromJson(j, &out).message(), "capacity[0].steps[0].achieved_ops_per_sec: a throughput cannot be negative");
  j = good;
  j["phases"][0]["throughput_ops_per_sec"] = -5;
  EXPECT_EQ(FromJson(j, &out).message(), "phases[0].throughput_ops_per_sec: a throughput cannot be negative");
}

TEST(SweepJson, AnEarlierFilesMemoryMethodParameterIsMovedToItsField) {
  Json j = ToJson(Sample());
  j["capacity"][0].erase("memory_method");
  j["capacity"][0]["parameters"]["memory_method"] = "eviction; 1 of 2 bytes still cached";
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_EQ(out.capacity[0].memory_method, "eviction; 1 of 2 bytes still cached");
  for (const auto& [key, value] : out.capacity[0].parameters) EXPECT_NE(key, "memory_method");
}

TEST(SweepJson, NullMeansNone) {
  Json j = ToJson(Sample());
  j["sweep"] = nullptr;
  j["capacity"] = nullptr;
  j["phases"][0]["late_operations"] = nullptr;
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_FALSE(out.sweep.has_value());
  EXPECT_TRUE(out.capacity.empty());
  EXPECT_FALSE(out.phases[0].late_operations.has_value());
}

}  // namespace
}  // namespace dbxb
