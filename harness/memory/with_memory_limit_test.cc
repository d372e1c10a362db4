// WithMemoryLimit, the sequence wrapper: each phase under the limit by the method the probe found, its
// memory method in the record, and a phase whose own memory overruns the limit failing alone.
// Cgroup tests skip, saying why, where the probe finds no usable cgroup.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/sanitized_build.h"
#include "harness/fixed_phase.h"
#include "harness/memory/memory_files.h"
#include "harness/memory/memory_limit.h"
#include "harness/memory/memory_test_files.h"
#include "harness/phase_runner.h"
#include "workloads/prng.h"
#include "workloads/sqlite_vps/vps_suite.h"

namespace dbxb {
namespace {

class FakeSequence final : public PhaseSequence {
 public:
  FakeSequence(std::string dataset, std::string dir, std::vector<std::string>* log, uint64_t limit = 0)
      : dataset_(std::move(dataset)), dir_(std::move(dir)), log_(log), limit_(limit) {}
  std::string dataset() const override { return dataset_; }
  uint64_t memory_limit_bytes() const override { return limit_; }
  Status Open() override {
    log_->push_back("open in " + OwnMemoryCgroupLine());
    return Status::Ok();
  }
  Result<std::unique_ptr<Phase>> NextPhase() override {
    if (next_ == 2) return std::unique_ptr<Phase>();
    // Reads its data file, as a phase would: its pages must be cold when the phase starts (eviction).
    ReadChecksum(dir_ + "/data.dat");
    std::string name = "p";
    name += std::to_string(next_++);  // appended: GCC 12 warns falsely (-Wrestrict) on operator+ here
    PhaseSpec spec;                   // one operation that does nothing
    spec.name = name;
    spec.op_types = {"noop"};
    spec.operations = 1;
    spec.parameters = {{"own", "parameter"}};
    return std::unique_ptr<Phase>(new EmptyPhase(std::move(spec)));
  }
  Settings engine_settings() const override { return {}; }
  Status Close() override {
    log_->push_back("close in " + OwnMemoryCgroupLine());
    return Status::Ok();
  }

 private:
  std::string dataset_;
  std::string dir_;
  std::vector<std::string>* log_;
  uint64_t limit_ = 0;
  int next_ = 0;
};

std::string Parameter(const PhaseSpec& spec, const std::string& key) {
  for (const auto& [k, v] : spec.parameters)
    if (k == key) return v;
  return "<missing>";
}

TEST(WithMemoryLimitTest, EvictionFallbackLabelsPhasesAndEvictsBeforeEach) {
  DiskDir dir;
  WriteFile(dir.path() + "/data.dat", 4, 9);
  std::vector<std::string> log;
  MemoryLimitProbe eviction;  // forced fallback
  auto seq =
      WithMemoryLimit(std::make_unique<FakeSequence>("disk-bound", dir.path(), &log), 1 << 30, dir.path(), eviction);
  ASSERT_TRUE(seq->Open().ok());
  for (int i = 0; i < 2; ++i) {
    auto phase = seq->NextPhase();
    ASSERT_TRUE(phase.ok() && *phase != nullptr);
    const PhaseSpec& spec = (*phase)->spec();
    EXPECT_EQ(Parameter(spec, "own"), "parameter");
    EXPECT_EQ(Parameter(spec, "memory_limit_bytes"), std::to_string(1 << 30));
    const std::string method = Parameter(spec, kMemoryMethodParameter);
    EXPECT_EQ(method.rfind("fadvise-dontneed eviction", 0), 0u) << method;
    // The fake read its file before the wrapper evicted: nothing of it is left cached.
    EXPECT_NE(method.find("; 0 of 4194304 bytes still cached"), std::string::npos) << method;
    auto w = (*phase)->NewWorker(0);
    ASSERT_TRUE(w.ok());
  }
  auto end = seq->NextPhase();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
  EXPECT_EQ(seq->dataset(), "disk-bound");
  EXPECT_TRUE(seq->Close().ok());
}

TEST(WithMemoryLimitTest, CgroupMethodConfinesFromOpenToClose) {
  MemoryLimitProbe probe = ProbeMemoryLimit();
  if (probe.method == MemoryLimitMethod::kFadviseEviction) GTEST_SKIP() << "no usable cgroup here";
  DiskDir dir;
  WriteFile(dir.path() + "/data.dat", 1, 9);
  std::vector<std::string> log;
  const std::string outside = OwnMemoryCgroupLine();
  auto seq =
      WithMemoryLimit(std::make_unique<FakeSequence>("disk-bound", dir.path(), &log), 256 << 20, dir.path(), probe);
  ASSERT_TRUE(seq->Open().ok());
  auto phase = seq->NextPhase();
  ASSERT_TRUE(phase.ok() && *phase != nullptr);
  const std::string method = Parameter((*phase)->spec(), kMemoryMethodParameter);
  // Under the cgroup too, the phase starts with the database evicted (it read its 1 MiB file just before).
  EXPECT_EQ(method, MemoryLimitMethodName(probe.method) +
                        (probe.method == MemoryLimitMethod::kCgroupV1 ? " memory.limit_in_bytes=" : " memory.max=") +
                        std::to_string(256 << 20) + "; 0 of 1048576 bytes still cached after eviction");
  EXPECT_TRUE(seq->Close().ok());
  ASSERT_EQ(log.size(), 2u);
  EXPECT_NE(log[0], "open in " + outside);    // opened inside the child cgroup
  EXPECT_NE(log[1], "close in " + outside);   // and closed inside it
  EXPECT_EQ(OwnMemoryCgroupLine(), outside);  // back afterwards
}

// A sequence with one phase whose single operation allocates and touches `bytes` of heap.
class AllocatingSequence final : public PhaseSequence {
 public:
  explicit AllocatingSequence(size_t bytes) : bytes_(bytes) {}
  std::string dataset() const override { return "disk-bound"; }
  Status Open() override { return Status::Ok(); }
  Result<std::unique_ptr<Phase>> NextPhase() override {
    if (done_) return std::unique_ptr<Phase>();
    done_ = true;
    PhaseSpec spec;
    spec.name = "allocate";
    spec.op_types = {"allocate"};
    spec.operations = 1;
    const size_t bytes = bytes_;
    return std::unique_ptr<Phase>(
        new FixedPhase(std::move(spec), [bytes] { return std::unique_ptr<PhaseWorker>(new Worker(bytes)); }));
  }
  Settings engine_settings() const override { return {}; }
  Status Close() override { return Status::Ok(); }

 private:
  class Worker final : public PhaseWorker {
   public:
    explicit Worker(size_t bytes) : bytes_(bytes) {}
    Status NextOp(uint32_t* op) override {
      *op = 0;
      volatile char* p = static_cast<volatile char*>(std::malloc(bytes_));
      if (p == nullptr) return Status::Internal("malloc");
      for (size_t i = 0; i < bytes_; i += 4096) p[i] = 1;
      std::free(const_cast<char*>(p));
      return Status::Ok();
    }

   private:
    size_t bytes_;
  };
  size_t bytes_;
  bool done_ = false;
};

TEST(WithMemoryLimitTest, APhaseWhoseOwnMemoryOverrunsTheLimitFailsAndTheRunGoesOn) {
  MemoryLimitProbe probe = ProbeMemoryLimit();
  if (probe.method != MemoryLimitMethod::kCgroupV1) GTEST_SKIP() << "the OOM guard is cgroup v1 only";
  // In a child, so that a broken guard (the kernel then kills) cannot take the test binary with it.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto seq = WithMemoryLimit(std::make_unique<AllocatingSequence>(96ull << 20), 32ull << 20, "/nonexistent", probe);
    if (!seq->Open().ok()) _exit(10);
    auto phase = seq->NextPhase();
    if (!phase.ok() || *phase == nullptr) _exit(11);
    if (!(*phase)->SetUp().ok()) _exit(12);
    auto worker = (*phase)->NewWorker(0);
    if (!worker.ok()) _exit(13);
    uint32_t op = 0;
    if (!(*worker)->NextOp(&op).ok()) _exit(14);
    worker->reset();
    Status torn = (*phase)->TearDown();
    if (torn.code() != Status::Code::kInternal || torn.message().find("exceeded the memory limit") == std::string::npos)
      _exit(15);
    if (seq->NextPhase().ok()) _exit(16);  // the sequence refuses to go on unconfined
    if (!seq->Close().ok()) _exit(17);
    _exit(0);
  }
  int status = 0;
  const bool exited = WaitChild(pid, &status);
  const std::string prefix = "dbxb-" + std::to_string(pid) + "-";
  for (const auto& e : std::filesystem::directory_iterator(probe.cgroup_dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) rmdir(e.path().c_str());
  ASSERT_TRUE(exited) << "the child hung at the memory limit";
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(WithMemoryLimitTest, MemoryLimitsWrapOnlySequencesThatAskForALimit) {
  std::vector<std::string> log;
  std::vector<std::unique_ptr<PhaseSequence>> seqs;
  seqs.push_back(std::make_unique<FakeSequence>("cached", "/nonexistent", &log));
  seqs.push_back(std::make_unique<FakeSequence>("disk-bound", "/nonexistent", &log, 1 << 30));
  DiskDir dir;
  MemoryLimits limits(dir.path());
  limits.Apply(&seqs);
  ASSERT_EQ(seqs.size(), 2u);
  for (auto& seq : seqs) {
    ASSERT_TRUE(seq->Open().ok());
    auto phase = seq->NextPhase();
    ASSERT_TRUE(phase.ok() && *phase != nullptr);
    const std::string method = Parameter((*phase)->spec(), kMemoryMethodParameter);
    if (seq->dataset() == "cached") {
      EXPECT_EQ(method, "<missing>");
    } else {
      EXPECT_NE(method, "<missing>");
    }
    EXPECT_TRUE(seq->Close().ok());
  }
}

// The sqlite-vps disk-bound sequence on every engine, run by the phase runner under each method: the
// eviction between phases and the cgroup limit change caching only, so every verified phase passes.
class VpsUnderLimitTest : public testing::TestWithParam<const char*> {};

TEST_P(VpsUnderLimitTest, PhasesPassUnderEveryMethod) {
  std::vector<MemoryLimitProbe> probes(1);  // the fallback, forced
  if (MemoryLimitProbe p = ProbeMemoryLimit(); p.method != MemoryLimitMethod::kFadviseEviction) probes.push_back(p);
  for (const MemoryLimitProbe& probe : probes) {
    SCOPED_TRACE(MemoryLimitMethodName(probe.method));
    DiskDir dir;
    PhaseSuiteOptions options;
    options.work_dir = dir.path();
    options.records = 3000;
    options.operations = 100;
    options.load_batch = 500;
    options.warmup_seconds = 1e-6;  // instead of 1,000 warm-up operations: LMDB syncs each update here
    SqliteVpsConfig config;
    config.datasets = {VpsDataset::kDiskBound};
    config.memory_limit_bytes = 256ull << 20;
    config.phases = {"bulk-insert", "select-pk", "range-scan", "update"};
    auto sequences = MakeSqliteVpsSequences(*BuiltinAdapters().Find(GetParam()), options, config);
    ASSERT_TRUE(sequences.ok()) << sequences.status().ToString();
    auto seq = WithMemoryLimit(std::move((*sequences)[0]), config.memory_limit_bytes, dir.path(), probe);
    ASSERT_TRUE(seq->Open().ok());
    int phases = 0;
    for (;;) {
      auto phase = seq->NextPhase();
      ASSERT_TRUE(phase.ok()) << phase.status().ToString();
      if (*phase == nullptr) break;
      ++phases;
      const std::string method = Parameter((*phase)->spec(), kMemoryMethodParameter);
      EXPECT_EQ(method.rfind(MemoryLimitMethodName(probe.method), 0), 0u) << method;
      PhaseRun run = RunPhase({}, **phase);
      EXPECT_FALSE(run.result.error_occurred) << (*phase)->spec().name << ": " << run.result.error_message;
      EXPECT_EQ(run.result.operations, (*phase)->spec().operations);
    }
    EXPECT_EQ(phases, 4);
    EXPECT_TRUE(seq->Close().ok());
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, VpsUnderLimitTest, testing::Values("dbx", "sqlite", "lmdb", "rocksdb"));

}  // namespace
}  // namespace dbxb
