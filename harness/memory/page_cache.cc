#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/memory/memory_files.h"
#include "harness/memory/memory_limit.h"

// The page cache: how much of a file is resident (mincore), and dropping it (fsync + fadvise).
namespace dbxb {
namespace {

using namespace memory_internal;

// Residency of one open file, by mapping it and asking mincore.
Result<uint64_t> ResidentOf(int fd, uint64_t size, const std::string& path) {
  if (size == 0) return uint64_t{0};
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return Status::IOError("mmap " + path + ": " + ErrnoText(errno));
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  int rc = mincore(map, size, vec.data());
  int err = errno;
  munmap(map, size);
  if (rc != 0) return Status::IOError("mincore " + path + ": " + ErrnoText(err));
  uint64_t resident = 0;
  for (size_t i = 0; i < vec.size(); ++i)
    if (vec[i] & 1) resident += std::min(page, size - i * page);
  return resident;
}

template <typename Fn>
Status ForEachFile(const std::string& path, Fn fn) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return fn(path);
  if (!std::filesystem::is_directory(path, ec)) return Status::NotFound(path);
  for (auto it = std::filesystem::recursive_directory_iterator(path, ec); !ec && it != std::filesystem::end(it);
       it.increment(ec)) {
    std::error_code e2;
    if (it->is_regular_file(e2)) DBXB_RETURN_IF_ERROR(fn(it->path().string()));
  }
  // Files may vanish while we walk (an engine deleting a compacted file): not an error.
  return Status::Ok();
}

// True when `file` is `dir` itself or lies under it (both as the kernel names them: absolute paths).
bool Under(const std::string& file, const std::string& dir) {
  if (dir.empty() || file.compare(0, dir.size(), dir) != 0) return false;
  return file.size() == dir.size() || file[dir.size()] == '/' || dir.back() == '/';
}

// The page cache cannot drop a page that a process has mapped, and engines map their files (LMDB's
// map, SQLite's mmap, DBX's segments): whatever a phase read through them would stay cached. This
// unmaps those pages from this process's page tables (madvise MADV_DONTNEED on its shared file
// mappings of files under `dir`), which for a shared mapping changes nothing but residency: the next
// access faults the page back in from the file, and a page written through the mapping stays dirty in
// the page cache until the fsync below. Private mappings are left alone (DONTNEED would discard their
// copies).
void UnmapOwnPages(const std::string& dir) {
  std::error_code ec;
  const std::string root = std::filesystem::weakly_canonical(dir, ec).string();
  if (ec || root.empty()) return;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    // start-end perms offset dev inode path
    std::istringstream in(line);
    std::string range, perms, offset, dev, inode, path;
    if (!(in >> range >> perms >> offset >> dev >> inode) || perms.size() < 4 || perms[3] != 's') continue;
    std::getline(in >> std::ws, path);
    if (!Under(path, root)) continue;
    unsigned long start = 0, end = 0;
    if (std::sscanf(range.c_str(), "%lx-%lx", &start, &end) != 2 || end <= start) continue;
    (void)madvise(reinterpret_cast<void*>(start), end - start, MADV_DONTNEED);
  }
}

}  // namespace

Result<uint64_t> ResidentBytes(const std::string& path) {
  uint64_t total = 0;
  DBXB_RETURN_IF_ERROR(ForEachFile(path, [&](const std::string& file) -> Status {
    int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? Status::Ok() : Status::IOError("open " + file + ": " + ErrnoText(errno));
    struct stat st;
    Result<uint64_t> r = fstat(fd, &st) == 0 ? ResidentOf(fd, static_cast<uint64_t>(st.st_size), file)
                                             : Result<uint64_t>(Status::IOError("fstat " + file));
    close(fd);
    if (!r.ok()) return r.status();
    total += *r;
    return Status::Ok();
  }));
  return total;
}

Result<EvictionStats> EvictFromPageCache(const std::string& dir) {
  EvictionStats stats;
  UnmapOwnPages(dir);
  DBXB_RETURN_IF_ERROR(ForEachFile(dir, [&](const std::string& file) -> Status {
    // Read-write so that fsync may flush dirty pages (DONTNEED drops only clean ones); read-only for
    // files we may not write (fsync on them still works on Linux).
    int fd = open(file.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? Status::Ok() : Status::IOError("open " + file + ": " + ErrnoText(errno));
    struct stat st;
    Status s = fstat(fd, &st) == 0 ? Status::Ok() : Status::IOError("fstat " + file + ": " + ErrnoText(errno));
    const uint64_t size = s.ok() ? static_cast<uint64_t>(st.st_size) : 0;
    if (s.ok()) {
      Result<uint64_t> before = ResidentOf(fd, size, file);
      if (fsync(fd) != 0)
        s = Status::IOError("fsync " + file + ": " + ErrnoText(errno));
      else if (int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        s = Status::IOError("posix_fadvise " + file + ": " + ErrnoText(rc));
      Result<uint64_t> after = ResidentOf(fd, size, file);
      if (s.ok() && !before.ok()) s = before.status();
      if (s.ok() && !after.ok()) s = after.status();
      if (s.ok()) {
        ++stats.files;
        stats.bytes += size;
        stats.resident_before += *before;
        stats.resident_after += *after;
      }
    }
    close(fd);
    return s;
  }));
  return stats;
}

}  // namespace dbxb
