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

Status AtomicFileWriter::Open(const std::string& path) {
  if (path.empty() || path.back() == '/')
    return Status::InvalidArgument("AtomicFileWriter: no file name in '" + path + "'");
  path_ = path;
  error_ = Status::Ok();
  for (int attempt = 0; attempt < 8 && fd_ < 0; ++attempt) {
    tmp_ = TempPathFor(path);
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && errno != EEXIST) {
      Status st = Errno("create temporary file", tmp_, errno);
      tmp_.clear();
      return st;
    }
  }
  if (fd_ < 0) {
    Status st = Errno("create temporary file", tmp_, EEXIST);
    tmp_.clear();
    return st;
  }
  return Status::Ok();
}

Status AtomicFileWriter::Append(std::string_view data) {
  if (!error_.ok()) return error_;
  error_ = WriteAll(fd_, data, tmp_);
  return error_;
}

Status AtomicFileWriter::Commit() {
  Status s = error_;
  if (s.ok() && ::fsync(fd_) != 0) s = Errno("fsync", tmp_, errno);
  if (::close(fd_) != 0 && s.ok()) s = Errno("close", tmp_, errno);
  fd_ = -1;
  if (s.ok() && ::rename(tmp_.c_str(), path_.c_str()) != 0) s = Errno("rename over", path_, errno);
  if (!s.ok()) {
    Discard();
    return s;
  }
  tmp_.clear();
  Status dir = FsyncDirectory(DirectoryOf(path_));
  if (!dir.ok()) return dir.WithContext(path_ + " was written, but the rename may not be durable");
  return Status::Ok();
}

void AtomicFileWriter::Discard() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

Status WriteFileAtomically(const std::string& path, std::string_view contents) {
  AtomicFileWriter file;
  DBXB_RETURN_IF_ERROR(file.Open(path));
  DBXB_RETURN_IF_ERROR(file.Append(contents));
  return file.Commit();
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
