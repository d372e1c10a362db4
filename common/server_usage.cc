#include "common/server_usage.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace dbxb {
namespace {

struct Registry {
  std::mutex mu;
  std::vector<ServerProbe*> running;  // GUARDED_BY(mu)
  ServerTotals retired;               // GUARDED_BY(mu): stopped servers; running is unused
};

Registry& TheRegistry() {
  static Registry* r = new Registry;  // never destroyed: servers may stop during exit
  return *r;
}

// Adds `from` to `to`; returns false when its sync calls were not counted.
bool Add(const ServerUsage& from, ServerUsage* to) {
  to->processes += from.processes;
  to->pss_bytes += from.pss_bytes;
  if (from.wal_bytes) to->wal_bytes = to->wal_bytes.value_or(0) + *from.wal_bytes;
  if (!from.sync_calls) return false;
  to->sync_calls = to->sync_calls.value_or(0) + *from.sync_calls;
  return true;
}

}  // namespace

void RegisterServer(ServerProbe* probe) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.running.push_back(probe);
  ++r.retired.servers_started;
}

void RetireServer(ServerProbe* probe, const ServerUsage& final_usage) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = std::find(r.running.begin(), r.running.end(), probe);
  if (it == r.running.end()) return;
  r.running.erase(it);
  ServerUsage ended = final_usage;
  ended.pss_bytes = 0;
  if (!Add(ended, &r.retired.usage)) ++r.retired.uncounted_stopped;
}

ServerTotals ReadServerTotals(bool with_pss) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  ServerTotals t = r.retired;
  for (ServerProbe* probe : r.running) {
    if (!Add(probe->Read(with_pss), &t.usage)) ++t.uncounted_running;
    ++t.running;
  }
  return t;
}

}  // namespace dbxb
