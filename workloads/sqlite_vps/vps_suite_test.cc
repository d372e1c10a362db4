// The sqlite-vps phases at small scale on every engine, driven as the phase runner drives them
// (workloads/phase.h): SetUp, one worker per thread, warm-up then measured operations on each thread,
// Finish, TearDown. Phases bounded by time run a fixed count here, so the test takes no clock.
#include "workloads/sqlite_vps/vps_suite.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "adapters/adapter_test_dir.h"
#include "tests/fixtures/scratch_dir.h"
#include "workloads/row_store.h"
#include "workloads/sqlite_vps/vps_phases.h"

namespace dbxb {
namespace {

constexpr uint64_t kOpsWhenTimed = 200;  // per thread, for phases the suite bounds by duration

struct Driven {
  Status status;
  std::vector<uint64_t> op_counts;  // measured operations per op type
};

Driven Drive(Phase& phase) {
  const PhaseSpec& spec = phase.spec();
  Driven d;
  d.op_counts.assign(spec.op_types.size(), 0);
  d.status = phase.SetUp();
  if (!d.status.ok()) return d;
  std::vector<std::unique_ptr<PhaseWorker>> workers;
  for (uint32_t t = 0; t < spec.threads && d.status.ok(); ++t) {
    auto w = phase.NewWorker(t);
    if (!w.ok())
      d.status = w.status();
    else
      workers.push_back(std::move(w.value()));
  }
  std::mutex mu;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < workers.size(); ++t) {
    threads.emplace_back([&, t] {
      PhaseWorker& w = *workers[t];
      const uint64_t measured = spec.operations > 0 ? OperationsForThread(spec, t) : kOpsWhenTimed;
      std::vector<uint64_t> counts(spec.op_types.size(), 0);
      Status s;
      for (uint64_t i = 0; i < spec.warmup_operations + measured && s.ok(); ++i) {
        uint32_t op = 99;
        s = w.NextOp(&op);
        if (s.ok() && op >= counts.size()) s = Status::Internal("bad op index");
        if (s.ok() && i >= spec.warmup_operations) ++counts[op];
      }
      if (s.ok()) s = w.Finish();
      std::lock_guard<std::mutex> lock(mu);
      if (d.status.ok() && !s.ok()) d.status = s;
      for (size_t i = 0; i < counts.size(); ++i) d.op_counts[i] += counts[i];
    });
  }
  for (auto& t : threads) t.join();
  workers.clear();
  Status td = phase.TearDown();
  if (d.status.ok()) d.status = td;
  return d;
}

// On tmpfs when there is one: the suite runs at durability normal, and LMDB then syncs every commit.
std::filesystem::path FastDir() {
  std::error_code ec;
  return std::filesystem::is_directory("/dev/shm", ec) ? std::filesystem::path("/dev/shm")
                                                       : std::filesystem::temp_directory_path();
}

class TempDir : public testdata::ScratchDir {
 public:
  TempDir() : ScratchDir(FastDir(), "dbxb-vps") {
    if (!path().empty()) (void)chmod(path().c_str(), 0711);  // reachable by postgres's server account
  }
};

class VpsSuiteTest : public testing::TestWithParam<std::string> {
 protected:
  PhaseSuiteOptions SmallOptions() const {
    PhaseSuiteOptions o;
    o.work_dir = dir_.path();
    o.records = 2000;
    o.operations = 300;
    o.readers = 2;
    o.load_batch = 128;
    o.warmup_seconds = 1e-9;  // no warm-up operations (this driver does not run timed warm-ups)
    return o;
  }
  const AdapterFactory& engine() const { return *BuiltinAdapters().Find(GetParam()); }

  TempDir dir_;
};

TEST_P(VpsSuiteTest, EveryPhaseRunsVerifiedOnBothDatasets) {
  SqliteVpsConfig config;
  config.datasets = {VpsDataset::kCached, VpsDataset::kDiskBound};
  config.range_length = 15;
  config.cache_bytes = 4 << 20;
  auto sequences = MakeSqliteVpsSequences(engine(), SmallOptions(), config);
  ASSERT_TRUE(sequences.ok()) << sequences.status().ToString();
  ASSERT_EQ(sequences->size(), 2u);
  for (auto& seq : *sequences) {
    SCOPED_TRACE(seq->dataset());
    ASSERT_TRUE(seq->Open().ok());
    bool native_row = false;
    for (const auto& [k, v] : seq->engine_settings()) {
      if (k == "rows") native_row = v.rfind("native", 0) == 0;
      if (std::string(GetParam()) != "sqlite") continue;
      if (k == "page_size") {
        EXPECT_EQ(v, "8192");
      }
      if (k == "synchronous") {
        EXPECT_EQ(v, "normal");
      }
    }
    const std::string& base = OptionPrefix(engine());  // postgres@debian: postgres
    EXPECT_EQ(native_row, base == "sqlite" || base == "postgres");
    std::vector<std::string> ran;
    for (;;) {
      auto phase = seq->NextPhase();
      ASSERT_TRUE(phase.ok()) << phase.status().ToString();
      if (*phase == nullptr) break;
      SCOPED_TRACE((*phase)->spec().name);
      Driven d = Drive(**phase);
      ASSERT_TRUE(d.status.ok()) << d.status.ToString();
      ran.push_back((*phase)->spec().name);
      uint64_t total = 0;
      for (uint64_t c : d.op_counts) total += c;
      const PhaseSpec& spec = (*phase)->spec();
      EXPECT_EQ(total, spec.operations > 0 ? spec.operations : kOpsWhenTimed * spec.threads);
      if (spec.name == "mixed-oltp") {
        // 70/25/5 of 300: loose bounds that a wrong mix (e.g. no inserts, or a 50/50 split) fails.
        EXPECT_GT(d.op_counts[0], 170u);
        EXPECT_GT(d.op_counts[1], 40u);
        EXPECT_GT(d.op_counts[2], 2u);
        EXPECT_LT(d.op_counts[2], 40u);
      }
    }
    EXPECT_EQ(ran, VpsPhaseNames());
    EXPECT_TRUE(seq->Close().ok());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));  // Close removed the databases
}

TEST_P(VpsSuiteTest, WithoutBulkInsertTheRowsAreLoadedAtOpen) {
  SqliteVpsConfig config;
  config.phases = {"range-scan", "concurrent-reads"};
  config.cache_bytes = 4 << 20;
  auto sequences = MakeSqliteVpsSequences(engine(), SmallOptions(), config);
  ASSERT_TRUE(sequences.ok());
  auto& seq = (*sequences)[0];
  ASSERT_TRUE(seq->Open().ok());
  for (const char* name : {"range-scan", "concurrent-reads"}) {
    auto phase = seq->NextPhase();
    ASSERT_TRUE(phase.ok() && *phase != nullptr);
    EXPECT_EQ((*phase)->spec().name, name);
    Driven d = Drive(**phase);
    EXPECT_TRUE(d.status.ok()) << d.status.ToString();
  }
  auto end = seq->NextPhase();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  EXPECT_TRUE(seq->Close().ok());
}

// The null engine stores nothing for the suite to read back: refused before anything is opened.
TEST(VpsSuite, TheNullEngineIsRefused) {
  SqliteVpsConfig config;
  PhaseSuiteOptions options;
  auto sequences = MakeSqliteVpsSequences(*BuiltinAdapters().Find("null"), options, config);
  ASSERT_FALSE(sequences.ok());
  EXPECT_TRUE(sequences.status().IsInvalidArgument()) << sequences.status().ToString();
  EXPECT_NE(sequences.status().message().find("null"), std::string::npos) << sequences.status().ToString();
  EXPECT_TRUE(MakeSqliteVpsSequences(*BuiltinAdapters().Find("sqlite"), options, config).ok());
}

// Every engine but dbx-core: its adapter refuses keys of 10 bytes or more ending in DB 58 (its scan would
// read them as MVCC versions; adapters/rust/README.md), and some row keys of the row store end so.
INSTANTIATE_TEST_SUITE_P(Engines, VpsSuiteTest, testing::ValuesIn(RegisteredEngines({"dbx-core"})),
                         [](const testing::TestParamInfo<std::string>& info) { return TestName(info.param); });

// The phases catch wrong data: rows changed behind their back fail the reads with Corruption.
class VpsVerificationTest : public testing::Test {
 protected:
  void SetUp() override {
    AdapterOptions options;
    options.dir = dir_.path() + "/db";
    options.durability = Durability::kNone;
    auto adapter = BuiltinAdapters().Find("sqlite")->open(options);
    ASSERT_TRUE(adapter.ok());
    adapter_ = std::move(adapter.value());
    rows_ = std::make_unique<VpsRows>(500, 40, 1);
    shared_.adapter = adapter_.get();
    shared_.rows = rows_.get();
    shared_.batch_rows = 64;
    shared_.range_length = 500;  // every range read covers the whole table
    ASSERT_TRUE(LoadVpsRows(&shared_).ok());
    auto s = OpenRowSession(*adapter_);
    ASSERT_TRUE(s.ok());
    session_ = std::move(s.value());
  }
  void TearDown() override {
    session_.reset();
    if (adapter_ != nullptr) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  Status RunPhase(const std::string& name, uint64_t ops) {
    PhaseSpec spec;
    spec.name = name;
    spec.op_types = {name == "mixed-oltp" ? "read" : "op", "update", "insert"};
    spec.operations = ops;
    auto phase = MakeVpsPhase(spec, &shared_);
    if (!phase.ok()) return phase.status();
    return Drive(**phase).status;
  }

  TempDir dir_;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<VpsRows> rows_;
  VpsShared shared_;
  std::unique_ptr<RowSession> session_;
};

TEST_F(VpsVerificationTest, CleanDataPasses) {
  EXPECT_TRUE(RunPhase("select-pk", 2000).ok());
  EXPECT_TRUE(RunPhase("range-scan", 3).ok());
  EXPECT_TRUE(RunPhase("mixed-oltp", 200).ok());
  EXPECT_TRUE(RunPhase("no-such-phase", 1).IsInvalidArgument());
}

TEST_F(VpsVerificationTest, ADamagedPayloadFailsSelectPk) {
  Row r;
  rows_->Fill(77, 0, &r);
  r.payload.back() = '!';
  ASSERT_TRUE(session_->UpdateRow(r).ok());
  EXPECT_TRUE(RunPhase("select-pk", 5000).IsCorruption());  // 5000 random reads of 500 rows hit row 77
}

TEST_F(VpsVerificationTest, AMissingRowFailsRangeScan) {
  Row r;
  rows_->Fill(300, 0, &r);
  r.a = 100000;  // moves row 300 out of every range of [0, 500)
  ASSERT_TRUE(session_->UpdateRow(r).ok());
  EXPECT_TRUE(RunPhase("range-scan", 1).IsCorruption());
}

// A row session whose updates report success but write nothing.
class LostUpdates final : public RowSession {
 public:
  explicit LostUpdates(std::unique_ptr<RowSession> inner) : inner_(std::move(inner)) {}
  Status DoBegin() override { return inner_->Begin(); }
  Status DoCommit() override { return inner_->Commit(); }
  Status DoAbort() override { return inner_->Abort(); }
  Status InsertRow(const Row& row) override { return inner_->InsertRow(row); }
  Status GetById(int64_t id, Row* row) override { return inner_->GetById(id, row); }
  Status RangeByIndexA(int64_t lo, uint64_t limit, RowVisitor v) override {
    return inner_->RangeByIndexA(lo, limit, v);
  }
  Status RangeByIndexB(int64_t lo, uint64_t limit, RowVisitor v) override {
    return inner_->RangeByIndexB(lo, limit, v);
  }
  Status UpdateRow(const Row&) override { return Status::Ok(); }
  Status Count(uint64_t* count) override { return inner_->Count(count); }

 private:
  std::unique_ptr<RowSession> inner_;
};

class LostUpdatesAdapter final : public Adapter {
 public:
  explicit LostUpdatesAdapter(Adapter* inner) : inner_(inner) {}
  Result<std::unique_ptr<Session>> NewSession() override { return inner_->NewSession(); }
  Result<std::unique_ptr<RowSession>> NewRowSession() override {
    auto s = inner_->NewRowSession();
    if (!s.ok()) return s.status();
    return std::unique_ptr<RowSession>(new LostUpdates(std::move(s.value())));
  }
  Settings NativeSettings() override { return inner_->NativeSettings(); }
  Status Close() override { return Status::Ok(); }

 private:
  Adapter* inner_;
};

TEST_F(VpsVerificationTest, UpdatesThatDidNotLandFailTheCheckAfterThePhase) {
  LostUpdatesAdapter lossy(adapter_.get());
  shared_.adapter = &lossy;
  for (const char* name : {"update", "concurrent-writes", "mixed-oltp"}) {
    EXPECT_TRUE(RunPhase(name, 100).IsCorruption()) << name;
  }
  shared_.adapter = adapter_.get();
  EXPECT_TRUE(RunPhase("update", 100).ok());
}

TEST_F(VpsVerificationTest, BulkInsertRefusesALoadedTable) {
  EXPECT_TRUE(RunPhase("bulk-insert", 1).IsInvalidArgument());
}

TEST_F(VpsVerificationTest, RowCountMismatchIsCaught) {
  Row extra;
  rows_->Fill(600, 0, &extra);  // an id the shared counter never handed out
  ASSERT_TRUE(session_->InsertRow(extra).ok());
  EXPECT_TRUE(RunPhase("update", 10).IsCorruption());
}

}  // namespace
}  // namespace dbxb
