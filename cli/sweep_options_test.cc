#include "cli/sweep_options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "adapters/adapter.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

RunArgs Micro(std::map<std::string, std::string> options) {
  RunArgs a;
  a.engines = "null";
  a.suite_options = std::move(options);
  return a;
}

std::string Error(const RunArgs& args) {
  SweepRequest r;
  Status s = PlanSweep(args, &r);
  return s.ok() ? "" : s.message();
}

TEST(PlanSweepTest, NoListIsNoSweep) {
  SweepRequest r;
  ASSERT_TRUE(PlanSweep(Micro({{"threads", "4"}}), &r).ok());
  EXPECT_TRUE(r.dimensions.empty());
  EXPECT_TRUE(r.point_args.empty());
}

TEST(PlanSweepTest, OneDimensionNormalisesItsValuesAndMakesAPointEach) {
  SweepRequest r;
  RunArgs args = Micro({{"records", "1k,10k,1M"}, {"workloads", "get,scan"}});
  ASSERT_TRUE(PlanSweep(args, &r).ok());
  ASSERT_EQ(r.dimensions.size(), 1u);
  EXPECT_EQ(r.dimensions[0].name, "records");
  EXPECT_EQ(r.dimensions[0].option, "--records");
  EXPECT_EQ(r.dimensions[0].values, (std::vector<std::string>{"1000", "10000", "1000000"}));
  ASSERT_EQ(r.point_args.size(), 3u);
  EXPECT_EQ(r.point_args[2].suite_options.at("records"), "1000000");
  EXPECT_EQ(r.point_args[2].suite_options.at("workloads"), "get,scan") << "a list in another option is not swept";
  EXPECT_EQ(r.point_values[1], (KeyValues{{"records", "10000"}}));
}

TEST(PlanSweepTest, TwoDimensionsTheFirstVariesSlowest) {
  SweepRequest r;
  RunArgs args = Micro({{"threads", "1,2"}});
  args.durability = "normal,full";
  args.cache_size = "8MiB";
  ASSERT_TRUE(PlanSweep(args, &r).ok());
  ASSERT_EQ(r.dimensions.size(), 2u);
  EXPECT_EQ(r.dimensions[0].name, "threads");
  EXPECT_EQ(r.dimensions[1].name, "durability");
  ASSERT_EQ(r.point_values.size(), 4u);
  EXPECT_EQ(r.point_values[0], (KeyValues{{"threads", "1"}, {"durability", "normal"}}));
  EXPECT_EQ(r.point_values[1], (KeyValues{{"threads", "1"}, {"durability", "full"}}));
  EXPECT_EQ(r.point_values[3], (KeyValues{{"threads", "2"}, {"durability", "full"}}));
  EXPECT_EQ(r.point_args[1].durability, "full");
  EXPECT_EQ(r.point_args[1].suite_options.at("threads"), "1");
  EXPECT_EQ(r.point_args[1].cache_size, "8MiB");
}

TEST(PlanSweepTest, CacheSizesAreBytes) {
  SweepRequest r;
  RunArgs args = Micro({});
  args.cache_size = "1MiB,64MiB";
  ASSERT_TRUE(PlanSweep(args, &r).ok());
  EXPECT_EQ(r.dimensions[0].name, "cache_size");
  EXPECT_EQ(r.dimensions[0].values, (std::vector<std::string>{"1048576", "67108864"}));
}

TEST(PlanSweepTest, EachPointWritesItsOwnLogs) {
  SweepRequest r;
  RunArgs args = Micro({{"threads", "1,2"}, {"hdr-log", "logs"}, {"raw-latencies", "out/raw.csv"}});
  ASSERT_TRUE(PlanSweep(args, &r).ok());
  EXPECT_EQ(r.point_args[1].suite_options.at("hdr-log"), "logs/threads-2");
  EXPECT_EQ(r.point_args[1].suite_options.at("raw-latencies"), "out/raw.threads-2.csv");
}

TEST(PlanSweepTest, MalformedListsAreNamed) {
  EXPECT_EQ(Error(Micro({{"threads", "1,,2"}})), "--threads: '1,,2' has an empty item");
  EXPECT_EQ(Error(Micro({{"threads", "1,"}})), "--threads: '1,' has an empty item");
  EXPECT_EQ(Error(Micro({{"threads", "1,x"}})).rfind("--threads: ", 0), 0u);
  EXPECT_EQ(Error(Micro({{"threads", "1,0"}})).rfind("--threads: ", 0), 0u) << "below the minimum of 1";
  EXPECT_EQ(Error(Micro({{"records", "1k,1000"}})), "--records: '1000' is listed twice in '1k,1000'");
  RunArgs d = Micro({});
  d.durability = "normal,fast";
  EXPECT_EQ(Error(d), "--durability: 'fast' is not one of none, normal, full");
}

TEST(PlanSweepTest, LimitsOnDimensionsValuesAndPoints) {
  RunArgs three = Micro({{"threads", "1,2"}, {"records", "1,2"}, {"value-size", "19,20"}});
  EXPECT_EQ(Error(three),
            "--threads, --value-size, --records: at most 2 options may be swept at once (give the others "
            "one value)");
  std::string many;
  for (int i = 1; i <= 17; ++i) many += (i > 1 ? "," : "") + std::to_string(i);
  EXPECT_EQ(Error(Micro({{"threads", many}})),
            "--threads: too many values (--threads has 17); a sweep takes at most 16 per option");
  EXPECT_EQ(Error(Micro({{"threads", many}, {"records", many}})),
            "--threads, --records: too many values (--threads has 17, --records has 17); a sweep takes at most 16 per "
            "option")
      << "both dimensions over their limit are named";
  EXPECT_EQ(Error(Micro({{"threads", "1,2,3,4,5,6,7,8,9"}, {"records", "1,2,3,4,5,6,7,8"}})),
            "--threads, --records: 72 points; a sweep takes at most 64");
}

TEST(ParseSlaTest, PercentileAndBound) {
  Sla s;
  ASSERT_TRUE(ParseSla("p99<=1ms", &s).ok());
  EXPECT_EQ(s.percentile, 99);
  EXPECT_EQ(s.bound_ns, 1e6);
  EXPECT_EQ(s.text, "p99<=1ms");
  ASSERT_TRUE(ParseSla("p99.9<=500us", &s).ok());
  EXPECT_DOUBLE_EQ(s.percentile, 99.9);
  EXPECT_DOUBLE_EQ(s.bound_ns, 500e3);
  ASSERT_TRUE(ParseSla("p50<=2s", &s).ok());
  EXPECT_DOUBLE_EQ(s.bound_ns, 2e9);
}

TEST(ParseSlaTest, RefusalsNameTheProblem) {
  Sla s;
  auto error = [&](const char* text) { return ParseSla(text, &s).message(); };
  EXPECT_NE(error("99<=1ms").find("is not PERCENTILE<=BOUND"), std::string::npos);
  EXPECT_NE(error("p99<1ms").find("is not PERCENTILE<=BOUND"), std::string::npos);
  EXPECT_NE(error("pxx<=1ms").find("'pxx' is not a percentile"), std::string::npos);
  EXPECT_NE(error("p100<=1ms").find("above 0 and below 100"), std::string::npos);
  EXPECT_NE(error("p0<=1ms").find("above 0 and below 100"), std::string::npos);
  EXPECT_NE(error("p99.999<=1ms").find("needs 10000000 operations per step"), std::string::npos)
      << error("p99.999<=1ms");
  EXPECT_NE(error("p99<=0ms").find("no rate meets a bound under 1 µs"), std::string::npos);
  EXPECT_NE(error("p99<=100ns").find("no rate meets a bound under 1 µs"), std::string::npos);
  EXPECT_EQ(error("p99<=fast").rfind("--sla: ", 0), 0u);
  EXPECT_EQ(s.text, "") << "nothing set on a refusal";
}

// The plan of `args` with `capacity` applied, or the first error.
std::string Apply(RunArgs args, const CapacityArgs& capacity, RunPlan* plan) {
  Status s = ValidateRunArgs(args, BuiltinAdapters(), BuiltinSuites(), plan);
  if (s.ok()) s = ApplyCapacityArgs(capacity, args, plan);
  return s.ok() ? "" : s.message();
}

RunArgs Vps(std::map<std::string, std::string> options) {
  RunArgs a;
  a.suite = "sqlite-vps";
  a.engines = "sqlite";
  a.suite_options = std::move(options);
  return a;
}

TEST(ApplyCapacityArgsTest, SetsThePlanAndRecordsIt) {
  RunPlan plan;
  ASSERT_EQ(Apply(Vps({}), CapacityArgs{"p99.9<=2ms", "service", "3s"}, &plan), "");
  ASSERT_TRUE(plan.capacity.has_value());
  EXPECT_DOUBLE_EQ(plan.capacity->sla.percentile, 99.9);
  EXPECT_TRUE(plan.capacity->sla.service_time);
  EXPECT_EQ(plan.capacity->min_step_seconds, 3);
  auto has = [&](const std::string& key, const std::string& value) {
    return std::find(plan.configuration.begin(), plan.configuration.end(), std::make_pair(key, value)) !=
           plan.configuration.end();
  };
  EXPECT_TRUE(has("sla", "p99.9<=2ms"));
  EXPECT_TRUE(has("sla_latency", "service"));
  RunPlan quick;
  RunArgs q = Vps({});
  q.quick = true;
  ASSERT_EQ(Apply(q, CapacityArgs{"p99<=1ms", "", ""}, &quick), "");
  EXPECT_EQ(quick.capacity->min_step_seconds, 1) << "--quick: steps of 1 to 10 s";
  EXPECT_EQ(quick.capacity->max_step_seconds, 10);
  RunPlan none;
  ASSERT_EQ(Apply(Vps({}), CapacityArgs{}, &none), "");
  EXPECT_FALSE(none.capacity.has_value());
}

TEST(ApplyCapacityArgsTest, RefusesWhatTheSearchCannotHonour) {
  RunPlan plan;
  EXPECT_EQ(Apply(Micro({}), CapacityArgs{"p99<=1ms", "", ""}, &plan).rfind("--sla: suite dbx-micro samples", 0), 0u);
  EXPECT_EQ(Apply(Vps({{"target-rate", "100"}}), CapacityArgs{"p99<=1ms", "", ""}, &plan)
                .rfind("--target-rate: not with --sla", 0),
            0u);
  EXPECT_EQ(Apply(Vps({{"operations", "100"}}), CapacityArgs{"p99<=1ms", "", ""}, &plan)
                .rfind("--operations: not with --sla", 0),
            0u);
  EXPECT_EQ(
      Apply(Vps({{"hdr-log", "x"}}), CapacityArgs{"p99<=1ms", "", ""}, &plan).rfind("--hdr-log: not with --sla", 0),
      0u);
  EXPECT_EQ(Apply(Vps({}), CapacityArgs{"p99<=1ms", "wall", ""}, &plan),
            "--sla-latency: 'wall' is not one of intended, service");
  EXPECT_EQ(Apply(Vps({}), CapacityArgs{"", "service", ""}, &plan), "--sla-latency: applies only with --sla");
  EXPECT_EQ(Apply(Vps({}), CapacityArgs{"", "", "2s"}, &plan), "--sla-step: applies only with --sla");
  EXPECT_EQ(Apply(Vps({}), CapacityArgs{"p99<=1ms", "", "10ms"}, &plan).rfind("--sla-step: ", 0), 0u);
  EXPECT_EQ(Apply(Vps({}), CapacityArgs{"p99<=1ms", "", "2m"}, &plan), "--sla-step: at most 60 s (the longest step)");
}

}  // namespace
}  // namespace dbxb
