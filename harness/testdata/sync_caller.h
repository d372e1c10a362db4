// A shared library for resources_test: it writes and syncs through its own calls into libc, as a
// Debian-packaged engine does, so the test shows that the executable's interposition sees them.
#pragma once

#include <cstddef>

extern "C" {
/// Appends `bytes` zero bytes to `path` with write(2) and then, per `syncs`, cycles through fsync,
/// fdatasync, msync(MS_SYNC) of a 4 KiB mapping and sync_file_range with a wait flag: exactly `syncs`
/// counted calls. Also makes one msync(MS_ASYNC) and one sync_file_range(WRITE) (never counted).
/// Returns 0, or -1 when a call failed.
int dbxb_test_write_and_sync(const char* path, size_t bytes, int syncs);
}
