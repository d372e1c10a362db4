// Memory limits: what this machine allows, that a cgroup limit really bounds memory (page cache and
// anonymous), that eviction empties the page cache without touching the data; WithMemoryLimit, the sequence wrapper, is
// in with_memory_limit_test.cc. Cgroup tests skip, saying why, where the probe finds no usable cgroup.
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
#include "harness/memory/memory_test_files.h"
#include "harness/phase_runner.h"
#include "workloads/prng.h"
#include "workloads/sqlite_vps/vps_suite.h"

namespace dbxb {
namespace {
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

}  // namespace
}  // namespace dbxb
