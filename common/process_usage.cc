#include "common/process_usage.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace dbxb {
namespace {

// Reads a small /proc file whole into `out`; false when it cannot be opened or read.
bool ReadSmallFile(const std::string& path, std::string* out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out->clear();
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) {
      close(fd);
      return false;
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return true;
}

// The number after "name" at the start of a line of `text`, or nullopt.
std::optional<uint64_t> LineField(const std::string& text, const char* name) {
  const size_t len = std::strlen(name);
  for (size_t at = 0; at < text.size();) {
    if (text.compare(at, len, name) == 0) return std::strtoull(text.c_str() + at + len, nullptr, 10);
    const size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return std::nullopt;
}

// The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses):
// fields[0] is field 3 (state). False when unreadable.
bool StatFields(pid_t pid, std::vector<uint64_t>* fields) {
  std::string text;
  if (!ReadSmallFile("/proc/" + std::to_string(pid) + "/stat", &text)) return false;
  const size_t close_paren = text.rfind(')');
  if (close_paren == std::string::npos) return false;
  fields->clear();
  const char* p = text.c_str() + close_paren + 2;
  fields->push_back(0);  // the state letter
  while (*p != '\0' && *p != ' ') ++p;
  while (*p == ' ') {
    ++p;
    char* end = nullptr;
    fields->push_back(std::strtoull(p, &end, 10));
    if (end == p) break;
    p = end;
  }
  return fields->size() > 20;
}

uint64_t TicksToNs(uint64_t ticks) {
  static const long hz = sysconf(_SC_CLK_TCK);
  return ticks * (1'000'000'000ull / static_cast<uint64_t>(hz > 0 ? hz : 100));
}

}  // namespace

ProcessUsage& ProcessUsage::operator+=(const ProcessUsage& o) {
  cpu_user_ns += o.cpu_user_ns;
  cpu_sys_ns += o.cpu_sys_ns;
  io_read_bytes += o.io_read_bytes;
  io_write_bytes += o.io_write_bytes;
  rchar += o.rchar;
  wchar += o.wchar;
  return *this;
}

ProcessUsage Minus(const ProcessUsage& a, const ProcessUsage& b) {
  auto sub = [](uint64_t x, uint64_t y) { return x > y ? x - y : 0; };
  ProcessUsage d;
  d.cpu_user_ns = sub(a.cpu_user_ns, b.cpu_user_ns);
  d.cpu_sys_ns = sub(a.cpu_sys_ns, b.cpu_sys_ns);
  d.io_read_bytes = sub(a.io_read_bytes, b.io_read_bytes);
  d.io_write_bytes = sub(a.io_write_bytes, b.io_write_bytes);
  d.rchar = sub(a.rchar, b.rchar);
  d.wchar = sub(a.wchar, b.wchar);
  return d;
}

std::optional<ProcessUsage> ReadProcessUsage(pid_t pid, bool with_reaped_children) {
  std::vector<uint64_t> f;
  if (!StatFields(pid, &f)) return std::nullopt;
  // fields[i] is stat field i + 3: utime 14, stime 15, cutime 16, cstime 17.
  ProcessUsage u;
  u.cpu_user_ns = TicksToNs(f[11] + (with_reaped_children ? f[13] : 0));
  u.cpu_sys_ns = TicksToNs(f[12] + (with_reaped_children ? f[14] : 0));
  // /proc/<pid>/io always includes reaped children; a process without them has nothing to add.
  std::string io;
  if (!ReadSmallFile("/proc/" + std::to_string(pid) + "/io", &io)) return std::nullopt;
  u.rchar = LineField(io, "rchar:").value_or(0);
  u.wchar = LineField(io, "wchar:").value_or(0);
  u.io_read_bytes = LineField(io, "read_bytes:").value_or(0);
  u.io_write_bytes = LineField(io, "write_bytes:").value_or(0);
  return u;
}

uint64_t ReadPssBytes(pid_t pid) {
  std::string text;
  if (!ReadSmallFile("/proc/" + std::to_string(pid) + "/smaps_rollup", &text)) return 0;
  return LineField(text, "Pss:").value_or(0) * 1024;
}

std::vector<pid_t> ChildrenOf(pid_t pid) {
  std::vector<pid_t> out;
  const std::string task_dir = "/proc/" + std::to_string(pid) + "/task";
  DIR* tasks = opendir(task_dir.c_str());
  if (tasks == nullptr) return out;
  bool have_children_files = false;
  while (const dirent* t = readdir(tasks)) {
    if (t->d_name[0] == '.') continue;
    std::string list;
    if (!ReadSmallFile(task_dir + "/" + t->d_name + "/children", &list)) continue;
    have_children_files = true;
    for (const char* p = list.c_str(); *p != '\0';) {
      char* end = nullptr;
      const long child = std::strtol(p, &end, 10);
      if (end == p) break;
      out.push_back(static_cast<pid_t>(child));
      p = end;
    }
  }
  closedir(tasks);
  if (have_children_files) return out;
  // A kernel without CONFIG_PROC_CHILDREN: every process whose parent (stat field 4) is pid.
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return out;
  std::vector<uint64_t> f;
  while (const dirent* e = readdir(proc)) {
    const pid_t other = static_cast<pid_t>(std::atol(e->d_name));
    if (other > 0 && StatFields(other, &f) && f[1] == static_cast<uint64_t>(pid)) out.push_back(other);
  }
  closedir(proc);
  return out;
}

std::optional<uint64_t> ProcessStartTime(pid_t pid) {
  std::vector<uint64_t> f;
  if (!StatFields(pid, &f)) return std::nullopt;
  return f[19];  // field 22
}

}  // namespace dbxb
