#include "harness/output_dir.h"

#include <unistd.h>

#include <filesystem>
#include <fmt/format.h>

namespace dbxb {

namespace fs = std::filesystem;

OutputDir::~OutputDir() {
  if (!kept_) RemoveCreated();
}

Status OutputDir::Prepare(const std::string& dir) {
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
  if (access(dir_.c_str(), W_OK | X_OK) != 0) {
    RemoveCreated();
    return Status::InvalidArgument(fmt::format("--out: '{}' is not writable", dir));
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
