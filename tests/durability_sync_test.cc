// The durability contract, measured: for every registered engine at every durability level, the sync
// calls (fsync, fdatasync, msync(MS_SYNC), sync_file_range with a wait; harness/sync_interpose.cc is
// linked into this test) of acknowledged commits. At `full` every commit syncs at least once before it
// returns; at `none` nothing syncs while commits are made. `normal` is measured and printed, not
// asserted. The bold figures of docs/engines.md (Durability levels) are checked against what is measured
// here: every registered engine has one per level, and it is the measured count per commit, rounded.
//
// Engines join by registration (RegisterBuiltinAdapters); the null adapter stores nothing and is the
// harness's measuring stand-in, so it is left out. An engine whose server syncs (PostgreSQL) is measured
// through the server's own counter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
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

// What docs/engines.md says an engine syncs per commit at one level: the bold figure of its cell, and a
// second one where the cell gives the single put apart ("**2** (batch) / **1** (single put)").
struct Documented {
  bool refused = false;
  std::optional<int> batch, single;
};

// The cells of the durability tables in docs/engines.md: "| level | Engine ... |" headers, "| `none` |" rows.
// Keyed by engine name as registered (a header's first word, lower case; PostgreSQL is "postgres").
std::map<std::string, std::map<Durability, Documented>> ReadDocumentedTable() {
  std::map<std::string, std::map<Durability, Documented>> table;
  std::ifstream in(std::string(DBXB_SOURCE_DIR) + "/docs/engines.md");
  std::vector<std::string> engines;
  auto cells = [](const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        out.push_back(cell);
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    return out;
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| level |", 0) == 0) {
      engines.clear();
      for (const std::string& c : cells(line)) {
        std::istringstream words(c);
        std::string name;
        words >> name;
        for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        engines.push_back(name == "postgresql" ? "postgres" : name);
      }
      continue;
    }
    if (line.rfind("| `", 0) != 0 || engines.empty()) {
      if (line.empty()) engines.clear();
      continue;
    }
    const std::vector<std::string> row = cells(line);
    std::optional<Durability> level;
    for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
      std::string quoted = "`";
      quoted += DurabilityName(d);
      quoted += '`';
      if (row[0].find(quoted) != std::string::npos) level = d;
    }
    if (!level) continue;
    for (size_t i = 1; i < row.size() && i < engines.size(); ++i) {
      Documented& d = table[engines[i]][*level];
      d.refused = row[i].find("refused") != std::string::npos;
      const size_t first = row[i].find("**");
      if (first == std::string::npos) continue;
      d.batch = std::atoi(row[i].c_str() + first + 2);
      const size_t second = row[i].find("**", row[i].find("**", first + 2) + 2);
      if (second != std::string::npos && row[i].find("single put", second) != std::string::npos)
        d.single = std::atoi(row[i].c_str() + second + 2);
    }
  }
  return table;
}

const std::map<std::string, std::map<Durability, Documented>>& DocumentedTable() {
  static const auto* table = new std::map<std::string, std::map<Durability, Documented>>(ReadDocumentedTable());
  return *table;
}

// The documented figure of (engine, level), or a failure naming what docs/engines.md lacks.
const Documented* FindDocumented(const std::string& engine, Durability level) {
  auto e = DocumentedTable().find(engine);
  if (e == DocumentedTable().end()) return nullptr;
  auto l = e->second.find(level);
  return l == e->second.end() ? nullptr : &l->second;
}

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
  const Documented* documented = FindDocumented(engine, level);
  ASSERT_NE(documented, nullptr) << "docs/engines.md (Durability levels) has no cell for " << engine << " at "
                                 << DurabilityName(level);
  if (const std::string* why = RefusedDurability(*factory, level)) {
    EXPECT_TRUE(documented->refused) << "docs/engines.md does not say that " << engine << " refuses "
                                     << DurabilityName(level);
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
  // The documented figure is the measured one, rounded; at `normal`, where syncs run in the background
  // (DBX, sled, PostgreSQL) and their number depends on time, a documented 0 means "not one per commit".
  // sled's syncs at none are its own log buffers', whose number the docs give apart.
  EXPECT_FALSE(documented->refused) << "docs/engines.md says " << engine << " refuses " << DurabilityName(level);
  ASSERT_TRUE(documented->batch.has_value())
      << "docs/engines.md gives no bold figure for " << engine << " at " << DurabilityName(level);
  if (level == Durability::kNormal && *documented->batch == 0) {
    EXPECT_LT(measured.batch, 1.0) << "docs/engines.md: " << engine << " at normal does not sync each commit";
    EXPECT_LT(measured.single, 1.0) << "docs/engines.md: " << engine << " at normal does not sync each put";
  } else if (!(level == Durability::kNone && factory->syncs_buffers_at_none)) {
    EXPECT_EQ(std::lround(measured.batch), *documented->batch)
        << "docs/engines.md: " << engine << " at " << DurabilityName(level) << " syncs " << *documented->batch
        << " per batch commit; measured " << measured.batch;
    EXPECT_EQ(std::lround(measured.single), documented->single.value_or(*documented->batch))
        << "docs/engines.md: " << engine << " at " << DurabilityName(level) << " syncs "
        << documented->single.value_or(*documented->batch) << " per single put; measured " << measured.single;
  }
  session.value().reset();
  EXPECT_TRUE(adapter.value()->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(EveryEngineEveryLevel, DurabilitySyncTest,
                         ::testing::Combine(::testing::ValuesIn(RegisteredEngines()),
                                            ::testing::Values(Durability::kNone, Durability::kNormal,
                                                              Durability::kFull)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param);
                           for (char& c : name)
                             if (c == '-') c = '_';  // GoogleTest's names: letters, digits, underscores
                           return name + "_" + std::string(DurabilityName(std::get<1>(info.param)));
                         });

}  // namespace
}  // namespace dbxb
