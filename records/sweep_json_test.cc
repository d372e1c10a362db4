// The sweep and capacity members of results.json (records/sweep_json.h) and a phase's late operations:
// round trips, strict reading with every error named by its path, and files without them unchanged.
#include "records/sweep_json.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "records/json_results.h"
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

// "/capacity/3/steps/0/role" -> "capacity[3].steps[0].role"
std::string PathOf(const std::string& pointer) {
  std::string out;
  for (size_t pos = 1; pos <= pointer.size();) {
    size_t next = pointer.find('/', pos);
    if (next == std::string::npos) next = pointer.size();
    const std::string token = pointer.substr(pos, next - pos);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + token + "]" : (out.empty() ? token : "." + token);
    pos = next + 1;
  }
  return out;
}

bool InSweepOrCapacity(const std::string& pointer) {
  return pointer.rfind("/sweep/", 0) == 0 || pointer.rfind("/capacity/", 0) == 0;
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
  const Json flat = good.flatten();
  int checked = 0;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (!InSweepOrCapacity(it.key()) || it.value().is_null()) continue;
    Json doc = good;
    doc[Json::json_pointer(it.key())] = it.value().is_boolean() ? Json("yes") : Json(true);
    RunResults out;
    Status s = FromJson(doc, &out);
    ASSERT_TRUE(s.IsInvalidArgument()) << it.key() << ": " << s.ToString();
    EXPECT_EQ(s.message().rfind(PathOf(it.key()) + ": expected ", 0), 0u) << it.key() << " -> " << s.message();
    ++checked;
  }
  EXPECT_GT(checked, 1000);
}

TEST(SweepJson, EveryMissingFieldIsNamed) {
  const Json good = ToJson(Sample());
  int checked = 0;
  std::function<void(const Json&, const Json::json_pointer&)> walk = [&](const Json& node,
                                                                         const Json::json_pointer& ptr) {
    if (node.is_array()) {
      for (size_t i = 0; i < node.size(); ++i) walk(node[i], ptr / i);
      return;
    }
    if (!node.is_object()) return;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const Json::json_pointer child = ptr / it.key();
      if (it.key() == "parameters" || it.key() == "values") continue;  // free-form objects
      walk(it.value(), child);
      Json doc = good;
      doc[ptr].erase(it.key());
      RunResults out;
      Status s = FromJson(doc, &out);
      ASSERT_TRUE(s.IsInvalidArgument()) << child.to_string();
      EXPECT_EQ(s.message(), PathOf(child.to_string()) + ": missing field");
      ++checked;
    }
  };
  walk(good["sweep"], Json::json_pointer("/sweep"));
  walk(good["capacity"], Json::json_pointer("/capacity"));
  EXPECT_GT(checked, 500);
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
