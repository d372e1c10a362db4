#include "harness/resources.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "common/spawn.h"

// Defined by harness/sync_interpose.cc when that file is linked into the executable.
extern "C" uint64_t dbxb_counted_sync_calls() __attribute__((weak));

namespace dbxb {
namespace {

uint64_t TimevalNs(const timeval& tv) {
  return static_cast<uint64_t>(tv.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(tv.tv_usec) * 1000ull;
}

// Reads a small /proc file whole (they are generated on read; one read call suffices for these).
size_t ReadProcFile(const char* path, char* buf, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, size - 1);
  close(fd);
  if (n < 0) n = 0;
  buf[n] = '\0';
  return static_cast<size_t>(n);
}

// The number after "name" at the start of a line of `text`, or 0.
uint64_t Field(const char* text, const char* name) {
  const size_t len = std::strlen(name);
  for (const char* line = text; line != nullptr && *line != '\0';) {
    if (std::strncmp(line, name, len) == 0) return std::strtoull(line + len, nullptr, 10);
    line = std::strchr(line, '\n');
    if (line != nullptr) ++line;
  }
  return 0;
}

}  // namespace

std::optional<uint64_t> CountedSyncCalls() {
  if (dbxb_counted_sync_calls == nullptr) return std::nullopt;
  return dbxb_counted_sync_calls();
}

ResourceSnapshot ReadResourceSnapshot() {
  ResourceSnapshot s;
  s.sync_calls = CountedSyncCalls();
  rusage ru{};
  if (getrusage(RUSAGE_SELF, &ru) == 0) {
    s.cpu_user_ns = TimevalNs(ru.ru_utime);
    s.cpu_sys_ns = TimevalNs(ru.ru_stime);
  }
  char buf[4096];
  if (ReadProcFile("/proc/self/io", buf, sizeof buf) > 0) {
    const ProcessUsage reaped = ReapedChildrenUsage();
    auto own = [](uint64_t all, uint64_t children) { return all > children ? all - children : 0; };
    s.rchar = own(Field(buf, "rchar:"), reaped.rchar);
    s.wchar = own(Field(buf, "wchar:"), reaped.wchar);
    s.io_read_bytes = own(Field(buf, "read_bytes:"), reaped.io_read_bytes);
    s.io_write_bytes = own(Field(buf, "write_bytes:"), reaped.io_write_bytes);
  }
  if (ReadProcFile("/proc/self/status", buf, sizeof buf) > 0) {
    s.max_rss_bytes = Field(buf, "VmHWM:") * 1024;
    s.anon_rss_bytes = Field(buf, "RssAnon:") * 1024;
  }
  return s;
}

bool ResetPeakRss() {
  int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, "5", 1) == 1;
  close(fd);
  return ok;
}

ResourceUsage MakeResourceUsage(const ResourceSnapshot& spent, bool peak_since_span_start, uint64_t operations,
                                const WriteTally& written, uint64_t disk_bytes, uint64_t live_logical_bytes,
                                const std::optional<ServerResourceUsage>& server) {
  ResourceUsage u;
  u.operations = operations;
  u.server = server;
  const ServerResourceUsage none;
  const ServerResourceUsage& sv = server ? *server : none;
  u.cpu_user_ns = spent.cpu_user_ns + sv.cpu_user_ns;
  u.cpu_sys_ns = spent.cpu_sys_ns + sv.cpu_sys_ns;
  u.io_read_bytes = spent.io_read_bytes + sv.io_read_bytes;
  u.io_write_bytes = spent.io_write_bytes + sv.io_write_bytes;
  u.rchar = spent.rchar + sv.rchar;
  u.wchar = spent.wchar + sv.wchar;
  u.fsync_calls = spent.sync_calls;
  if (server)
    u.fsync_calls = spent.sync_calls && sv.fsync_calls ? std::optional<uint64_t>(*spent.sync_calls + *sv.fsync_calls)
                                                       : std::nullopt;
  const double ops = static_cast<double>(operations);
  if (operations > 0) {
    u.cpu_ns_per_op = static_cast<double>(u.cpu_user_ns + u.cpu_sys_ns) / ops;
    u.io_write_bytes_per_op = static_cast<double>(u.io_write_bytes) / ops;
  }
  u.max_rss_bytes = spent.max_rss_bytes;
  u.max_rss_scope = peak_since_span_start ? "span" : "process";
  u.anon_rss_bytes = spent.anon_rss_bytes;
  u.commits = written.commits;
  if (u.fsync_calls && written.commits > 0)
    u.fsyncs_per_commit = static_cast<double>(*u.fsync_calls) / static_cast<double>(written.commits);
  u.logical_bytes = written.logical_bytes;
  if (written.logical_bytes > 0)
    u.write_amplification = static_cast<double>(u.io_write_bytes) / static_cast<double>(written.logical_bytes);
  SetSpace(disk_bytes, live_logical_bytes, &u);
  return u;
}

void SetSpace(uint64_t disk_bytes, uint64_t live_logical_bytes, ResourceUsage* usage) {
  usage->disk_bytes = disk_bytes;
  usage->live_logical_bytes = live_logical_bytes;
  usage->space_amplification.reset();
  if (live_logical_bytes > 0)
    usage->space_amplification = static_cast<double>(disk_bytes) / static_cast<double>(live_logical_bytes);
}

void ResourceMeter::BeginSpan() {
  spent_ = ResourceSnapshot{};
  spent_.sync_calls = CountedSyncCalls() ? std::optional<uint64_t>(0) : std::nullopt;
  peak_reset_ = ResetPeakRss();
  server_spent_.reset();
}

void ResourceMeter::StartStretch() {
  servers_at_start_ = ReadServerTotals(false);
  at_start_ = ReadResourceSnapshot();
}

std::optional<ServerResourceUsage> ServerSpent(const ServerTotals& start, const ServerTotals& end) {
  if (start.running == 0 && end.running == 0 && start.servers_started == end.servers_started) return std::nullopt;
  ServerResourceUsage s;
  const ProcessUsage d = Minus(end.usage.processes, start.usage.processes);
  s.cpu_user_ns = d.cpu_user_ns;
  s.cpu_sys_ns = d.cpu_sys_ns;
  s.io_read_bytes = d.io_read_bytes;
  s.io_write_bytes = d.io_write_bytes;
  s.rchar = d.rchar;
  s.wchar = d.wchar;
  s.pss_bytes = end.usage.pss_bytes;
  const bool counted =
      start.uncounted_running == 0 && end.uncounted_running == 0 && start.uncounted_stopped == end.uncounted_stopped;
  if (counted && end.usage.sync_calls)
    s.fsync_calls = *end.usage.sync_calls - std::min(*end.usage.sync_calls, start.usage.sync_calls.value_or(0));
  if (end.usage.wal_bytes && (start.usage.wal_bytes || start.servers_started == 0))
    s.wal_bytes = *end.usage.wal_bytes - std::min(*end.usage.wal_bytes, start.usage.wal_bytes.value_or(0));
  return s;
}

// A stretch's server figures added to the span's: sums, the larger PSS, and a count absent once absent.
void ResourceMeter::AddServerStretch(const ServerTotals& end) {
  const std::optional<ServerResourceUsage> d = ServerSpent(servers_at_start_, end);
  if (!d) return;
  if (!server_spent_) {
    server_spent_ = d;
    return;
  }
  ServerResourceUsage& sv = *server_spent_;
  sv.cpu_user_ns += d->cpu_user_ns;
  sv.cpu_sys_ns += d->cpu_sys_ns;
  sv.io_read_bytes += d->io_read_bytes;
  sv.io_write_bytes += d->io_write_bytes;
  sv.rchar += d->rchar;
  sv.wchar += d->wchar;
  sv.pss_bytes = std::max(sv.pss_bytes, d->pss_bytes);
  sv.fsync_calls =
      sv.fsync_calls && d->fsync_calls ? std::optional<uint64_t>(*sv.fsync_calls + *d->fsync_calls) : std::nullopt;
  sv.wal_bytes = sv.wal_bytes && d->wal_bytes ? std::optional<uint64_t>(*sv.wal_bytes + *d->wal_bytes) : std::nullopt;
}

void ResourceMeter::StopStretch() {
  const ResourceSnapshot now = ReadResourceSnapshot();
  spent_.cpu_user_ns += now.cpu_user_ns - at_start_.cpu_user_ns;
  spent_.cpu_sys_ns += now.cpu_sys_ns - at_start_.cpu_sys_ns;
  spent_.io_read_bytes += now.io_read_bytes - at_start_.io_read_bytes;
  spent_.io_write_bytes += now.io_write_bytes - at_start_.io_write_bytes;
  spent_.rchar += now.rchar - at_start_.rchar;
  spent_.wchar += now.wchar - at_start_.wchar;
  if (spent_.sync_calls && now.sync_calls && at_start_.sync_calls)
    *spent_.sync_calls += *now.sync_calls - *at_start_.sync_calls;
  spent_.max_rss_bytes = now.max_rss_bytes;
  spent_.anon_rss_bytes = now.anon_rss_bytes;
  AddServerStretch(ReadServerTotals(true));
}

ResourceUsage ResourceMeter::Finish(uint64_t operations, const WriteTally& written, uint64_t disk_bytes,
                                    uint64_t live_logical_bytes) const {
  return MakeResourceUsage(spent_, peak_reset_, operations, written, disk_bytes, live_logical_bytes, server_spent_);
}

}  // namespace dbxb
