// Helpers of the memory-limit tests: a directory on the real disk, files of seeded bytes and their
// checksums, this process's cgroup lines, and a bounded wait for a child process.
#pragma once

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "tests/fixtures/scratch_dir.h"
#include "workloads/prng.h"

namespace dbxb {

// On the real disk, not tmpfs: tmpfs pages cannot leave the page cache.
class DiskDir : public testdata::ScratchDir {
 public:
  DiskDir() : ScratchDir(std::filesystem::temp_directory_path(), "dbxb-memlimit") {}
};

// Writes `mib` MiB of seeded bytes; returns their checksum.
inline uint64_t WriteFile(const std::string& path, uint64_t mib, uint64_t seed) {
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

inline uint64_t ReadChecksum(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint64_t> block(1 << 17);
  uint64_t sum = 0;
  while (in.read(reinterpret_cast<char*>(block.data()), static_cast<std::streamsize>(block.size() * 8)) ||
         in.gcount() > 0) {
    for (size_t i = 0; i < static_cast<size_t>(in.gcount()) / 8; ++i) sum += block[i];
  }
  return sum;
}

inline std::string OwnMemoryCgroupLine() {
  std::ifstream in("/proc/self/cgroup");
  std::string line, all;
  while (std::getline(in, line)) all += line + "\n";
  return all;
}

// Counters read from cgroup files are parsed into a Status, never with a throwing std::stoull.

// Waits for a child; a child stuck at the memory limit (a broken guard) is killed after a minute, so the
// test fails instead of hanging. The bound only catches a hang: nothing here measures time.
inline bool WaitChild(pid_t pid, int* status) {
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

}  // namespace dbxb
