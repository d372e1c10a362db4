#include "common/sync/server_sync_counter.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "common/sync/sync_counter_file.h"

// The built sync_preload library (cmake/embed_file.cmake).
extern const unsigned char kSyncPreloadImage[];
extern const std::size_t kSyncPreloadImageSize;

namespace dbxb {
namespace {

Status WriteWhole(const std::string& path, const void* bytes, size_t size, mode_t mode,
                  std::optional<std::pair<uid_t, gid_t>> owner) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) return Status::IOError("cannot create " + path + ": " + std::strerror(errno));
  const char* p = static_cast<const char*>(bytes);
  for (size_t done = 0; done < size;) {
    ssize_t n = write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      close(fd);
      return Status::IOError("cannot write " + path + ": " + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  const bool chowned = !owner || fchown(fd, owner->first, owner->second) == 0;
  const bool chmoded = fchmod(fd, mode) == 0;  // the umask may have narrowed it
  close(fd);
  if (!chowned || !chmoded) return Status::IOError("cannot set the owner of " + path + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<ServerSyncCounter>> ServerSyncCounter::Create(const std::string& dir,
                                                                     std::optional<std::pair<uid_t, gid_t>> owner) {
  std::unique_ptr<ServerSyncCounter> c(new ServerSyncCounter());
  c->library_path_ = dir + "/dbx-bench-sync-count.so";
  c->counter_path_ = dir + "/dbx-bench-sync-count";
  DBXB_RETURN_IF_ERROR(WriteWhole(c->library_path_, kSyncPreloadImage, kSyncPreloadImageSize, 0755, owner));
  const dbxb_sync::CounterWords zero{};
  DBXB_RETURN_IF_ERROR(WriteWhole(c->counter_path_, &zero, sizeof zero, 0600, owner));
  int fd = open(c->counter_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open " + c->counter_path_ + ": " + std::strerror(errno));
  void* map = mmap(nullptr, sizeof(dbxb_sync::CounterWords), PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return Status::IOError("cannot map " + c->counter_path_ + ": " + std::strerror(errno));
  c->map_ = map;
  return c;
}

ServerSyncCounter::~ServerSyncCounter() {
  if (map_ != nullptr) munmap(map_, sizeof(dbxb_sync::CounterWords));
}

std::vector<std::string> ServerSyncCounter::Environment() const {
  return {"LD_PRELOAD=" + library_path_, std::string(dbxb_sync::kCounterFileVariable) + "=" + counter_path_};
}

std::optional<uint64_t> ServerSyncCounter::Read() const {
  auto* words = static_cast<dbxb_sync::CounterWords*>(map_);
  if (__atomic_load_n(&words->loaded, __ATOMIC_RELAXED) == 0) return std::nullopt;
  return __atomic_load_n(&words->sync_calls, __ATOMIC_RELAXED);
}

}  // namespace dbxb
