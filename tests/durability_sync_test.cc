// The durability contract, measured: for every registered engine at every durability level, the sync
// calls (fsync, fdatasync, msync(MS_SYNC), sync_file_range with a wait; harness/sync_interpose.cc is
// linked into this test) of acknowledged commits. At `full` every commit syncs at least once before it
// returns; at `none` nothing syncs while commits are made. `normal` is measured and printed, not
// asserted. What each engine's registration declares (AdapterFactory::durability, which `dbx-bench list
// --engine NAME` prints) is checked against what is measured here: the declared syncs per commit are the
// measured count, rounded.
//
// Engines join by registration (RegisterBuiltinAdapters); the null adapter stores nothing and is the
// harness's measuring stand-in, so it is left out. An engine whose server syncs (PostgreSQL) is measured
// through the server's own counter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/adapter_test_dir.h"
#include "common/server_usage.h"
#include "harness/resources.h"

namespace dbxb {

static void PrintTo(Durability d, std::ostream* os) { *os << DurabilityName(d); }

namespace {

namespace fs = std::filesystem;

constexpr int kWarmupCommits = 10;
constexpr int kCommits = 40;

struct Measured {
  double batch = 0;      // syncs per Begin/Put/Commit
  double single = 0;     // syncs per Put outside a batch (a transaction of its own)
  bool refused = false;  // the engine cannot honour the level (AdapterFactory::refused_durabilities)
};

// engine -> level -> figures, printed as one table when the suite ends.
std::map<std::string, std::map<Durability, Measured>>& Table() {
  static auto* table = new std::map<std::string, std::map<Durability, Measured>>;
  return *table;
}

// This process's sync calls and those of the servers it runs (a PostgreSQL server counts its own through
// the library the tool preloads into it: common/server_usage.h).
uint64_t Syncs() { return CountedSyncCalls().value_or(0) + ReadServerTotals(false).usage.sync_calls.value_or(0); }

class DurabilitySyncTest : public ::testing::TestWithParam<std::tuple<std::string, Durability>> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(CountedSyncCalls().has_value()) << "sync_interpose.cc is not linked into this test";
    const auto& [engine, level] = GetParam();
    dir_ = fs::temp_directory_path() /
           ("dbxb-durability-" + std::to_string(getpid()) + "-" + engine + "-" + std::string(DurabilityName(level)));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  static void TearDownTestSuite() {
    std::printf("\n| engine | none | normal | full |\n| --- | --- | --- | --- |\n");
    for (const auto& [engine, levels] : Table()) {
      std::printf("| %s |", engine.c_str());
      for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
        auto it = levels.find(d);
        if (it == levels.end())
          std::printf(" |");
        else if (it->second.refused)
          std::printf(" refused |");
        else
          std::printf(" %.2f / %.2f |", it->second.batch, it->second.single);
      }
      std::printf("\n");
    }
    std::printf("(sync calls per commit: batch Begin/Put/Commit / single Put; %d commits of each)\n", kCommits);
  }

  fs::path dir_;
};

TEST_P(DurabilitySyncTest, SyncsPerAcknowledgedCommitKeepTheContract) {
  const auto& [engine, level] = GetParam();
  const AdapterFactory* factory = BuiltinAdapters().Find(engine);
  ASSERT_NE(factory, nullptr);
  if (const std::string* why = RefusedDurability(*factory, level)) {
    Table()[engine][level].refused = true;
    GTEST_SKIP() << engine << " refuses durability " << DurabilityName(level) << ": " << *why;
  }
  AdapterOptions options;
  options.dir = dir_.string();
  options.durability = level;
  auto adapter = factory->open(options);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  if (factory->syncs_out_of_process && ReadServerTotals(false).uncounted_running > 0)
    GTEST_SKIP() << engine << "'s server could not load the sync-counting library (a noexec file system?)";
  auto session = adapter.value()->NewSession();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  Session& s = *session.value();
  const std::string value(100, 'v');
  auto key = [](const char* kind, int i) { return std::string(kind) + std::to_string(100000 + i); };

  for (int i = 0; i < kWarmupCommits; ++i) {
    ASSERT_TRUE(s.Begin().ok());
    ASSERT_TRUE(s.Put(key("w", i), value).ok());
    ASSERT_TRUE(s.Commit().ok());
  }

  std::vector<uint64_t> batch(kCommits), single(kCommits);
  for (int i = 0; i < kCommits; ++i) {
    const uint64_t before = Syncs();
    ASSERT_TRUE(s.Begin().ok());
    ASSERT_TRUE(s.Put(key("b", i), value).ok());
    ASSERT_TRUE(s.Commit().ok());
    batch[i] = Syncs() - before;
  }
  for (int i = 0; i < kCommits; ++i) {
    const uint64_t before = Syncs();
    ASSERT_TRUE(s.Put(key("s", i), value).ok());
    single[i] = Syncs() - before;
  }

  uint64_t batch_total = 0, single_total = 0;
  for (int i = 0; i < kCommits; ++i) {
    batch_total += batch[i];
    single_total += single[i];
    if (level == Durability::kFull) {
      EXPECT_GE(batch[i], 1u) << engine << " at full: batch commit " << i << " returned without a sync";
      EXPECT_GE(single[i], 1u) << engine << " at full: single put " << i << " returned without a sync";
    }
  }
  if (level == Durability::kNone && !factory->syncs_buffers_at_none) {
    EXPECT_EQ(batch_total, 0u) << engine << " at none synced during batch commits";
    EXPECT_EQ(single_total, 0u) << engine << " at none synced during single puts";
  }
  const Measured measured{static_cast<double>(batch_total) / kCommits, static_cast<double>(single_total) / kCommits};
  Table()[engine][level] = measured;
  // The declared figure is the measured one, rounded; at `normal`, where syncs run in the background
  // (DBX, sled, PostgreSQL) and their number depends on time, a declared 0 means "not one per commit".
  // An engine that syncs its own log buffers whenever it writes one (sled: AdapterFactory::
  // syncs_buffers_at_none) does so at none and normal too, as often as its buffers fill and its timers
  // fire: 0 to 1.3 per commit at normal in eight runs beside a benchmark, so neither level is asserted.
  const DurabilityMapping& declared = factory->durability[DurabilityIndex(level)];
  ASSERT_FALSE(declared.meaning.empty()) << engine << "'s registration declares nothing for durability "
                                         << DurabilityName(level);
  const int declared_single = declared.syncs_per_single_put.value_or(declared.syncs_per_commit);
  if (level != Durability::kFull && factory->syncs_buffers_at_none) {
    // measured and printed only (above)
  } else if (level == Durability::kNormal && declared.syncs_per_commit == 0) {
    EXPECT_LT(measured.batch, 1.0) << engine << " at normal is declared not to sync each commit";
    EXPECT_LT(measured.single, 1.0) << engine << " at normal is declared not to sync each put";
  } else {
    EXPECT_EQ(std::lround(measured.batch), declared.syncs_per_commit)
        << engine << " at " << DurabilityName(level) << " is declared to sync " << declared.syncs_per_commit
        << " times per batch commit; measured " << measured.batch;
    EXPECT_EQ(std::lround(measured.single), declared_single)
        << engine << " at " << DurabilityName(level) << " is declared to sync " << declared_single
        << " times per single put; measured " << measured.single;
  }
  session.value().reset();
  EXPECT_TRUE(adapter.value()->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(EveryEngineEveryLevel, DurabilitySyncTest,
                         ::testing::Combine(::testing::ValuesIn(RegisteredEngines()),
                                            ::testing::Values(Durability::kNone, Durability::kNormal,
                                                              Durability::kFull)),
                         [](const auto& info) {
                           return GTestName(std::get<0>(info.param)) + "_" +
                                  std::string(DurabilityName(std::get<1>(info.param)));
                         });

}  // namespace
}  // namespace dbxb
