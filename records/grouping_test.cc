#include "records/grouping.h"

#include <gtest/gtest.h>

namespace dbxb {
namespace {

BenchmarkResult Bench(const std::string& workload, const std::string& engine, const std::string& records) {
  BenchmarkResult b;
  b.suite = "dbx-micro";
  b.workload = workload;
  b.engine = engine;
  b.parameters = {{"records", records}};
  return b;
}

PhaseResult Phase(const std::string& dataset, const std::string& phase, const std::string& engine,
                  uint32_t threads = 1) {
  PhaseResult p;
  p.suite = "sqlite-vps";
  p.dataset = dataset;
  p.phase = phase;
  p.engine = engine;
  p.threads = threads;
  return p;
}

TEST(Grouping, BenchmarksByWorkloadKeepFirstAppearanceOrderAndSplitOnParameters) {
  RunResults r;
  r.benchmarks = {Bench("get", "dbx", "10"), Bench("scan", "dbx", "10"), Bench("get", "lmdb", "10"),
                  Bench("get", "dbx", "20")};
  auto groups = GroupBenchmarksByWorkload(r);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].members, (std::vector<const BenchmarkResult*>{&r.benchmarks[0], &r.benchmarks[2]}));
  EXPECT_EQ(groups[1].first().workload, "scan");
  EXPECT_EQ(groups[2].members, (std::vector<const BenchmarkResult*>{&r.benchmarks[3]}));
}

TEST(Grouping, PhasesByPhaseCompareEnginesWhileBySequenceSeparatesThem) {
  RunResults r;
  r.phases = {Phase("cached", "select-pk", "dbx"),     Phase("cached", "update", "dbx"),
              Phase("cached", "select-pk", "lmdb"),    Phase("cached", "update", "lmdb"),
              Phase("disk-bound", "select-pk", "dbx"), Phase("cached", "select-pk", "sqlite", 4)};
  auto by_phase = GroupPhasesByPhase(r);
  ASSERT_EQ(by_phase.size(), 4u);  // cached select-pk (1 thread), cached update, disk-bound, 4 threads
  EXPECT_EQ(by_phase[0].members, (std::vector<const PhaseResult*>{&r.phases[0], &r.phases[2]}));
  EXPECT_EQ(by_phase[1].members, (std::vector<const PhaseResult*>{&r.phases[1], &r.phases[3]}));
  EXPECT_EQ(by_phase[3].first().threads, 4u);

  auto by_sequence = GroupPhasesBySequence(r);
  ASSERT_EQ(by_sequence.size(), 4u);  // dbx cached, lmdb cached, dbx disk-bound, sqlite cached
  EXPECT_EQ(by_sequence[0].members, (std::vector<const PhaseResult*>{&r.phases[0], &r.phases[1]}));
  EXPECT_EQ(by_sequence[1].members, (std::vector<const PhaseResult*>{&r.phases[2], &r.phases[3]}));
  EXPECT_EQ(by_sequence[2].first().dataset, "disk-bound");
}

TEST(Grouping, EnginesOfBenchmarksLeaveOutPhaseOnlyEngines) {
  RunResults r;
  r.benchmarks = {Bench("get", "lmdb", "10"), Bench("get", "dbx", "10"), Bench("scan", "lmdb", "10")};
  r.phases = {Phase("cached", "select-pk", "sqlite"), Phase("cached", "select-pk", "dbx")};
  EXPECT_EQ(EnginesOfBenchmarks(r), (std::vector<std::string>{"lmdb", "dbx"}));
  EXPECT_EQ(EnginesOfRun(r), (std::vector<std::string>{"lmdb", "dbx", "sqlite"}));
  EXPECT_TRUE(EnginesOfBenchmarks(RunResults()).empty());
}

}  // namespace
}  // namespace dbxb
