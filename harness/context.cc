#include "harness/context.h"

#include <fmt/format.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <thread>

#include "build_info.h"

namespace dbxb {
namespace {

// The first line of /proc/<file> starting with `key`, value after the colon, trimmed.
std::string ProcField(const char* file, std::string_view key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto start = line.find_first_not_of(" \t", colon + 1);
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "unknown";
}

std::string UtcNow() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string Compiler() {
#if defined(__clang__)
  return fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

}  // namespace

std::string ToolVersion() {
  std::string commit = DBXB_GIT_COMMIT;
  return fmt::format("{} ({}{})", DBXB_VERSION, commit.substr(0, 12), DBXB_GIT_DIRTY ? ", dirty" : "");
}

void CollectMachineAndBuild(RunContext* ctx) {
  ctx->date_utc = UtcNow();
  char host[256] = {0};
  ctx->host_name = gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
  ctx->cpu_model = ProcField("/proc/cpuinfo", "model name");
  ctx->num_cpus = std::thread::hardware_concurrency();
  std::string mhz = ProcField("/proc/cpuinfo", "cpu MHz");
  ctx->cpu_mhz = mhz == "unknown" ? 0 : static_cast<uint64_t>(std::strtod(mhz.c_str(), nullptr) + 0.5);
  // As Google Benchmark decides it: a governor other than "performance" means frequency scaling.
  std::ifstream governor("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
  std::string gov;
  ctx->cpu_scaling_enabled = governor >> gov && gov != "performance";
  double load[3];
  if (getloadavg(load, 3) == 3) ctx->load_avg.assign(load, load + 3);
  std::string mem = ProcField("/proc/meminfo", "MemTotal");  // "24576000 kB"
  ctx->memory_bytes = mem == "unknown" ? 0 : std::strtoull(mem.c_str(), nullptr, 10) * 1024;
  struct utsname u {};
  ctx->kernel = uname(&u) == 0 ? fmt::format("{} {} {}", u.sysname, u.release, u.machine) : "unknown";
  ctx->compiler = Compiler();
  ctx->compiler_flags = DBXB_BUILD_FLAGS;
  ctx->build_type = DBXB_BUILD_TYPE;
  ctx->git_commit = DBXB_GIT_COMMIT;
  ctx->git_dirty = DBXB_GIT_DIRTY;
  ctx->tool_version = ToolVersion();
}

LibraryInfo DescribeLibrary(const AdapterFactory& engine) {
  return LibraryInfo{engine.name,           engine.library_version(), engine.library_build(),
                     engine.library_source, engine.library_flags,     engine.library_release_date};
}

std::string FileSystemType(const std::string& path) {
  struct statfs fs {};
  if (statfs(path.c_str(), &fs) != 0) return "unknown";
  switch (static_cast<unsigned long>(fs.f_type)) {
    case 0xEF53:
      return "ext4";
    case 0x01021994:
      return "tmpfs";
    case 0x794c7630:
      return "overlay";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    default:
      return fmt::format("0x{:x}", static_cast<unsigned long>(fs.f_type));
  }
}

}  // namespace dbxb
