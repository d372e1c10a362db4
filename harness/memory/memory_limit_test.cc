// Memory limits: what this machine allows, that a cgroup limit really bounds memory (page cache and
// anonymous), that eviction empties the page cache without touching the data, and the sequence wrapper.
// Cgroup tests skip, saying why, where the probe finds no usable cgroup.
#include "harness/memory/memory_limit.h"

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
#include "harness/phase_runner.h"
#include "workloads/prng.h"
#include "workloads/sqlite_vps/vps_suite.h"

namespace dbxb {
namespace {

// On the real disk, not tmpfs: tmpfs pages cannot leave the page cache.
class DiskDir {
 public:
  DiskDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-memlimit-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~DiskDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Writes `mib` MiB of seeded bytes; returns their checksum.
uint64_t WriteFile(const std::string& path, uint64_t mib, uint64_t seed) {
  std::ofstream out(path, std::ios::binary);
  Xoshiro256 rng(seed);
  std::vector<uint64_t> block(1 << 17);  // 1 MiB
  uint64_t sum = 0;
  for (uint64_t m = 0; m < mib; ++m) {
    for (uint64_t& w : block) sum += (w = rng.Next());
    out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(block.size() * 8));
  }
  return sum;
}

uint64_t ReadChecksum(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint64_t> block(1 << 17);
  uint64_t sum = 0;
  while (in.read(reinterpret_cast<char*>(block.data()), static_cast<std::streamsize>(block.size() * 8)) ||
         in.gcount() > 0) {
    for (size_t i = 0; i < static_cast<size_t>(in.gcount()) / 8; ++i) sum += block[i];
  }
  return sum;
}

std::string OwnMemoryCgroupLine() {
  std::ifstream in("/proc/self/cgroup");
  std::string line, all;
  while (std::getline(in, line)) all += line + "\n";
  return all;
}

// Counters read from cgroup files are parsed into a Status, never with a throwing std::stoull.
TEST(MemoryFilesTest, ParseDecimalAcceptsCountersAndRefusesTheRest) {
  uint64_t v = 7;
  ASSERT_TRUE(memory_internal::ParseDecimal("268435456\n", "memory.peak", &v).ok());
  EXPECT_EQ(v, 268435456u);
  ASSERT_TRUE(memory_internal::ParseDecimal(" 0 ", "memory.peak", &v).ok());
  EXPECT_EQ(v, 0u);
  for (const char* bad : {"", "\n", "max", "12x", "-1", "1.5", "99999999999999999999999"}) {
    v = 7;
    Status st = memory_internal::ParseDecimal(bad, "memory.peak", &v);
    EXPECT_TRUE(st.IsInvalidArgument()) << "'" << bad << "'";
    EXPECT_NE(st.message().find("memory.peak"), std::string::npos) << st.message();
    EXPECT_EQ(v, 7u) << "'" << bad << "'";
  }
}

// A sanitizer's allocator replaces glibc's arenas, so there is nothing for malloc_trim to hand back.
#if defined(__GLIBC__) && !defined(DBXB_SANITIZED_BUILD)
// The process's resident anonymous memory (RssAnon of /proc/self/status), in bytes.
uint64_t AnonRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("RssAnon:", 0) == 0) return std::strtoull(line.c_str() + 8, nullptr, 10) * 1024;
  return 0;
}

// 64 MiB freed in 4 KiB pieces with one piece in 64 kept: glibc cannot shrink its heap past the live
// pieces, so the freed memory stays resident until ReleaseFreedHeap hands it back.
TEST(ReleaseFreedHeapTest, FreedMemoryLeavesTheProcess) {
  constexpr size_t kPiece = 4096, kPieces = 16384;
  std::vector<char*> pieces(kPieces);
  for (char*& p : pieces) {
    p = static_cast<char*>(std::malloc(kPiece));
    ASSERT_NE(p, nullptr);
    std::memset(p, 1, kPiece);
  }
  for (size_t i = 0; i < kPieces; ++i)
    if (i % 64 != 0) {
      std::free(pieces[i]);
      pieces[i] = nullptr;
    }
  const uint64_t before = AnonRssBytes();
  ReleaseFreedHeap();
  const uint64_t after = AnonRssBytes();
  for (char* p : pieces) std::free(p);
  ASSERT_GT(before, 0u);
  EXPECT_GE(before, after + 48 * (uint64_t{1} << 20)) << "RssAnon " << before << " -> " << after << " bytes";
}
#endif

TEST(MemoryLimitProbeTest, NamesAMethodAndExplainsTheOthers) {
  MemoryLimitProbe probe = ProbeMemoryLimit();
  for (const std::string& note : probe.notes) std::printf("  probe: %s\n", note.c_str());
  std::printf("  chosen: %s %s\n", MemoryLimitMethodName(probe.method).c_str(), probe.cgroup_dir.c_str());
  EXPECT_GE(probe.notes.size(), 3u);  // v2, v1, systemd-run
  if (probe.method != MemoryLimitMethod::kFadviseEviction) {
    EXPECT_TRUE(std::filesystem::is_directory(probe.cgroup_dir));
  }
  // The probe leaves no child cgroup behind.
  if (!probe.cgroup_dir.empty()) {
    for (const auto& e : std::filesystem::directory_iterator(probe.cgroup_dir))
      EXPECT_EQ(e.path().filename().string().find("dbxb-" + std::to_string(getpid())), std::string::npos);
  }
}

TEST(EvictionTest, DropsCachedPagesAndKeepsTheData) {
  DiskDir dir;
  std::filesystem::create_directories(dir.path() + "/sub");
  const uint64_t a = WriteFile(dir.path() + "/a.dat", 8, 1);
  const uint64_t b = WriteFile(dir.path() + "/sub/b.dat", 4, 2);
  ASSERT_EQ(ReadChecksum(dir.path() + "/a.dat"), a);  // now cached
  ASSERT_EQ(ReadChecksum(dir.path() + "/sub/b.dat"), b);
  auto before = ResidentBytes(dir.path());
  ASSERT_TRUE(before.ok());
  ASSERT_GT(*before, 6u << 20) << "the files were just read, so most of them should be cached";

  auto stats = EvictFromPageCache(dir.path());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->files, 2u);
  EXPECT_EQ(stats->bytes, 12u << 20);
  EXPECT_GT(stats->resident_before, 6u << 20);
  EXPECT_LT(stats->resident_after, 1u << 20);
  auto after = ResidentBytes(dir.path());
  ASSERT_TRUE(after.ok());
  EXPECT_LT(*after, 1u << 20);
  EXPECT_EQ(ReadChecksum(dir.path() + "/a.dat"), a);
  EXPECT_EQ(ReadChecksum(dir.path() + "/sub/b.dat"), b);
  EXPECT_TRUE(EvictFromPageCache(dir.path() + "/missing").status().IsNotFound());
}

// An engine that maps its files (LMDB, SQLite's mmap, DBX's segments) pins the pages it read; the
// eviction takes them out of this process's page tables first, so they leave the page cache too, and
// the mapping still reads the file. A private mapping is left alone.
TEST(EvictionTest, DropsPagesThisProcessMapsAndKeepsTheMappingValid) {
  DiskDir dir;
  const std::string path = dir.path() + "/mapped.dat";
  const uint64_t sum = WriteFile(path, 8, 3);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const size_t size = 8u << 20;
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  ASSERT_NE(map, MAP_FAILED);
  auto mapped_sum = [&] {
    const uint64_t* words = static_cast<const uint64_t*>(map);
    uint64_t total = 0;
    for (size_t i = 0; i < size / 8; ++i) total += words[i];
    return total;
  };
  ASSERT_EQ(mapped_sum(), sum);  // every page faulted in through the mapping
  auto stats = EvictFromPageCache(dir.path());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_GT(stats->resident_before, 6u << 20);
  EXPECT_LT(stats->resident_after, 1u << 20) << "pages mapped by this process stayed cached";
  EXPECT_EQ(mapped_sum(), sum);  // faulted back in from the file
  munmap(map, size);
}

class CgroupTest : public testing::Test {
 protected:
  void SetUp() override {
    probe_ = ProbeMemoryLimit();
    if (probe_.method == MemoryLimitMethod::kFadviseEviction) {
      std::string why;
      for (const auto& n : probe_.notes) why += n + "; ";
      GTEST_SKIP() << "no usable cgroup memory limit here: " << why;
    }
  }
  MemoryLimitProbe probe_;
};

TEST_F(CgroupTest, PageCacheStaysUnderTheLimitAndTheProcessComesBack) {
  DiskDir dir;
  const std::string file = dir.path() + "/big.dat";
  const uint64_t sum = WriteFile(file, 96, 3);
  ASSERT_TRUE(EvictFromPageCache(dir.path()).ok());
  const std::string outside = OwnMemoryCgroupLine();
  constexpr uint64_t kLimit = 32ull << 20;
  {
    auto c = MemoryConfinement::Enter(probe_, kLimit);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    EXPECT_NE(OwnMemoryCgroupLine(), outside);
    EXPECT_NE(OwnMemoryCgroupLine().find(std::filesystem::path((*c)->cgroup_path()).filename().string()),
              std::string::npos);
    EXPECT_EQ(ReadChecksum(file), sum);  // 96 MiB read through a 32 MiB budget
    auto resident = ResidentBytes(file);
    ASSERT_TRUE(resident.ok());
    EXPECT_LE(*resident, kLimit);
    auto peak = (*c)->PeakBytes();
    ASSERT_TRUE(peak.ok()) << peak.status().ToString();
    EXPECT_LE(*peak, kLimit);
    EXPECT_GT(*peak, kLimit / 2);  // the reads were charged here
    std::printf("  %s: peak %llu bytes; file resident %llu of %llu bytes\n", (*c)->description().c_str(),
                static_cast<unsigned long long>(*peak), static_cast<unsigned long long>(*resident), 96ull << 20);
    const std::string path = (*c)->cgroup_path();
    ASSERT_TRUE((*c)->Leave().ok());
    EXPECT_FALSE(std::filesystem::exists(path));
  }
  EXPECT_EQ(OwnMemoryCgroupLine(), outside);
}

// Waits for a child; a child stuck at the memory limit (a broken guard) is killed after a minute, so the
// test fails instead of hanging. The bound only catches a hang: nothing here measures time.
bool WaitChild(pid_t pid, int* status) {
  for (int i = 0; i < 600; ++i) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid) return true;
    if (r < 0) return false;
    usleep(100'000);
  }
  kill(pid, SIGKILL);
  waitpid(pid, status, 0);
  return false;
}

// In a child process: if the guard failed, the kernel's OOM killer would end it, not this test.
// Returns the child's exit status.
int AllocateBeyondTheLimitInAChild(const MemoryLimitProbe& probe, bool* killed) {
  pid_t pid = fork();
  if (pid == 0) {
    auto c = MemoryConfinement::Enter(probe, 32ull << 20);
    if (!c.ok()) _exit(3);
    const size_t n = 128ull << 20;
    // volatile: the compiler must not drop the allocation and the writes that make it resident.
    volatile char* p = static_cast<volatile char*>(std::malloc(n));
    if (p == nullptr) _exit(4);
    for (size_t i = 0; i < n; i += 4096) p[i] = 1;
    const uint64_t events = (*c)->oom_events();
    if (!(*c)->Leave().ok()) _exit(5);
    _exit(events > 0 ? 0 : 6);
  }
  if (pid < 0) return -1;
  int status = 0;
  const bool exited = WaitChild(pid, &status);
  // A killed child could not remove its cgroup: do it here.
  const std::string prefix = "dbxb-" + std::to_string(pid) + "-";
  for (const auto& e : std::filesystem::directory_iterator(probe.cgroup_dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) rmdir(e.path().c_str());
  if (!exited) return -1;
  *killed = WIFSIGNALED(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST_F(CgroupTest, AnonymousOverrunIsCaughtByTheGuardNotKilled) {
  if (probe_.method != MemoryLimitMethod::kCgroupV1) GTEST_SKIP() << "the OOM guard is cgroup v1 only";
  bool killed = false;
  EXPECT_EQ(AllocateBeyondTheLimitInAChild(probe_, &killed), 0) << "0 = overrun seen by the guard, not killed";
  EXPECT_FALSE(killed);
}

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
  uint64_t limit_ = 0;
  std::vector<std::string>* log_;
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
