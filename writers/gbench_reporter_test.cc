// Golden files: tests/fixtures/sample_results_gbench.json and sample_phases_gbench.json; regenerate with
//   DBXB_UPDATE_GOLDEN=1 build/writers/reporters_test --gtest_filter='Gbench*'
// and review `git diff tests/fixtures/`.
//
// Compatibility is checked against the real thing twice: the entries are compared field by field
// (names, order, JSON types) with what the installed Google Benchmark library writes, and, when
// Debian's libbenchmark-tools and python3-scipy are installed, Google Benchmark's own compare.py is
// run on two of our files (skipped otherwise).
#include "writers/gbench_reporter.h"

#include <benchmark/benchmark.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fixtures/golden.h"
#include "tests/fixtures/sample_phases.h"
#include "tests/fixtures/sample_results.h"

namespace dbxb {
namespace {

using Json = nlohmann::ordered_json;

std::string Render(const RunResults& r, bool aggregates_only = false) {
  std::ostringstream out;
  GbenchReporter reporter(aggregates_only);
  EXPECT_TRUE(reporter.Write(r, out).ok());
  return out.str();
}

std::vector<std::string> Keys(const Json& obj) {
  std::vector<std::string> keys;
  for (auto it = obj.begin(); it != obj.end(); ++it) keys.push_back(it.key());
  return keys;
}

// What the installed Google Benchmark library itself writes for a benchmark with two repetitions and
// items processed, and for one that fails. Fixed iteration counts keep this instant.
Json RealGbenchOutput() {
  // Initialize records argv[0] as the context's "executable".
  static char name[] = "reporters_test";
  static char* argv[] = {name, nullptr};
  int argc = 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RegisterBenchmark("probe/get/engine",
                               [](benchmark::State& state) {
                                 for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
                                 state.SetItemsProcessed(state.iterations());
                               })
      ->Repetitions(2)
      ->Iterations(10);
  benchmark::RegisterBenchmark("probe/get/failing", [](benchmark::State& state) {
    for (auto _ : state) {
      state.SkipWithError("broken");
      break;
    }
  })->Iterations(1);
  std::ostringstream out, err;
  benchmark::JSONReporter reporter;
  reporter.SetOutputStream(&out);
  reporter.SetErrorStream(&err);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  return Json::parse(out.str());
}

const Json* FindEntry(const Json& doc, const std::string& run_type, bool error) {
  for (const Json& e : doc["benchmarks"]) {
    if (e["run_type"] == run_type && e.contains("error_occurred") == error) return &e;
  }
  return nullptr;
}

const Json* FindAggregate(const Json& doc, const std::string& aggregate) {
  for (const Json& e : doc["benchmarks"]) {
    if (e.value("aggregate_name", "") == aggregate) return &e;
  }
  return nullptr;
}

void ExpectSameShape(const Json& ours, const Json& theirs, const std::string& what) {
  ASSERT_EQ(Keys(ours), Keys(theirs)) << what;
  for (auto it = theirs.begin(); it != theirs.end(); ++it) {
    const Json& mine = ours[it.key()];
    bool same_type = mine.type() == it.value().type() ||
                     (mine.is_number_integer() && it.value().is_number_integer());  // signed vs unsigned
    EXPECT_TRUE(same_type) << what << "." << it.key() << ": ours " << mine.type_name() << ", Google Benchmark "
                           << it.value().type_name();
  }
}

TEST(GbenchReporter, MatchesGoldenFile) {
  testdata::ExpectMatchesGolden("sample_results_gbench.json", Render(testdata::SampleRunResults()));
}

TEST(GbenchReporter, FieldsMatchWhatGoogleBenchmarkWrites) {
  Json theirs = RealGbenchOutput();
  Json ours = Json::parse(Render(testdata::SampleRunResults()));

  // Context: Google Benchmark's keys first, in its order; ours adds custom string keys after them.
  std::vector<std::string> their_context = Keys(theirs["context"]);
  std::vector<std::string> our_context = Keys(ours["context"]);
  ASSERT_GE(our_context.size(), their_context.size());
  EXPECT_EQ(std::vector<std::string>(our_context.begin(), our_context.begin() + their_context.size()), their_context);
  for (const std::string& key : their_context) {
    if (key == "caches" || key == "load_avg") continue;  // arrays, element shape checked by type below
    EXPECT_EQ(ours["context"][key].is_number(), theirs["context"][key].is_number()) << key;
    EXPECT_EQ(ours["context"][key].is_string(), theirs["context"][key].is_string()) << key;
    EXPECT_EQ(ours["context"][key].is_boolean(), theirs["context"][key].is_boolean()) << key;
  }

  const Json* their_iteration = FindEntry(theirs, "iteration", false);
  const Json* our_iteration = FindEntry(ours, "iteration", false);
  ASSERT_TRUE(their_iteration && our_iteration);
  ExpectSameShape(*our_iteration, *their_iteration, "iteration");

  for (const char* aggregate : {"mean", "median"}) {
    const Json* t = FindAggregate(theirs, aggregate);
    const Json* o = FindAggregate(ours, aggregate);
    ASSERT_TRUE(t && o) << aggregate;
    ExpectSameShape(*o, *t, aggregate);
    EXPECT_EQ((*o)["name"], (*o)["run_name"].get<std::string>() + "_" + aggregate);
  }
  // stddev and cv: the same fields except items_per_second, which we leave out (a spread of rates
  // is not a rate).
  for (const char* aggregate : {"stddev", "cv"}) {
    Json t = *FindAggregate(theirs, aggregate);
    t.erase("items_per_second");
    ExpectSameShape(*FindAggregate(ours, aggregate), t, aggregate);
    EXPECT_EQ((*FindAggregate(ours, aggregate))["aggregate_unit"], t["aggregate_unit"]);
  }

  const Json* their_error = FindEntry(theirs, "iteration", true);
  const Json* our_error = FindEntry(ours, "iteration", true);
  ASSERT_TRUE(their_error && our_error);
  ExpectSameShape(*our_error, *their_error, "error");
}

TEST(GbenchReporter, PhasesMatchGoldenFile) {
  testdata::ExpectMatchesGolden("sample_phases_gbench.json", Render(testdata::SamplePhaseResults()));
}

// A phase is an iteration entry with Google Benchmark's fields plus user counters (the percentiles),
// placed where Google Benchmark puts counters: after items_per_second.
TEST(GbenchReporter, PhasesAreIterationsWithPercentileCounters) {
  const RunResults r = testdata::SamplePhaseResults();
  Json ours = Json::parse(Render(r));
  Json theirs = RealGbenchOutput();
  const Json& their_iteration = *FindEntry(theirs, "iteration", false);
  ASSERT_EQ(ours["benchmarks"].size(), r.phases.size());
  const Json& run = ours["benchmarks"][1];  // sqlite's run phase
  EXPECT_EQ(run["name"], "ycsb/workloada/run/sqlite/threads:2");
  EXPECT_EQ(run["run_type"], "iteration");
  EXPECT_EQ(run["threads"], 2);
  EXPECT_EQ(run["iterations"], r.phases[1].operations);
  EXPECT_DOUBLE_EQ(run["real_time"].get<double>(), r.phases[1].service_time.mean_ns);
  EXPECT_DOUBLE_EQ(run["items_per_second"].get<double>(), r.phases[1].throughput_ops_per_sec);
  EXPECT_DOUBLE_EQ(run["p99_ns"].get<double>(), r.phases[1].service_time.p99_ns);
  EXPECT_DOUBLE_EQ(run["p999_ns"].get<double>(), r.phases[1].service_time.p999_ns);
  Json without_counters = run;
  for (const char* c : {"p50_ns", "p90_ns", "p95_ns", "p99_ns", "p999_ns", "p9999_ns", "max_ns"}) {
    ASSERT_TRUE(without_counters.contains(c)) << c;
    without_counters.erase(c);
  }
  ExpectSameShape(without_counters, their_iteration, "phase");
  // Both sqlite phases and lmdb's run are instances of their suite/workload/phase families.
  EXPECT_EQ(ours["benchmarks"][0]["family_index"], 0);
  EXPECT_EQ(run["family_index"], 1);
  EXPECT_EQ(ours["benchmarks"][2]["family_index"], 1);
  EXPECT_EQ(ours["benchmarks"][2]["per_family_instance_index"], 1);
  EXPECT_EQ(ours["benchmarks"][2]["name"], "ycsb/workloada/run/lmdb/threads:2/incomplete");
  // The failed phase is an error entry with Google Benchmark's error fields.
  const Json& failed = ours["benchmarks"][3];
  EXPECT_EQ(failed["error_occurred"], true);
  ExpectSameShape(failed, *FindEntry(theirs, "iteration", true), "failed phase");
}

TEST(GbenchReporter, SamplesBecomeRepetitions) {
  RunResults r = testdata::SampleRunResults();
  Json doc = ToGbenchJson(r);
  // get on sqlite: family 1 (get), instance 1 (second engine of get), 10 samples + 4 aggregates.
  std::vector<Json> entries;
  for (const Json& e : doc["benchmarks"]) {
    if (e["run_name"] == "dbx-micro/get/sqlite") entries.push_back(e);
  }
  ASSERT_EQ(entries.size(), 14u);
  const Sample& s = r.benchmarks[5].samples[3];
  EXPECT_EQ(entries[3]["repetition_index"], 3);
  EXPECT_EQ(entries[3]["repetitions"], 10);
  EXPECT_EQ(entries[3]["family_index"], 1);
  EXPECT_EQ(entries[3]["per_family_instance_index"], 1);
  EXPECT_EQ(entries[3]["iterations"], s.iterations);
  EXPECT_DOUBLE_EQ(entries[3]["real_time"].get<double>(), s.total_ns / static_cast<double>(s.iterations));
  EXPECT_EQ(entries[3]["cpu_time"], entries[3]["real_time"]);
  EXPECT_DOUBLE_EQ(entries[3]["items_per_second"].get<double>(), 1e9 / entries[3]["real_time"].get<double>());
  EXPECT_EQ(entries[10]["name"], "dbx-micro/get/sqlite_mean");
  EXPECT_DOUBLE_EQ(entries[10]["real_time"].get<double>(), r.benchmarks[5].estimates.mean.point);
  EXPECT_EQ(entries[13]["name"], "dbx-micro/get/sqlite_cv");
  EXPECT_DOUBLE_EQ(entries[13]["real_time"].get<double>(),
                   r.benchmarks[5].estimates.std_dev.point / r.benchmarks[5].estimates.mean.point);
}

TEST(GbenchReporter, AggregatesOnlyAndFailures) {
  Json doc = ToGbenchJson(testdata::SampleRunResults(), /*aggregates_only=*/true);
  size_t failed = 0;
  for (const Json& e : doc["benchmarks"]) {
    if (e.contains("error_occurred")) {
      ++failed;
      EXPECT_EQ(e["name"], "dbx-micro/get/lmdb");
      EXPECT_EQ(e["error_message"], "wrong value for key_00000042");
    } else {
      EXPECT_EQ(e["run_type"], "aggregate");
    }
  }
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(doc["benchmarks"].size(), 7 * 4 + 1u);
}

TEST(GbenchReporter, DuplicateNamesGetTheirParameters) {
  RunResults r = testdata::SampleRunResults();
  BenchmarkResult big = r.benchmarks[0];
  big.parameters[0].second = "1000000";
  r.benchmarks.push_back(big);
  Json doc = ToGbenchJson(r, true);
  std::set<std::string> names;
  for (const Json& e : doc["benchmarks"]) names.insert(e["run_name"].get<std::string>());
  EXPECT_TRUE(names.count("dbx-micro/insert/dbx/records:10000/key_size:12/value_size:19/durability:normal"));
  EXPECT_TRUE(names.count("dbx-micro/insert/dbx/records:1000000/key_size:12/value_size:19/durability:normal"));
  EXPECT_FALSE(names.count("dbx-micro/insert/dbx"));
  EXPECT_TRUE(names.count("dbx-micro/insert/sqlite"));
}

TEST(GbenchReporter, EmptyRunIsAValidDocument) {
  Json doc = Json::parse(Render(RunResults()));
  EXPECT_TRUE(doc["benchmarks"].is_array());
  EXPECT_TRUE(doc["benchmarks"].empty());
  EXPECT_EQ(doc["context"]["executable"], "dbx-bench");
}

TEST(GbenchReporter, ContextMapping) {
  RunResults r = testdata::SampleRunResults();
  Json c = ToGbenchJson(r)["context"];
  EXPECT_EQ(c["date"], "2026-11-30T15:34:56+00:00");
  EXPECT_EQ(c["executable"], "build/dbx-bench");
  EXPECT_EQ(c["mhz_per_cpu"], 2300);
  EXPECT_EQ(c["library_build_type"], "release");
  r.context.build_type = "Debug";
  EXPECT_EQ(ToGbenchJson(r)["context"]["library_build_type"], "debug");
}

// Google Benchmark's compare.py, from Debian's libbenchmark-tools, run on two of our files.
TEST(GbenchReporter, GoogleBenchmarkComparePyAcceptsOurFiles) {
  const std::string python = "/usr/bin/python3";
  const std::string compare = "/usr/share/benchmark/compare.py";
  if (!std::filesystem::exists(compare) || !std::filesystem::exists(python) ||
      std::system((python + " -c 'import scipy' >/dev/null 2>&1").c_str()) != 0) {
    GTEST_SKIP() << "needs " << compare << " (Debian libbenchmark-tools) and python3-scipy";
  }
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("dbxb_gbench_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  RunResults base = testdata::SampleRunResults();
  RunResults slower = base;
  for (BenchmarkResult& b : slower.benchmarks) {  // every time 10 % longer
    for (Sample& s : b.samples) s.total_ns *= 1.1;
    b.estimates.mean.point *= 1.1;
    b.estimates.median.point *= 1.1;
    b.estimates.std_dev.point *= 1.1;
  }
  std::ofstream(dir / "base.json") << Render(base);
  std::ofstream(dir / "slower.json") << Render(slower);
  std::string cmd = python + " " + compare + " --no-color benchmarks " + (dir / "base.json").string() + " " +
                    (dir / "slower.json").string() + " 2>&1";
  std::string output;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) output.append(buf, n);
  int rc = ::pclose(pipe);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(rc, 0) << output;
  // The mean of get on sqlite is reported 10 % slower.
  std::istringstream lines(output);
  std::string line;
  bool found = false;
  while (std::getline(lines, line)) {
    if (line.rfind("dbx-micro/get/sqlite_mean ", 0) == 0) {
      found = true;
      EXPECT_NE(line.find("+0.1000"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(found) << output;
  EXPECT_NE(output.find("dbx-micro/get/sqlite_pvalue"), std::string::npos) << "U test over the 10 samples";
}

}  // namespace
}  // namespace dbxb
