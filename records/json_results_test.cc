#include "records/json_results.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "common/atomic_file.h"
#include "tests/fixtures/golden.h"
#include "tests/fixtures/json_paths.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

TEST(JsonResults, RoundTripGivesEqualRecords) {
  RunResults in = testdata::SampleRunResults();
  RunResults out;
  Status s = ParseResults(SerializeResults(in), &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(out == in);
  // The comparison must be able to fail: a changed sample is noticed.
  out.benchmarks[1].samples[3].total_ns = std::nextafter(out.benchmarks[1].samples[3].total_ns, 0.0);
  EXPECT_FALSE(out == in);
}

TEST(JsonResults, AServersShareRoundTripsAndIsAbsentWithoutOne) {
  RunResults in = testdata::SampleRunResults();
  ASSERT_TRUE(in.benchmarks[0].resources.has_value());
  EXPECT_EQ(SerializeResults(in).find("\"server\""), std::string::npos) << "no server, no field (goldens unchanged)";
  ServerResourceUsage server;
  server.cpu_user_ns = 7;
  server.pss_bytes = 123456;
  server.fsync_calls = 3;
  in.benchmarks[0].resources->server = server;
  RunResults out;
  ASSERT_TRUE(ParseResults(SerializeResults(in), &out).ok());
  EXPECT_TRUE(out == in);
  ASSERT_TRUE(out.benchmarks[0].resources->server.has_value());
  EXPECT_FALSE(out.benchmarks[0].resources->server->wal_bytes.has_value());
  EXPECT_EQ(out.benchmarks[0].resources->server->fsync_calls, std::optional<uint64_t>(3));
}

// The fields of the gate (issue 28): a counted benchmark's instructions, insert's setup syncs and writes
// counted apart, a phase bounded by its duration. Absent in files that predate them, and optional.
TEST(JsonResults, GateFieldsRoundTripAndAreAbsentOtherwise) {
  RunResults in = testdata::SampleRunResults();
  const std::string plain = SerializeResults(in);
  EXPECT_EQ(plain.find("\"instructions\""), std::string::npos);
  EXPECT_EQ(plain.find("\"setup_fsync_calls\""), std::string::npos);
  EXPECT_EQ(plain.find("\"bounded_by_duration\""), std::string::npos);
  in.benchmarks[0].instructions = InstructionCount{36611187, 3, 30000, 1220.4, "valgrind-3.19.0 callgrind", ""};
  in.benchmarks[1].instructions = InstructionCount{5, 3, 30000, 0.0001, "valgrind-3.19.0 callgrind", "synced 3 times"};
  ResourceUsage u;
  u.operations = 10000;
  u.fsync_calls = 0;
  u.setup_fsync_calls = 50;
  u.setup_io_write_bytes = 286720;
  in.benchmarks[0].resources = u;
  PhaseResult p;
  p.suite = "ycsb";
  p.phase = "run";
  p.engine = "null";
  p.bounded_by_duration = true;
  in.phases.push_back(p);
  RunResults out;
  const Status s = ParseResults(SerializeResults(in), &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(out == in);
  Json bad = Json::parse(SerializeResults(in));
  bad["benchmarks"][0]["instructions"]["per_op"] = "many";
  EXPECT_NE(FromJson(bad, &out).message().find("benchmarks[0].instructions.per_op"), std::string::npos);
}

TEST(JsonResults, MatchesGoldenFile) {
  testdata::ExpectMatchesGolden("sample_results.json", SerializeResults(testdata::SampleRunResults()));
}

TEST(JsonResults, DoublesRoundTripBitForBit) {
  std::mt19937_64 rng(12345);
  RunResults in;
  BenchmarkResult b;
  for (int i = 0; i < 2000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    b.samples.push_back(Sample{bits, v});
  }
  b.samples.push_back(Sample{0, std::numeric_limits<double>::denorm_min()});
  b.samples.push_back(Sample{0, -0.0});
  b.samples.push_back(Sample{std::numeric_limits<uint64_t>::max(), std::numeric_limits<double>::max()});
  in.benchmarks.push_back(b);
  RunResults out;
  ASSERT_TRUE(ParseResults(SerializeResults(in), &out).ok());
  ASSERT_EQ(out.benchmarks[0].samples.size(), b.samples.size());
  for (size_t i = 0; i < b.samples.size(); ++i) {
    EXPECT_EQ(out.benchmarks[0].samples[i].iterations, b.samples[i].iterations);
    EXPECT_EQ(0, std::memcmp(&out.benchmarks[0].samples[i].total_ns, &b.samples[i].total_ns, sizeof(double))) << i;
  }
}

TEST(JsonResults, NonFiniteNumbersAreWrittenAsStrings) {
  RunResults in = testdata::SampleRunResults();
  in.benchmarks[0].estimates.std_dev.std_error = std::numeric_limits<double>::quiet_NaN();
  in.benchmarks[0].throughput.upper = std::numeric_limits<double>::infinity();
  in.benchmarks[0].throughput.lower = -std::numeric_limits<double>::infinity();
  Json j = ToJson(in);
  EXPECT_EQ(j["benchmarks"][0]["estimates"]["std_dev"]["std_error"], "NaN");
  EXPECT_EQ(j["benchmarks"][0]["throughput"]["upper"], "Infinity");
  EXPECT_EQ(j["benchmarks"][0]["throughput"]["lower"], "-Infinity");
  RunResults out;
  ASSERT_TRUE(ParseResults(SerializeResults(in), &out).ok());
  EXPECT_TRUE(std::isnan(out.benchmarks[0].estimates.std_dev.std_error));
  EXPECT_EQ(out.benchmarks[0].throughput.upper, std::numeric_limits<double>::infinity());
  EXPECT_EQ(out.benchmarks[0].throughput.lower, -std::numeric_limits<double>::infinity());
}

TEST(JsonResults, DocumentStartsWithVersionThenContext) {
  std::string text = SerializeResults(testdata::SampleRunResults());
  EXPECT_EQ(text.rfind("{\n  \"schema_version\": 1,\n  \"context\": {\n    \"date_utc\"", 0), 0u) << text.substr(0, 80);
  EXPECT_EQ(text.back(), '\n');
}

TEST(JsonResults, KeyValuesKeepTheirOrder) {
  RunResults in;
  in.context.configuration = {{"zeta", "1"}, {"alpha", "2"}, {"mid", "3"}};
  RunResults out;
  ASSERT_TRUE(ParseResults(SerializeResults(in), &out).ok());
  EXPECT_EQ(out.context.configuration, in.context.configuration);
}

TEST(JsonResults, EveryTruncationIsCorruptionNeverACrash) {
  std::string text = SerializeResults(testdata::SampleRunResults());
  size_t end = text.find_last_not_of(" \n") + 1;  // the closing brace
  RunResults out;
  for (size_t len = 0; len < end; len += (len < 200 || end - len < 200) ? 1 : 7) {
    Status s = ParseResults(std::string_view(text).substr(0, len), &out);
    ASSERT_TRUE(s.IsCorruption()) << "prefix of " << len << " bytes: " << s.ToString();
  }
  EXPECT_TRUE(out.benchmarks.empty()) << "a failed read must leave the output untouched";
}

TEST(JsonResults, NotJson) {
  RunResults out;
  Status s = ParseResults("this is not json", &out);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_NE(s.message().find("line 1, column"), std::string::npos) << s.ToString();
  EXPECT_TRUE(ParseResults("", &out).IsCorruption());
  EXPECT_TRUE(ParseResults("\n \n", &out).IsCorruption());
  EXPECT_TRUE(ParseResults("{\"schema_version\": 1} trailing", &out).IsCorruption());
  EXPECT_TRUE(ParseResults(std::string("{\"a\":\"\xff\"}"), &out).IsCorruption());
}

TEST(JsonResults, SchemaVersionIsChecked) {
  Json j = ToJson(testdata::SampleRunResults());
  RunResults out;
  j["schema_version"] = 2;
  Status s = FromJson(j, &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), "schema_version: unsupported version 2 (this build reads version 1)");
  j["schema_version"] = "1";
  EXPECT_EQ(FromJson(j, &out).message(), "schema_version: expected unsigned integer, got string");
  j.erase("schema_version");
  EXPECT_EQ(FromJson(j, &out).message(), "schema_version: missing field (not a dbx-bench results file?)");
  EXPECT_EQ(FromJson(Json::array(), &out).message(), "(top level): expected object, got array");
}

// Replacing any value of the document by one of the wrong type is caught, and the message names it.
TEST(JsonResults, EveryWrongTypeIsNamedByItsPath) {
  const Json good = ToJson(testdata::SampleRunResults());
  const Json flat = good.flatten();
  int checked = 0;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (it.key() == "/schema_version") continue;
    Json doc = good;
    Json::json_pointer ptr(it.key());
    doc[ptr] = it.value().is_boolean() ? Json("yes") : Json(true);  // never the right type
    RunResults out;
    Status s = FromJson(doc, &out);
    ASSERT_TRUE(s.IsInvalidArgument()) << it.key() << ": " << s.ToString();
    std::string path = testdata::JsonPathOf(it.key());
    EXPECT_EQ(s.message().rfind(path + ": expected ", 0), 0u) << it.key() << " -> " << s.message();
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

TEST(JsonResults, EveryMissingRequiredFieldIsNamed) {
  const Json good = ToJson(testdata::SampleRunResults());
  const auto read = [](const Json& doc) {
    RunResults out;
    return FromJson(doc, &out);
  };
  // schema_version's own message is checked above.
  const std::vector<std::string> optional = {"slope",
                                             "harness_overhead_ns_per_op",
                                             "forced_sampling_mode",
                                             "phases",
                                             "merged_files",
                                             "resources",
                                             "settle_ns",
                                             "calibration",
                                             "harness_round_ns",
                                             "native_round_ns",
                                             "source",
                                             "flags",
                                             "release_date",
                                             "schema_version"};
  EXPECT_GT(testdata::ExpectEveryMissingFieldNamed(good, "", {"parameters", "engine_settings", "configuration"}, read,
                                                   optional),
            300);
}

TEST(JsonResults, OptionalFieldsMayBeNullOrAbsent) {
  RunResults in = testdata::SampleRunResults();
  ASSERT_TRUE(in.benchmarks[4].estimates.slope.has_value());
  Json j = ToJson(in);
  j["benchmarks"][4]["estimates"].erase("slope");
  j["context"]["harness_overhead_ns_per_op"] = nullptr;
  ASSERT_TRUE(in.benchmarks[4].settle_ns.has_value() && in.benchmarks[5].settle_ns.has_value());
  j["benchmarks"][4]["settle_ns"] = nullptr;
  j["benchmarks"][5].erase("settle_ns");
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_FALSE(out.benchmarks[4].settle_ns.has_value());
  EXPECT_FALSE(out.benchmarks[5].settle_ns.has_value());
  EXPECT_FALSE(out.benchmarks[4].estimates.slope.has_value());
  EXPECT_FALSE(out.context.harness_overhead_ns_per_op.has_value());
  EXPECT_EQ(ToJson(out)["benchmarks"][0]["estimates"]["slope"], nullptr);
}

TEST(JsonResults, ForcedSamplingModeRoundTrips) {
  RunResults in = testdata::SampleRunResults();
  in.context.sampling.forced_sampling_mode = SamplingMode::kFlat;
  Json j = ToJson(in);
  EXPECT_EQ(j["context"]["sampling"]["forced_sampling_mode"], "flat");
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_TRUE(out == in);
  j["context"]["sampling"]["forced_sampling_mode"] = "auto";
  EXPECT_EQ(FromJson(j, &out).message(),
            "context.sampling.forced_sampling_mode: expected \"linear\" or \"flat\", got \"auto\"");
}

TEST(JsonResults, UnknownFieldsAreIgnored) {
  Json j = ToJson(testdata::SampleRunResults());
  j["added_later"] = 1;
  j["context"]["gpu"] = "none";
  j["benchmarks"][0]["energy_joules"] = 3.5;
  RunResults out;
  ASSERT_TRUE(FromJson(j, &out).ok());
  EXPECT_TRUE(out == testdata::SampleRunResults());
}

TEST(JsonResults, BadEnumValueAndNegativeCount) {
  Json j = ToJson(testdata::SampleRunResults());
  j["benchmarks"][2]["sampling_mode"] = "auto";
  RunResults out;
  EXPECT_EQ(FromJson(j, &out).message(), "benchmarks[2].sampling_mode: expected \"linear\" or \"flat\", got \"auto\"");
  j = ToJson(testdata::SampleRunResults());
  j["benchmarks"][0]["outliers"]["high_mild"] = -1;
  EXPECT_EQ(FromJson(j, &out).message(),
            "benchmarks[0].outliers.high_mild: expected unsigned integer, got negative integer");
  j["benchmarks"][0]["outliers"]["high_mild"] = 1.5;
  EXPECT_EQ(FromJson(j, &out).message(),
            "benchmarks[0].outliers.high_mild: expected unsigned integer, got floating-point number");
  j = ToJson(testdata::SampleRunResults());
  j["benchmarks"][0]["throughput"]["point"] = "fast";
  EXPECT_EQ(FromJson(j, &out).message(), "benchmarks[0].throughput.point: expected number, got string \"fast\"");
}

TEST(JsonResults, AcceptsPlainNlohmannJson) {
  nlohmann::json plain = nlohmann::json::parse(SerializeResults(testdata::SampleRunResults()));
  RunResults out;
  ASSERT_TRUE(FromJson(plain, &out).ok());
  // nlohmann::json sorts keys, but KeyValues order is then by key: only the order may differ.
  EXPECT_EQ(out.benchmarks.size(), testdata::SampleRunResults().benchmarks.size());
}

class ResultsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("dbxb_json_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ResultsFileTest, WriteThenRead) {
  std::string path = (dir_ / "results.json").string();
  RunResults in = testdata::SampleRunResults();
  ASSERT_TRUE(WriteResultsFile(path, in).ok());
  RunResults out;
  Status s = ReadResultsFile(path, &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(out == in);
}

TEST_F(ResultsFileTest, ErrorsNameTheFileAndTheField) {
  std::string path = (dir_ / "results.json").string();
  Json j = ToJson(testdata::SampleRunResults());
  j["benchmarks"][3]["samples"][0]["iterations"] = "12";
  ASSERT_TRUE(WriteFileAtomically(path, j.dump()).ok());
  RunResults out;
  Status s = ReadResultsFile(path, &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), path + ": benchmarks[3].samples[0].iterations: expected unsigned integer, got string");

  ASSERT_TRUE(WriteFileAtomically(path, j.dump().substr(0, 100)).ok());
  s = ReadResultsFile(path, &out);
  EXPECT_TRUE(s.IsCorruption());
  EXPECT_EQ(s.message().rfind(path + ": not valid JSON: ", 0), 0u) << s.message();

  s = ReadResultsFile((dir_ / "missing.json").string(), &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(s.message(), (dir_ / "missing.json").string() + ": cannot read: No such file or directory");

  s = ReadResultsFile(dir_.string(), &out);  // a directory
  EXPECT_EQ(s.message(), dir_.string() + ": is a directory, not a regular file");
}

}  // namespace
}  // namespace dbxb
