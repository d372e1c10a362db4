#include "workloads/micro_suite.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "adapters/null/null_adapter.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// A store that answers like the null adapter but corrupts one row, to prove verification catches it.
class CorruptingSession final : public Session {
 public:
  CorruptingSession(std::unique_ptr<Session> inner, std::string bad_key)
      : inner_(std::move(inner)), bad_key_(std::move(bad_key)) {}
  Status Put(std::string_view k, std::string_view v) override { return inner_->Put(k, v); }
  Status Delete(std::string_view k) override { return inner_->Delete(k); }
  Status Get(std::string_view k, std::string* v) override {
    if (recording_) reads_.emplace_back(k);
    gets_.fetch_add(1, std::memory_order_relaxed);
    Status st = inner_->Get(k, v);
    if (st.ok() && k == bad_key_ && armed_) (*v)[flip_at_ < v->size() ? flip_at_ : v->size() - 1] ^= 1;
    return st;
  }
  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    return inner_->Scan(start, limit, visitor);
  }
  Status Count(uint64_t* c) override {
    Status st = inner_->Count(c);
    if (armed_count_) *c -= 1;
    return st;
  }
  Status DoBegin() override { return inner_->Begin(); }
  Status DoCommit() override { return inner_->Commit(); }
  Status DoAbort() override { return inner_->Abort(); }

  static inline bool armed_ = false;
  static inline size_t flip_at_ = 0;  // the byte of bad_key_'s value that is changed (clamped to its last)
  static inline bool armed_count_ = false;
  static inline bool recording_ = false;
  static inline std::vector<std::string> reads_;  // the keys of every Get while recording_
  static inline std::atomic<uint64_t> gets_{0};   // every Get, from any thread

 private:
  std::unique_ptr<Session> inner_;
  std::string bad_key_;
};

class CorruptingAdapter final : public Adapter {
 public:
  explicit CorruptingAdapter(std::unique_ptr<Adapter> inner) : inner_(std::move(inner)) {}
  Result<std::unique_ptr<Session>> NewSession() override {
    auto s = inner_->NewSession();
    if (!s.ok()) return s.status();
    return std::unique_ptr<Session>(new CorruptingSession(std::move(s).value(), "key_00000042"));
  }
  Settings NativeSettings() override { return inner_->NativeSettings(); }
  Status Close() override { return inner_->Close(); }

 private:
  std::unique_ptr<Adapter> inner_;
};

// The null engine behind CorruptingAdapter: a perfect store until a CorruptingSession switch is armed.
AdapterFactory CorruptingNull() {
  AdapterFactory f = NullAdapterFactory();
  auto inner_open = f.open;
  f.open = [inner_open](const AdapterOptions& o) -> Result<std::unique_ptr<Adapter>> {
    auto a = inner_open(o);
    if (!a.ok()) return a.status();
    return std::unique_ptr<Adapter>(new CorruptingAdapter(std::move(a).value()));
  };
  return f;
}

class MicroSuiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dbxb-micro-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    auto data = Dataset::Make({1000, 12, 19});
    ASSERT_TRUE(data.ok());
    config_.dataset = data.value();
    config_.work_dir = dir_.string();
    config_.seed = 7;
    config_.load_batch = 300;
    CorruptingSession::armed_ = false;
    CorruptingSession::flip_at_ = 0;
    CorruptingSession::armed_count_ = false;
    CorruptingSession::recording_ = false;
    CorruptingSession::reads_.clear();
  }
  void TearDown() override { fs::remove_all(dir_); }

  Status RunOnce(const AdapterFactory& engine, const std::string& workload, std::string* checksum = nullptr) {
    auto bench = MakeMicroBenchmark(workload, engine, config_);
    if (!bench.ok()) return bench.status();
    MicroBenchmark& b = **bench;
    DBXB_RETURN_IF_ERROR(b.SetUp());
    for (int i = 0; i < 3; ++i) {
      if (b.fresh_state_per_iteration()) DBXB_RETURN_IF_ERROR(b.PrepareIteration());
      DBXB_RETURN_IF_ERROR(b.RunIteration());
      if (b.fresh_state_per_iteration()) DBXB_RETURN_IF_ERROR(b.FinishIteration());
    }
    if (checksum) *checksum = b.checksum();
    return b.TearDown();
  }

  fs::path dir_;
  MicroConfig config_;
};

TEST_F(MicroSuiteTest, EveryWorkloadPassesOnAPerfectStore) {
  AdapterFactory null = NullAdapterFactory();
  std::string first;
  for (const auto& w : MicroWorkloadNames()) {
    std::string checksum;
    Status st = RunOnce(null, w, &checksum);
    ASSERT_TRUE(st.ok()) << w << ": " << st.ToString();
    EXPECT_EQ(checksum.rfind("fnv1a64:", 0), 0u) << w;
    if (first.empty()) first = checksum;
    EXPECT_EQ(checksum, first) << "every workload reads back the same data set";
  }
  EXPECT_TRUE(fs::is_empty(dir_)) << "benchmarks remove the databases they create";
}

TEST_F(MicroSuiteTest, LoadedBenchmarksSettleUnlessTurnedOff) {
  const AdapterFactory* sqlite = BuiltinAdapters().Find("sqlite");
  ASSERT_NE(sqlite, nullptr);
  for (bool settle : {true, false}) {
    config_.settle = settle;
    for (const auto& w : MicroWorkloadNames()) {
      auto bench = MakeMicroBenchmark(w, *sqlite, config_);
      ASSERT_TRUE(bench.ok());
      EXPECT_EQ((*bench)->settles(), settle && w != "insert") << w;
    }
  }
  config_.settle = true;
  auto get = MakeMicroBenchmark("get", *sqlite, config_);
  ASSERT_TRUE(get.ok());
  ASSERT_TRUE((*get)->SetUp().ok());
  EXPECT_TRUE((*get)->Settle().ok());
  ASSERT_TRUE((*get)->RunIteration().ok());
  ASSERT_TRUE((*get)->TearDown().ok());
}

TEST_F(MicroSuiteTest, AWrongValueFailsTheGetBenchmark) {
  AdapterFactory bad = CorruptingNull();
  CorruptingSession::armed_ = true;
  // Values of 100 bytes, as the fidelity check reads: the first byte, one in a later repetition of the
  // row's pattern and the last are each caught.
  config_.dataset = Dataset::Make({1000, 12, 100}).value();
  for (size_t at : {0, 9, 57, 99}) {
    CorruptingSession::flip_at_ = at;
    Status st = RunOnce(bad, "get");
    ASSERT_TRUE(st.IsCorruption()) << "byte " << at << ": " << st.ToString();
    EXPECT_NE(st.message().find("wrong value for 'key_00000042"), std::string::npos) << st.message();
  }
}

// The get benchmark reads every key of its seeded order (MicroGetOrder), once, in that order.
TEST_F(MicroSuiteTest, GetReadsEveryKeyInItsSeededOrder) {
  AdapterFactory wrapped = CorruptingNull();
  auto bench = MakeMicroBenchmark("get", wrapped, config_);
  ASSERT_TRUE(bench.ok()) << bench.status().ToString();
  ASSERT_TRUE((*bench)->SetUp().ok());
  CorruptingSession::recording_ = true;
  ASSERT_TRUE((*bench)->RunIteration().ok());
  CorruptingSession::recording_ = false;
  ASSERT_TRUE((*bench)->TearDown().ok());
  const std::vector<uint64_t> order = MicroGetOrder(config_.dataset->size(), config_.seed);
  ASSERT_EQ(CorruptingSession::reads_.size(), order.size());
  for (size_t j = 0; j < order.size(); ++j)
    ASSERT_EQ(CorruptingSession::reads_[j], config_.dataset->key(order[j])) << "read " << j;
}

TEST_F(MicroSuiteTest, AWrongCountFailsCountAndInsert) {
  AdapterFactory bad = CorruptingNull();
  CorruptingSession::armed_count_ = true;
  EXPECT_TRUE(RunOnce(bad, "count").IsCorruption());
  EXPECT_TRUE(RunOnce(bad, "insert").IsCorruption());
}

// --threads: get and scan split each iteration into slices, one per thread and session, and still read
// (and verify) every row once; on an engine with real storage too.
TEST_F(MicroSuiteTest, ThreadsShareEachIterationOfGetAndScan) {
  const AdapterFactory* lmdb = BuiltinAdapters().Find("lmdb");
  ASSERT_NE(lmdb, nullptr);
  for (const AdapterFactory& engine : {NullAdapterFactory(), *lmdb}) {
    for (uint32_t threads : {1u, 3u, 7u}) {
      config_.threads = threads;
      for (const char* w : {"get", "scan"}) {
        std::string checksum;
        Status st = RunOnce(engine, w, &checksum);
        ASSERT_TRUE(st.ok()) << engine.name << " " << w << " on " << threads << " threads: " << st.ToString();
      }
    }
  }
  EXPECT_TRUE(MicroWorkloadTakesThreads("get") && MicroWorkloadTakesThreads("scan"));
  EXPECT_FALSE(MicroWorkloadTakesThreads("insert") || MicroWorkloadTakesThreads("count"));
}

TEST_F(MicroSuiteTest, ThreadsReadEveryRowOnceAndAWrongValueOnAnyThreadFailsGet) {
  AdapterFactory bad = CorruptingNull();
  config_.threads = 4;
  CorruptingSession::gets_ = 0;
  ASSERT_TRUE(RunOnce(bad, "get").ok());
  EXPECT_EQ(CorruptingSession::gets_.load(), 3 * config_.dataset->size()) << "every row once per iteration";
  CorruptingSession::armed_ = true;
  Status st = RunOnce(bad, "get");
  ASSERT_TRUE(st.IsCorruption()) << st.ToString();
  EXPECT_NE(st.message().find("wrong value for 'key_00000042"), std::string::npos) << st.message();
  EXPECT_EQ(st.message().rfind("thread ", 0), 0u) << "names the thread: " << st.message();
}

TEST_F(MicroSuiteTest, UnknownWorkloadIsInvalidArgument) {
  EXPECT_TRUE(MakeMicroBenchmark("nosuch", NullAdapterFactory(), config_).status().IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
