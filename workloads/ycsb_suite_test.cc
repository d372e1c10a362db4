#include "workloads/ycsb_suite.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "harness/phase_runner.h"
#include "workloads/ycsb_records.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

YcsbWorkload Parse(const std::string& text) {
  auto w = ParseYcsbWorkload(text, "test");
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? w.value() : YcsbWorkload{};
}

// --- keys and records ---

TEST(YcsbKey, HashedKeysAreYcsbs) {
  YcsbWorkload w;  // insertorder=hashed, zeropadding=1
  // Math.abs of FNV-1a 64 of the key number taken as a Java long (computed independently in Python).
  EXPECT_EQ(YcsbKey(0, w), "user6284781860667377211");
  EXPECT_EQ(YcsbKey(1, w), "user8517097267634966620");
  EXPECT_EQ(YcsbKey(2, w), "user1820151046732198393");
}

TEST(YcsbKey, OrderedKeysArePadded) {
  YcsbWorkload w;
  w.insert_order = YcsbWorkload::InsertOrder::kOrdered;
  EXPECT_EQ(YcsbKey(42, w), "user42");
  w.zero_padding = 6;
  EXPECT_EQ(YcsbKey(42, w), "user000042");
  EXPECT_EQ(YcsbKey(1234567, w), "user1234567") << "longer numbers are not cut";
  std::string reused = "a much longer previous key value";
  YcsbKey(7, w, &reused);
  EXPECT_EQ(reused, "user000007");
}

TEST(YcsbRecords, JavaStringHash) {
  EXPECT_EQ(JavaStringHash(""), 0);
  EXPECT_EQ(JavaStringHash("hello"), 99162322);  // "hello".hashCode() in Java
  EXPECT_EQ(JavaStringHash("user6284781860667377211:field0"), static_cast<int32_t>([] {
              uint32_t h = 0;
              for (char c : std::string("user6284781860667377211:field0")) h = h * 31 + static_cast<uint8_t>(c);
              return h;
            }()));
}

// The deterministic value, built the slow way: hash the whole text again each round.
std::string SlowDeterministic(const std::string& key, const std::string& field, size_t size) {
  std::string s = key + ":" + field;
  while (s.size() < size) {
    s += ":";
    s += std::to_string(JavaStringHash(s));
  }
  return s.substr(0, size);
}

TEST(YcsbRecords, DeterministicFieldMatchesTheDefinition) {
  for (size_t size : {1u, 10u, 28u, 100u, 1000u}) {
    std::string out = "prefix";
    AppendDeterministicField("user123", "field7", size, &out);
    EXPECT_EQ(out, "prefix" + SlowDeterministic("user123", "field7", size)) << size;
  }
}

TEST(YcsbRecords, ValuesRoundTripAndDamageIsCaught) {
  YcsbWorkload w;
  w.field_count = 4;
  w.field_length = 20;
  YcsbRecordCodec codec(w, 1);
  std::string v;
  codec.BuildValue("user1", &v);
  EXPECT_EQ(v.size(), 4 * (4 + 20u));
  EXPECT_TRUE(codec.Verify("user1", v).ok());
  for (char c : v.substr(4, 20)) EXPECT_TRUE(c >= ' ' && c <= '~');

  std::string updated;
  codec.UpdateValue("user1", v, 2, &updated);
  ASSERT_TRUE(codec.Verify("user1", updated).ok());
  EXPECT_EQ(updated.substr(0, 48), v.substr(0, 48)) << "fields 0 and 1 untouched";
  EXPECT_EQ(updated.substr(72), v.substr(72)) << "field 3 untouched";

  EXPECT_TRUE(codec.Verify("user1", v.substr(0, v.size() - 1)).IsCorruption());
  EXPECT_TRUE(codec.Verify("user1", v + "x").IsCorruption());
  EXPECT_TRUE(codec.Verify("user1", "").IsCorruption());
  std::string bad_length = v;
  bad_length[24] = 19;  // field 1 claims 19 bytes
  Status st = codec.Verify("user1", bad_length);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("field1 has length 19"), std::string::npos) << st.ToString();
}

TEST(YcsbRecords, DataIntegrityChecksEveryByte) {
  YcsbWorkload w = Parse("recordcount=10\nfieldcount=3\nfieldlength=50\ndataintegrity=true\n");
  YcsbRecordCodec codec(w, 9);
  std::string v;
  codec.BuildValue("user5", &v);
  EXPECT_EQ(v.substr(4, 50), SlowDeterministic("user5", "field0", 50));
  EXPECT_TRUE(codec.Verify("user5", v).ok());
  EXPECT_TRUE(codec.Verify("user6", v).IsCorruption()) << "another key's record";
  v[100] ^= 1;
  EXPECT_TRUE(codec.Verify("user5", v).IsCorruption());
}

TEST(YcsbRecords, VariableFieldLengthsStayInRange) {
  YcsbWorkload w = Parse(
      "recordcount=10\nfieldcount=50\nfieldlength=30\nminfieldlength=5\n"
      "fieldlengthdistribution=uniform\n");
  YcsbRecordCodec codec(w, 3);
  std::set<size_t> sizes;
  for (int i = 0; i < 20; ++i) {
    std::string v;
    codec.BuildValue("k", &v);
    ASSERT_TRUE(codec.Verify("k", v).ok());
    sizes.insert(v.size());
  }
  EXPECT_GT(sizes.size(), 1u) << "lengths vary";
}

TEST(AcknowledgedCounter, LimitAdvancesOnlyOverContiguousAcknowledgements) {
  AcknowledgedCounter c(100);
  EXPECT_EQ(c.Next(), 100u);
  EXPECT_EQ(c.Next(), 101u);
  EXPECT_EQ(c.Next(), 102u);
  EXPECT_EQ(c.Limit(), 100u);
  c.Acknowledge(101);
  EXPECT_EQ(c.Limit(), 100u) << "100 is still in flight";
  c.Acknowledge(100);
  EXPECT_EQ(c.Limit(), 102u);
  c.Acknowledge(102);
  EXPECT_EQ(c.Limit(), 103u);
}

TEST(AcknowledgedCounter, ManyThreads) {
  AcknowledgedCounter c(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) c.Acknowledge(c.Next());
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.Limit(), 40000u);
}

TEST(YcsbOverrides, RecordsAndOperations) {
  YcsbWorkload w = Parse("recordcount=1000\noperationcount=0\n");
  PhaseSuiteOptions o;
  auto r = ApplyYcsbOverrides(w, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--operations or --duration"), std::string::npos) << r.status().ToString();
  o.records = 200;
  o.operations = 500;
  r = ApplyYcsbOverrides(w, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->record_count, 200u);
  EXPECT_EQ(r->insert_count, 200u) << "insertcount followed recordcount";
  EXPECT_EQ(r->operation_count, 500u);
  o.operations = 0;
  o.duration_seconds = 1;
  EXPECT_TRUE(ApplyYcsbOverrides(w, o).ok()) << "a duration bounds the run";

  YcsbWorkload part = Parse("recordcount=1000\ninsertstart=100\ninsertcount=800\n");
  o.records = 500;
  r = ApplyYcsbOverrides(part, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("exceed --records 500"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(YcsbWorkloadName("workloads/ycsb/workloada"), "workloada");
  EXPECT_EQ(YcsbWorkloadName("x/my.properties"), "my");
}

// --- load and run on every engine ---

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
    auto w = ApplyYcsbOverrides(Parse(text), o);
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
  ASSERT_EQ(r.size(), 2u);
  ASSERT_FALSE(r[1].error_occurred) << r[1].error_message;
  EXPECT_FALSE(r[1].settle_ns.has_value());
}

// Every operation type, data integrity, latest distribution and inserts, on two threads.
TEST_P(YcsbOnEngine, EveryOperationTypeWithDataIntegrity) {
  std::vector<PhaseResult> r =
      Run("recordcount=200\noperationcount=500\nfieldcount=5\nfieldlength=40\ndataintegrity=true\n"
          "readproportion=0.3\nupdateproportion=0.2\ninsertproportion=0.2\nscanproportion=0.1\n"
          "readmodifywriteproportion=0.2\nrequestdistribution=latest\nmaxscanlength=20\nwriteallfields=false\n",
          2);
  ASSERT_EQ(r.size(), 2u);
  ASSERT_FALSE(r[0].error_occurred) << r[0].error_message;
  ASSERT_FALSE(r[1].error_occurred) << r[1].error_message;
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
  ASSERT_EQ(r.size(), 2u);
  ASSERT_FALSE(r[1].error_occurred) << r[1].error_message;
  EXPECT_GT(Count(r[1], "insert"), 0u);
  EXPECT_GT(Count(r[1], "scan"), 0u);
}

std::vector<std::string> EngineNames() {
  std::vector<std::string> names;
  for (const auto& f : BuiltinAdapters().factories()) names.push_back(f.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, YcsbOnEngine, ::testing::ValuesIn(EngineNames()), [](const auto& info) {
  std::string name = info.param;
  for (char& c : name)
    if (c == '-') c = '_';  // GoogleTest's names: letters, digits, underscores ("dbx-core")
  return name;
});

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

TEST(YcsbNull, InsertsNeedAnOperationCount) {
  YcsbWorkload w =
      Parse("recordcount=10\noperationcount=0\ninsertproportion=0.5\nreadproportion=0.5\nupdateproportion=0\n");
  PhaseSuiteOptions o;
  o.duration_seconds = 1;
  auto applied = ApplyYcsbOverrides(w, o);
  ASSERT_TRUE(applied.ok());
  auto seq = MakeYcsbSequence(applied.value(), "w", *BuiltinAdapters().Find("null"), o);
  EXPECT_FALSE(seq.ok());
}

}  // namespace
}  // namespace dbxb
