#include "common/file_policy.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/output_marks.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// "the 256 MiB": a bound in messages (every bound is a whole number of KiB).
std::string Bound(uint64_t max_bytes) {
  if (max_bytes % (1 << 20) == 0) return fmt::format("the {} MiB", max_bytes >> 20);
  return fmt::format("the {} KiB", max_bytes >> 10);
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// "a/b//" -> "a/b" (lstat of "a/b/" would follow a link named b).
std::string WithoutTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string LinkTarget(const std::string& path) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(path, ec);
  return ec ? std::string("?") : target.string();
}

Status NotRegular(const std::string& path, mode_t mode) {
  return Status::InvalidArgument(fmt::format("{}: is {}, not a regular file", path, FileTypeName(mode)));
}

Status ReadAll(int fd, const std::string& path, uint64_t size, uint64_t max_bytes, std::string* contents) {
  std::string data;
  data.reserve(size);
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(fmt::format("{}: read: {}", path, std::strerror(errno)));
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
    if (data.size() > max_bytes)  // it grew while being read
      return Status::InvalidArgument(
          fmt::format("{}: larger than {} this command reads at most", path, Bound(max_bytes)));
  }
  *contents = std::move(data);
  return Status::Ok();
}

// Creating and writing a file beside the target is the first step of every write: a directory that
// refuses it (/proc, a read-only file system, no permission, a full disk) is known before anything
// runs or is printed.
Status ProbeDirectory(std::string_view option, const std::string& dir) {
  if (const int err = WriteProbeFile(dir, kOutputProbeBytes); err != 0)
    return Status::InvalidArgument(fmt::format("{}: cannot write into '{}': {}", option, dir, std::strerror(err)));
  return Status::Ok();
}

}  // namespace

int WriteProbeFile(const std::string& dir, size_t bytes) {
  std::string path = dir + "/.dbx-bench-probe-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return errno;
  const std::string block(4096, '\0');
  int err = 0;
  for (size_t done = 0; done < bytes && err == 0;) {
    const ssize_t n = ::write(fd, block.data(), std::min(block.size(), bytes - done));
    if (n > 0)
      done += static_cast<size_t>(n);
    else if (n == 0)
      err = EIO;
    else if (errno != EINTR)
      err = errno;
  }
  // tmpfs and some network file systems report a full disk only here.
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  ::unlink(path.c_str());
  return err;
}

std::string_view FileTypeName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status ReadInputFile(const std::string& path, uint64_t max_bytes, std::string* contents) {
  if (path.empty()) return Status::InvalidArgument("empty file name");
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    struct stat link;
    if (err == ENOENT && ::lstat(path.c_str(), &link) == 0)
      return Status::InvalidArgument(fmt::format("{}: is a dangling symbolic link (to '{}')", path, LinkTarget(path)));
    return Status::InvalidArgument(fmt::format("{}: cannot read: {}", path, std::strerror(err)));
  }
  // Devices are never opened: opening one can have effects of its own (a tape rewinds).
  if (!S_ISREG(st.st_mode)) return NotRegular(path, st.st_mode);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return Status::InvalidArgument(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  // The same check on what was opened: the path may have been replaced since the stat.
  Status s;
  if (::fstat(fd, &st) != 0)
    s = Status::IOError(fmt::format("{}: fstat: {}", path, std::strerror(errno)));
  else if (!S_ISREG(st.st_mode))
    s = NotRegular(path, st.st_mode);
  else if (static_cast<uint64_t>(st.st_size) > max_bytes)
    s = Status::InvalidArgument(fmt::format("{}: {} bytes, more than {} this command reads at most", path,
                                            static_cast<uint64_t>(st.st_size), Bound(max_bytes)));
  else
    s = ReadAll(fd, path, static_cast<uint64_t>(st.st_size), max_bytes, contents);
  ::close(fd);
  return s;
}

Status CheckOutputDirectory(std::string_view option, const std::string& dir) {
  if (dir.empty()) return Status::InvalidArgument(fmt::format("{}: empty directory name", option));
  const std::string path = WithoutTrailingSlashes(dir);
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return Status::Ok();  // missing: created later (which reports its errors)
  if (S_ISDIR(st.st_mode)) return Status::Ok();
  if (S_ISLNK(st.st_mode)) {
    struct stat target;
    if (::stat(path.c_str(), &target) != 0) {
      return Status::InvalidArgument(
          fmt::format("{}: '{}' is a dangling symbolic link (to '{}'); create its target or "
                      "give another directory",
                      option, dir, LinkTarget(path)));
    }
    if (S_ISDIR(target.st_mode)) return Status::Ok();
    return Status::InvalidArgument(fmt::format("{}: '{}' is a symbolic link to {}, not to a directory", option, dir,
                                               FileTypeName(target.st_mode)));
  }
  return Status::InvalidArgument(fmt::format("{}: '{}' is {}, not a directory", option, dir, FileTypeName(st.st_mode)));
}

Status FilePolicy::ReadInput(const std::string& path, uint64_t max_bytes, std::string* contents) {
  DBXB_RETURN_IF_ERROR(ReadInputFile(path, max_bytes, contents));
  NoteInput(path);
  return Status::Ok();
}

std::optional<std::string> FilePolicy::NoteInput(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  for (const Input& in : inputs_)
    if (in.dev == st.st_dev && in.ino == st.st_ino) return in.path;
  inputs_.push_back(Input{st.st_dev, st.st_ino, path});
  return std::nullopt;
}

std::string FilePolicy::Writer(std::string_view option) const { return fmt::format("{} {}", command_, option); }

Status FilePolicy::CheckOutputFile(std::string_view option, const std::string& path) const {
  if (path.empty()) return Status::InvalidArgument(fmt::format("{}: empty file name", option));
  if (path.back() == '/')
    return Status::InvalidArgument(fmt::format("{}: '{}' names a directory; give a file name", option, path));
  const std::string dir = DirectoryOf(path);
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::InvalidArgument(fmt::format("{}: directory '{}' does not exist", option, dir));
    return Status::InvalidArgument(fmt::format("{}: cannot write into '{}': {}", option, dir, std::strerror(errno)));
  }
  if (!S_ISDIR(st.st_mode))
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is {}, not a directory", option, dir, FileTypeName(st.st_mode)));
  if (fs::path(path).filename() == kOutputMarksFile)
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is dbx-bench's record of the files it wrote; give another name", option, path));
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return ProbeDirectory(option, dir);  // a new file
    return Status::InvalidArgument(fmt::format("{}: cannot write '{}': {}", option, path, std::strerror(errno)));
  }
  if (S_ISLNK(st.st_mode)) {
    struct stat target;
    const bool dangling = ::stat(path.c_str(), &target) != 0;
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is a {}symbolic link (to '{}'); dbx-bench never replaces a "
                    "link: give the file itself or a new name",
                    option, path, dangling ? "dangling " : "", LinkTarget(path)));
  }
  if (S_ISDIR(st.st_mode)) return Status::InvalidArgument(fmt::format("{}: '{}' is a directory", option, path));
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument(
        fmt::format("{}: '{}' is {}; dbx-bench writes only regular files", option, path, FileTypeName(st.st_mode)));
  }
  for (const Input& in : inputs_) {
    if (in.dev == st.st_dev && in.ino == st.st_ino) {
      return Status::InvalidArgument(fmt::format("{}: '{}' is an input of this command{}; write to another file",
                                                 option, path, in.path == path ? "" : " ('" + in.path + "')"));
    }
  }
  if (force_ || IsMarkedOutput(path, Writer(option))) return ProbeDirectory(option, dir);
  return Status::InvalidArgument(fmt::format(
      "{}: '{}' exists and was not written by dbx-bench {} (use --force to replace it)", option, path, Writer(option)));
}

Status FilePolicy::WriteOutputFile(std::string_view option, const std::string& path, std::string_view contents) const {
  AtomicFileWriter file;
  DBXB_RETURN_IF_ERROR(OpenOutputFile(option, path, &file));
  Status st = file.Append(contents);
  if (!st.ok()) return st.WithContext(option);
  return CommitOutputFile(option, &file);
}

Status FilePolicy::OpenOutputFile(std::string_view option, const std::string& path, AtomicFileWriter* file) const {
  DBXB_RETURN_IF_ERROR(CheckOutputFile(option, path));
  return file->Open(path).WithContext(option);
}

Status FilePolicy::CommitOutputFile(std::string_view option, AtomicFileWriter* file) const {
  Status st = CheckOutputFile(option, file->path());
  if (!st.ok()) {
    file->Discard();
    return st;
  }
  DBXB_RETURN_IF_ERROR(file->Commit().WithContext(option));
  MarkOutput(file->path(), Writer(option));
  return Status::Ok();
}

}  // namespace dbxb
