#include "harness/testdata/sync_caller.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <vector>

extern "C" int dbxb_test_write_and_sync(const char* path, size_t bytes, int syncs) {
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  std::vector<char> zeros(bytes, 0);
  int rc = 0;
  for (size_t done = 0; done < bytes && rc == 0;) {
    ssize_t n = write(fd, zeros.data() + done, bytes - done);
    if (n <= 0)
      rc = -1;
    else
      done += static_cast<size_t>(n);
  }
  if (rc == 0 && ftruncate(fd, bytes < 4096 ? 4096 : static_cast<off_t>(bytes)) != 0) rc = -1;
  void* map = rc == 0 ? mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  if (map == MAP_FAILED) rc = -1;
  if (rc == 0 && msync(map, 4096, MS_ASYNC) != 0) rc = -1;
  if (rc == 0 && sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0) rc = -1;
  for (int i = 0; i < syncs && rc == 0; ++i) {
    switch (i % 4) {
      case 0:
        rc = fsync(fd);
        break;
      case 1:
        rc = fdatasync(fd);
        break;
      case 2:
        rc = msync(map, 4096, MS_SYNC);
        break;
      case 3:
        rc =
            sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
        break;
    }
  }
  if (map != MAP_FAILED) munmap(map, 4096);
  close(fd);
  return rc == 0 ? 0 : -1;
}
