// Counts the calls that force data to stable storage, by interposing libc's fsync, fdatasync, msync
// and sync_file_range. Linked into the dbx-bench executable (and the tests that count syncs): the
// engines Debian ships are shared libraries, which resolve these symbols through the executable
// first, and DBX is linked in statically. Each call costs one relaxed atomic increment before the real
// libc function runs; harness/resources.h reads the count at sample and phase boundaries.
//
// Counted: fsync, fdatasync, msync with MS_SYNC, sync_file_range with SYNC_FILE_RANGE_WAIT_BEFORE or
// _WAIT_AFTER (without a wait flag it only starts writeback). Not counted: writes to files opened with
// O_SYNC / O_DSYNC, and syncs libc makes internally.
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace {

std::atomic<uint64_t> g_sync_calls{0};

inline void CountSync() { g_sync_calls.fetch_add(1, std::memory_order_relaxed); }

// The next definition of `name` after this executable's: libc's. Looked up once per symbol.
template <class Fn>
Fn Next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

uint64_t dbxb_counted_sync_calls() { return g_sync_calls.load(std::memory_order_relaxed); }

int fsync(int fd) {
  static const auto real = Next<int (*)(int)>("fsync");
  CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd);
}

int fdatasync(int fd) {
  static const auto real = Next<int (*)(int)>("fdatasync");
  CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd);
}

int msync(void* addr, size_t length, int flags) {
  static const auto real = Next<int (*)(void*, size_t, int)>("msync");
  if (flags & MS_SYNC) CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(addr, length, flags);
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
  static const auto real = Next<int (*)(int, off64_t, off64_t, unsigned int)>("sync_file_range");
  if (flags & (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER)) CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd, offset, nbytes, flags);
}

}  // extern "C"
