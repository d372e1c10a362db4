// Counts the calls that force data to stable storage (common/sync/sync_interposers.h) in the dbx-bench
// executable (and the tests that count syncs): the engines Debian ships are shared libraries, which
// resolve these symbols through the executable first, and DBX is linked in statically. Each call costs
// one relaxed atomic increment before the real libc function runs; harness/resources.h reads the count
// at sample and phase boundaries. A server the tool starts counts its own through a preloaded library
// (common/sync/sync_preload.cc).
#include <atomic>
#include <cstdint>

#include "common/sync/sync_interposers.h"

namespace {
std::atomic<uint64_t> g_sync_calls{0};
}  // namespace

void dbxb_sync::CountSync() { g_sync_calls.fetch_add(1, std::memory_order_relaxed); }

extern "C" uint64_t dbxb_counted_sync_calls() { return g_sync_calls.load(std::memory_order_relaxed); }
