// The sync counter of a server the tool starts (a PostgreSQL postmaster and every process it forks):
// preloaded into the server (LD_PRELOAD), it counts the calls of common/sync/sync_interposers.h in the
// file named by the environment variable DBXB_SYNC_COUNTER_FILE, which the tool creates and reads
// (common/sync/sync_counter_file.h). The file is mapped shared when the library loads, so the processes
// the server forks count into the same word. Built without sanitizers and without C++ runtime calls, so
// that it loads into any program; the tool carries it inside itself (sync_preload_image.h).
#include <stdlib.h>

#include "common/sync/sync_counter_file.h"
#include "common/sync/sync_interposers.h"

namespace {

dbxb_sync::CounterWords* g_words = nullptr;

__attribute__((constructor)) void MapCounterFile() {
  const char* path = getenv(dbxb_sync::kCounterFileVariable);
  if (path == nullptr) return;
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return;
  void* map = mmap(nullptr, sizeof(dbxb_sync::CounterWords), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return;
  g_words = static_cast<dbxb_sync::CounterWords*>(map);
  __atomic_fetch_add(&g_words->loaded, 1, __ATOMIC_RELAXED);
}

}  // namespace

void dbxb_sync::CountSync() {
  if (g_words != nullptr) __atomic_fetch_add(&g_words->sync_calls, 1, __ATOMIC_RELAXED);
}
