// The libc functions that force data to stable storage, interposed so that each call is counted:
// fsync, fdatasync, msync with MS_SYNC, and sync_file_range with SYNC_FILE_RANGE_WAIT_BEFORE or _WAIT_AFTER
// (without a wait flag it only starts writeback). Not counted: writes to files opened with O_SYNC or
// O_DSYNC, and syncs libc makes internally. Each interposer counts, then calls libc's function.
//
// Include this header in exactly one file of a binary, after defining `void dbxb_sync::CountSync()`:
// harness/sync_interpose.cc (the dbx-bench executable: a counter in memory) and common/sync/sync_preload.cc
// (a library preloaded into a server the tool starts: a counter in a file every process of the server maps).
#pragma once

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace dbxb_sync {

void CountSync();

// The next definition of `name` after this binary's: libc's. Looked up once per symbol.
template <class Fn>
Fn Next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace dbxb_sync

extern "C" {

int fsync(int fd) {
  static const auto real = dbxb_sync::Next<int (*)(int)>("fsync");
  dbxb_sync::CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd);
}

int fdatasync(int fd) {
  static const auto real = dbxb_sync::Next<int (*)(int)>("fdatasync");
  dbxb_sync::CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd);
}

int msync(void* addr, size_t length, int flags) {
  static const auto real = dbxb_sync::Next<int (*)(void*, size_t, int)>("msync");
  if (flags & MS_SYNC) dbxb_sync::CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(addr, length, flags);
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int flags) {
  static const auto real = dbxb_sync::Next<int (*)(int, off64_t, off64_t, unsigned int)>("sync_file_range");
  if (flags & (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER)) dbxb_sync::CountSync();
  if (real == nullptr) return errno = ENOSYS, -1;
  return real(fd, offset, nbytes, flags);
}

}  // extern "C"
