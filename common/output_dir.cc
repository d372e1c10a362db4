#include "common/output_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace dbxb {

namespace fs = std::filesystem;

namespace {

// Writes `bytes` into a fresh file in `dir`, fsyncs it and removes it: what writing the results will
// need, short of the rename. Returns 0 or the errno of the first failing step.
int WriteProbe(const std::string& dir, size_t bytes) {
  std::string path = (fs::path(dir) / ".dbx-bench-probe-XXXXXX").string();
  int fd = mkstemp(path.data());
  if (fd < 0) return errno;
  const std::string block(4096, '\0');
  int err = 0;
  for (size_t done = 0; done < bytes && err == 0;) {
    ssize_t n = write(fd, block.data(), std::min(block.size(), bytes - done));
    if (n > 0)
      done += static_cast<size_t>(n);
    else if (n == 0)
      err = EIO;
    else if (errno != EINTR)
      err = errno;
  }
  // tmpfs and some network file systems report a full disk only here.
  if (err == 0 && fsync(fd) != 0) err = errno;
  if (close(fd) != 0 && err == 0) err = errno;
  unlink(path.c_str());
  return err;
}

}  // namespace

OutputDir::~OutputDir() {
  if (!kept_) RemoveCreated();
}

Status OutputDir::Prepare(const std::string& dir, size_t probe_bytes) {
  fs::path path = fs::path(dir).lexically_normal();
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();  // "a/b/" -> "a/b"
  dir_ = path.string();
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    return Status::InvalidArgument(fmt::format("--out: '{}' exists and is not a directory", dir));
  // The outermost missing directory: what create_directories makes, and so what is ours to remove.
  if (!fs::exists(path, ec)) {
    fs::path root = path;
    while (root.has_parent_path() && root.parent_path() != root && !fs::exists(root.parent_path(), ec))
      root = root.parent_path();
    fs::create_directories(path, ec);
    if (ec) {
      // It may have made some of the chain before failing.
      created_root_ = root.string();
      RemoveCreated();
      return Status::InvalidArgument(fmt::format("--out: cannot create '{}': {}", dir, ec.message()));
    }
    created_root_ = root.string();
  }
  // A directory that cannot take the outputs (full, read-only, immutable, no permission) is bad input
  // now, before a run whose results could not be kept.
  if (int err = WriteProbe(dir_, probe_bytes); err != 0) {
    RemoveCreated();
    return Status::InvalidArgument(fmt::format("--out: cannot write to '{}': {}", dir, std::strerror(err)));
  }
  return Status::Ok();
}

void OutputDir::RemoveCreated() {
  if (created_root_.empty()) return;
  // Innermost first, each only while empty (fs::remove never removes a non-empty directory).
  std::error_code ec;
  for (fs::path p = dir_; !p.empty(); p = p.parent_path()) {
    if (!fs::remove(p, ec) || ec) break;
    if (p == fs::path(created_root_)) break;
  }
  created_root_.clear();
}

}  // namespace dbxb
