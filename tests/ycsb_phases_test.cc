// The YCSB suite's load and run phases through the phase runner, on every registered engine, and
// verification that fails on an engine that loses or damages records. The suite's own parts (keys,
// records, overrides) are tested in workloads/ycsb_suite_test.cc.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "adapters/adapter_test_dir.h"
#include "harness/phase_runner.h"
#include "workloads/ycsb_suite.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class YcsbOnEngine : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dbxb_ycsb_" + std::to_string(::getpid()) + "_" + GetParam());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs load + run of `text` (recordcount 200, operationcount 500 unless the text says otherwise).
  std::vector<PhaseResult> Run(const std::string& text, uint32_t threads, const AdapterFactory* engine = nullptr,
                               bool settle = true) {
    PhaseSuiteOptions o;
    o.settle = settle;
    o.work_dir = dir_.string();
    o.threads = threads;
    o.load_batch = 64;
    o.engine_options.durability = Durability::kNone;
    o.seed = 42;
    auto parsed = ParseYcsbWorkload(text, "test");
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    if (!parsed.ok()) return {};
    auto w = ApplyYcsbOverrides(parsed.value(), o);
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    if (engine == nullptr) engine = BuiltinAdapters().Find(GetParam());
    auto seq = MakeYcsbSequence(w.value(), "test", *engine, o);
    EXPECT_TRUE(seq.ok()) << seq.status().ToString();
    std::vector<PhaseResult> out;
    if (!seq.ok()) return out;
    Status st = seq.value()->Open();
    EXPECT_TRUE(st.ok()) << st.ToString();
    while (st.ok()) {
      auto phase = seq.value()->NextPhase();
      if (!phase.ok() || phase.value() == nullptr) break;
      out.push_back(RunPhase({}, *phase.value()).result);
      if (out.back().error_occurred) break;
    }
    EXPECT_FALSE(seq.value()->engine_settings().empty() && GetParam() != "null");
    EXPECT_TRUE(seq.value()->Close().ok());
    return out;
  }

  fs::path dir_;
};

uint64_t Count(const PhaseResult& r, const std::string& op) {
  for (const auto& o : r.per_op)
    if (o.name == op) return o.count;
  return 0;
}

// Both phases, load and run, came back without an error (Run stops at the first phase that fails).
::testing::AssertionResult LoadAndRunOk(const std::vector<PhaseResult>& r) {
  if (r.size() != 2) return ::testing::AssertionFailure() << r.size() << " phases, not load and run";
  for (const PhaseResult& p : r)
    if (p.error_occurred) return ::testing::AssertionFailure() << p.phase << ": " << p.error_message;
  return ::testing::AssertionSuccess();
}

TEST_P(YcsbOnEngine, WorkloadALoadsAndRunsVerified) {
  std::vector<PhaseResult> r = Run(
      "recordcount=200\noperationcount=500\nreadproportion=0.5\nupdateproportion=0.5\nrequestdistribution=zipfian\n",
      1);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].phase, "load");
  ASSERT_FALSE(r[0].error_occurred) << r[0].error_message;
  EXPECT_EQ(r[0].operations, 4u) << "200 records in batches of 64";
  EXPECT_EQ(r[0].rows_per_operation, 64u);
  EXPECT_EQ(r[1].phase, "run");
  ASSERT_FALSE(r[1].error_occurred) << r[1].error_message;
  EXPECT_EQ(r[1].operations, 500u);
  ASSERT_EQ(r[1].per_op.size(), 2u);
  EXPECT_EQ(Count(r[1], "read") + Count(r[1], "update"), 500u);
  EXPECT_GT(Count(r[1], "read"), 150u);
  EXPECT_GT(Count(r[1], "update"), 150u);
  EXPECT_FALSE(r[0].settle_ns.has_value());  // the load starts on an empty store
  EXPECT_TRUE(r[1].settle_ns.has_value()) << "the run settles after the load";
}

TEST_P(YcsbOnEngine, NoSettleMeasuresRightAfterTheLoad) {
  std::vector<PhaseResult> r =
      Run("recordcount=200\noperationcount=100\nreadproportion=1\nupdateproportion=0\n", 1, nullptr, false);
  ASSERT_TRUE(LoadAndRunOk(r));
  EXPECT_FALSE(r[1].settle_ns.has_value());
}

// Every operation type, data integrity, latest distribution and inserts, on two threads.
TEST_P(YcsbOnEngine, EveryOperationTypeWithDataIntegrity) {
  std::vector<PhaseResult> r =
      Run("recordcount=200\noperationcount=500\nfieldcount=5\nfieldlength=40\ndataintegrity=true\n"
          "readproportion=0.3\nupdateproportion=0.2\ninsertproportion=0.2\nscanproportion=0.1\n"
          "readmodifywriteproportion=0.2\nrequestdistribution=latest\nmaxscanlength=20\nwriteallfields=false\n",
          2);
  ASSERT_TRUE(LoadAndRunOk(r));
  EXPECT_EQ(r[1].threads, 2u);
  ASSERT_EQ(r[1].per_op.size(), 5u);
  uint64_t sum = 0;
  for (const auto& o : r[1].per_op) {
    EXPECT_GT(o.count, 0u) << o.name;
    sum += o.count;
  }
  EXPECT_EQ(sum, 500u);
}

TEST_P(YcsbOnEngine, OrderedInsertsWithScrambledZipfianAndScans) {
  std::vector<PhaseResult> r =
      Run("recordcount=200\noperationcount=500\ninsertorder=ordered\nzeropadding=8\n"
          "readproportion=0.45\ninsertproportion=0.1\nscanproportion=0.45\nupdateproportion=0\n"
          "requestdistribution=zipfian\nmaxscanlength=50\nscanlengthdistribution=zipfian\n",
          2);
  ASSERT_TRUE(LoadAndRunOk(r));
  EXPECT_GT(Count(r[1], "insert"), 0u);
  EXPECT_GT(Count(r[1], "scan"), 0u);
}

std::vector<std::string> EngineNames() {
  std::vector<std::string> names;
  for (const auto& f : BuiltinAdapters().factories()) names.push_back(f.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, YcsbOnEngine, ::testing::ValuesIn(EngineNames()),
                         [](const auto& info) { return GTestName(info.param); });

// --- verification must be able to fail ---

// An engine that loses every write and answers Get with a fixed value: reads must fail.
class BrokenSession final : public Session {
 public:
  explicit BrokenSession(std::string answer) : answer_(std::move(answer)) {}
  Status Put(std::string_view, std::string_view) override { return Status::Ok(); }
  Status Get(std::string_view, std::string* value) override {
    if (answer_.empty()) return Status::NotFound();
    *value = answer_;
    return Status::Ok();
  }
  Status Delete(std::string_view) override { return Status::Ok(); }
  Status Scan(std::string_view, uint64_t, ScanVisitor) override { return Status::Ok(); }
  Status Count(uint64_t* count) override {
    *count = 200;
    return Status::Ok();
  }
  Status DoBegin() override { return Status::Ok(); }
  Status DoCommit() override { return Status::Ok(); }
  Status DoAbort() override { return Status::Ok(); }

 private:
  std::string answer_;
};

class BrokenAdapter final : public Adapter {
 public:
  explicit BrokenAdapter(std::string answer) : answer_(std::move(answer)) {}
  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(new BrokenSession(answer_));
  }
  Settings NativeSettings() override { return {{"broken", "yes"}}; }
  Status Close() override { return Status::Ok(); }

 private:
  std::string answer_;
};

AdapterFactory BrokenFactory(std::string answer) {
  AdapterFactory f;
  f.name = "broken";
  f.open = [answer](const AdapterOptions&) -> Result<std::unique_ptr<Adapter>> {
    return std::unique_ptr<Adapter>(new BrokenAdapter(answer));
  };
  return f;
}

class YcsbVerification : public YcsbOnEngine {};

TEST_P(YcsbVerification, MissingOrDamagedRecordsFailTheRun) {
  const std::string text = "recordcount=200\noperationcount=500\nreadproportion=1\nupdateproportion=0\n";
  AdapterFactory lost = BrokenFactory("");
  std::vector<PhaseResult> r = Run(text, 1, &lost);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(r[0].error_occurred) << r[0].error_message;
  EXPECT_TRUE(r[1].error_occurred);
  EXPECT_NE(r[1].error_message.find("Corruption: thread 0: read: key user"), std::string::npos) << r[1].error_message;
  EXPECT_NE(r[1].error_message.find("not found"), std::string::npos) << r[1].error_message;

  AdapterFactory garbage = BrokenFactory("garbage");
  r = Run(text, 1, &garbage);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(r[1].error_occurred);
  EXPECT_NE(r[1].error_message.find("field0 has length"), std::string::npos) << r[1].error_message;
}

INSTANTIATE_TEST_SUITE_P(Broken, YcsbVerification, ::testing::Values("broken"));

}  // namespace
}  // namespace dbxb
