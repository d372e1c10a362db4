#include "harness/instructions.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "common/interrupt.h"
#include "common/orphan_guard.h"
#include "common/owned_dir.h"
#include "common/sanitized_build.h"
#include "common/spawn.h"

extern char** environ;

namespace dbxb {
namespace {

namespace fs = std::filesystem;

constexpr int kInterruptedExitCode = 128 + SIGINT;  // as a run the user interrupted exits

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

// The directories of the dumps, in the temporary directory (common/owned_dir.h).
constexpr char kDirPrefix[] = "dbx-bench-callgrind-";

void RemoveDir(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

// The program `name` in $PATH, or "".
std::string FindInPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (size_t begin = 0; begin <= dirs.size();) {
    size_t end = std::min(dirs.find(':', begin), dirs.size());
    const std::string candidate = (end > begin ? dirs.substr(begin, end - begin) : ".") + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    begin = end + 1;
  }
  return "";
}

// This process's environment with `set` added or replacing.
std::vector<std::string> ChildEnvironment(const std::map<std::string, std::string>& set) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (set.count(entry.substr(0, entry.find('='))) == 0) env.push_back(entry);
  }
  for (const auto& [key, value] : set) env.push_back(key + "=" + value);
  return env;
}

// Waits for the child, passing it a Ctrl-C, SIGTERM or SIGHUP this process gets (as SIGTERM, once: it stops
// as a run does, writing what finished). 130 once interrupted, whatever the child's code.
Result<int> WaitForwardingInterrupt(pid_t pid) {
  bool forwarded = false;
  for (;;) {
    Result<std::optional<ChildExit>> ended = WaitChild(pid, std::chrono::milliseconds(100));
    if (!ended.ok()) return ended.status();
    if (ended->has_value()) return forwarded ? kInterruptedExitCode : (*ended)->code;
    if (InterruptRequested() && !forwarded) forwarded = kill(pid, SIGTERM) == 0;
  }
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
  const std::string valgrind = FindInPath("valgrind");
  if (version.empty() || valgrind.empty())
    return Status::InvalidArgument("--measure instructions: valgrind is not installed (Debian's package valgrind)");
  auto tmp = TempDirectory();
  if (!tmp.ok()) return tmp.status();
  RemoveAbandonedDirs(*tmp, kDirPrefix);  // what a run killed together with its guard left
  auto guard = OrphanGuard::Start({});    // before the directory, which is never there unguarded
  if (!guard.ok()) return guard.status();
  auto dir = CreateOwnedDir(*tmp, kDirPrefix);
  if (!dir.ok()) return Status::IOError("cannot create a directory for callgrind: " + dir.status().message());
  if (Status added = (*guard)->Add(*dir); !added.ok()) {
    RemoveDir(*dir);
    return added;
  }
  const std::string out = *dir + "/callgrind.out";
  SpawnOptions o;
  // No gdbserver: its FIFOs in the temporary directory would outlive a killed valgrind.
  o.argv = {valgrind,
            "--tool=callgrind",
            "--instr-atstart=no",
            "--collect-atstart=no",
            "--separate-threads=yes",
            "--vgdb=no",
            "-q",
            "--callgrind-out-file=" + out,
            SelfPath()};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = ChildEnvironment({{kOutEnv, out}, {kVersionEnv, version}});
  o.inherit_stdio = true;
  o.parent_death_signal = SIGKILL;  // however this process ends, the run it started ends with it
  Result<pid_t> pid = Spawn(o);
  Result<int> code = pid.ok() ? WaitForwardingInterrupt(*pid) : Result<int>(pid.status().WithContext("valgrind"));
  RemoveDir(*dir);
  (*guard)->Dismiss();
  return code;
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
