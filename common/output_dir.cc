#include "common/output_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/file_policy.h"

namespace dbxb {

namespace fs = std::filesystem;

namespace {

bool Exists(const fs::path& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;  // a dangling link exists too: it is never created over
}

}  // namespace

OutputDir::~OutputDir() {
  if (!kept_) RemoveCreated();
}

Status OutputDir::Prepare(const std::string& dir, size_t probe_bytes) {
  DBXB_RETURN_IF_ERROR(CheckOutputDirectory(option_, dir));
  fs::path path = fs::path(dir).lexically_normal();
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();  // "a/b/" -> "a/b"
  dir_ = path.string();
  DBXB_RETURN_IF_ERROR(CreateMissing(dir));
  // A directory that cannot take the outputs (full, read-only, immutable, no permission) is bad input
  // now, before a run whose results could not be kept.
  if (int err = WriteProbeFile(dir_, probe_bytes); err != 0) {
    RemoveCreated();
    return Status::InvalidArgument(fmt::format("{}: cannot write to '{}': {}", option_, dir, std::strerror(err)));
  }
  return Status::Ok();
}

// One mkdir per missing directory, outermost first, each recorded: exactly what was made is what
// RemoveCreated may remove.
Status OutputDir::CreateMissing(const std::string& given) {
  std::vector<fs::path> missing;
  for (fs::path p = dir_; !p.empty() && !Exists(p); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) != 0) {
      const int err = errno;
      RemoveCreated();
      return Status::InvalidArgument(fmt::format("{}: cannot create '{}': {}", option_, given, std::strerror(err)));
    }
    created_.push_back(it->string());
  }
  return Status::Ok();
}

void OutputDir::RemoveCreated() {
  // Innermost first, each only while empty (rmdir never removes a non-empty directory).
  for (auto it = created_.rbegin(); it != created_.rend(); ++it)
    if (::rmdir(it->c_str()) != 0) break;
  created_.clear();
}

}  // namespace dbxb
