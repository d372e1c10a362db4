#include "common/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace dbxb {
namespace {

Status Errno(std::string_view step, const std::string& path, int err) {
  return Status::IOError(fmt::format("{}: {}: {}", path, step, std::strerror(err)));
}

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseNameOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A name no other writer uses: pid and a process-wide counter. O_EXCL guards against leftovers
// from a crashed earlier process that had the same pid.
std::string TempPathFor(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  std::string dir = DirectoryOf(path);
  std::string prefix = dir == "/" ? "/" : dir + "/";
  return fmt::format("{}.{}.tmp.{}.{}", prefix, BaseNameOf(path), ::getpid(), counter.fetch_add(1));
}

Status WriteAll(int fd, std::string_view contents, const std::string& tmp) {
  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("write", tmp, errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status FsyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("open directory", dir, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return Errno("fsync directory", dir, err);
  return Status::Ok();
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  if (path.empty() || path.back() == '/')
    return Status::InvalidArgument("WriteFileAtomically: no file name in '" + path + "'");
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
    tmp = TempPathFor(path);
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) return Errno("create temporary file", tmp, errno);
  }
  if (fd < 0) return Errno("create temporary file", tmp, EEXIST);

  Status s = WriteAll(fd, contents, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = Errno("fsync", tmp, errno);
  if (::close(fd) != 0 && s.ok()) s = Errno("close", tmp, errno);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) s = Errno("rename over", path, errno);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  Status dir = FsyncDirectory(DirectoryOf(path));
  if (!dir.ok()) return dir.WithContext(path + " was written, but the rename may not be durable");
  return Status::Ok();
}

Status ReadFileToString(const std::string& path, std::string* contents) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno("open", path, errno);
  std::string data;
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Errno("read", path, err);
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  *contents = std::move(data);
  return Status::Ok();
}

}  // namespace dbxb
