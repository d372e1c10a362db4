#include "harness/instructions.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/sanitized_build.h"

extern char** environ;

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// Set by RunSelfUnderCallgrind for the child: where callgrind writes its dumps, and the valgrind version.
constexpr char kOutEnv[] = "DBXB_CALLGRIND_OUT";
constexpr char kVersionEnv[] = "DBXB_VALGRIND_VERSION";

int g_dumps = 0;  // dumps written by this process: callgrind numbers its dump files 1, 2, ...

// "summary: N" of a callgrind dump file.
Result<uint64_t> SummaryOf(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError(fmt::format("cannot read the callgrind dump {}", path));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("summary:", 0) == 0) return static_cast<uint64_t>(std::strtoull(line.c_str() + 8, nullptr, 10));
  }
  return Status::IOError(fmt::format("the callgrind dump {} has no summary line", path));
}

std::string SelfPath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : self.string();
}

}  // namespace

bool UnderCallgrind() { return RUNNING_ON_VALGRIND && std::getenv(kOutEnv) != nullptr; }

std::string ValgrindVersion() {
  if (const char* v = std::getenv(kVersionEnv)) return v;
  FILE* p = popen("valgrind --version 2>/dev/null", "r");
  if (p == nullptr) return "";
  char buf[128] = {};
  const bool read = std::fgets(buf, sizeof buf, p) != nullptr;
  pclose(p);
  std::string v = read ? buf : "";
  while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
  return v.rfind("valgrind-", 0) == 0 ? v : "";
}

Result<int> RunSelfUnderCallgrind(const std::vector<std::string>& args) {
#ifdef DBXB_SANITIZED_BUILD
  return Status::InvalidArgument(
      "--measure instructions: this dbx-bench is built with a sanitizer (DBXB_SANITIZE), whose runtime valgrind "
      "cannot run; count instructions with a Release build");
#endif
  const std::string version = ValgrindVersion();
  if (version.empty())
    return Status::InvalidArgument("--measure instructions: valgrind is not installed (Debian's package valgrind)");
  std::string dir = (fs::temp_directory_path() / "dbx-bench-callgrind-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr)
    return Status::IOError(fmt::format("cannot create a directory for callgrind: {}", std::strerror(errno)));
  const std::string out = dir + "/callgrind.out";
  std::vector<std::string> argv = {"valgrind",
                                   "--tool=callgrind",
                                   "--instr-atstart=no",
                                   "--collect-atstart=no",
                                   "--separate-threads=yes",
                                   "-q",
                                   "--callgrind-out-file=" + out,
                                   SelfPath()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  setenv(kOutEnv, out.c_str(), 1);
  setenv(kVersionEnv, version.c_str(), 1);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "valgrind", nullptr, nullptr, cargv.data(), environ);
  int status = 0;
  while (rc == 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (rc != 0) return Status::IOError(fmt::format("cannot start valgrind: {}", std::strerror(rc)));
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

void InstructionCounter::Start() {
  CALLGRIND_START_INSTRUMENTATION;
  CALLGRIND_ZERO_STATS;
}

// The run times are read outside the collected stretch: reading /proc is not the benchmark's work.
void InstructionCounter::Resume() {
  at_resume_ = ReadThreadRunTimes();
  CALLGRIND_TOGGLE_COLLECT;
}

void InstructionCounter::Pause() {
  CALLGRIND_TOGGLE_COLLECT;
  const ThreadRunTimes now = ReadThreadRunTimes();
  self_ns_ += now.self - std::min(now.self, at_resume_.self);
  others_ns_ += OtherThreadsRanNs(at_resume_, now);
}

Result<uint64_t> InstructionCounter::Finish(const std::string& name) {
  CALLGRIND_DUMP_STATS_AT(name.c_str());
  CALLGRIND_STOP_INSTRUMENTATION;
  const char* base = std::getenv(kOutEnv);
  if (!UnderCallgrind() || base == nullptr) return Status::IOError("not running under callgrind");
  if (syscall(SYS_gettid) != getpid()) return Status::IOError("the counting thread is not the main thread");
  ++g_dumps;
  // The dump's files are <base>.<dump>-<thread>: the calling (main) thread's is 01.
  auto total = SummaryOf(fmt::format("{}.{}-01", base, g_dumps));
  std::error_code ec;
  const fs::path dir = fs::path(base).parent_path();
  const std::string prefix = fmt::format("{}.{}-", fs::path(base).filename().string(), g_dumps);
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().rfind(prefix, 0) == 0) fs::remove(entry.path(), ec);
  return total;
}

ThreadRunTimes ReadThreadRunTimes() {
  const long self = syscall(SYS_gettid);
  ThreadRunTimes times;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc/self/task", ec)) {
    const long tid = std::strtol(entry.path().filename().c_str(), nullptr, 10);
    std::ifstream in(entry.path() / "schedstat");
    uint64_t run_ns = 0;
    if (!(in >> run_ns)) continue;
    if (tid == self)
      times.self = run_ns;
    else
      times.others[tid] = run_ns;
  }
  return times;
}

uint64_t OtherThreadsRanNs(const ThreadRunTimes& before, const ThreadRunTimes& after) {
  uint64_t ran = 0;
  for (const auto& [tid, ns] : after.others) {
    auto it = before.others.find(tid);
    ran += it == before.others.end() ? ns : ns - std::min(ns, it->second);
  }
  return ran;
}

}  // namespace dbxb
