#include "cli/run_limits.h"

#include <fmt/format.h>
#include <sys/statvfs.h>

#include <filesystem>

#include "common/owned_dir.h"
#include "writers/format.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// The directory the databases will be under: --data-dir, or its nearest existing ancestor (it is
// created when the run starts), or the system temp directory.
fs::path DataParent(const std::string& data_dir) {
  std::error_code ec;
  if (data_dir.empty()) {
    Result<std::string> tmp = TempDirectory();  // checked before (CheckBeforeRun)
    return tmp.ok() ? fs::path(*tmp) : fs::path();
  }
  fs::path p = fs::absolute(data_dir, ec);
  while (!p.empty() && !fs::is_directory(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
  return p;
}

}  // namespace

Status CheckRunFits(const RunPlan& plan) {
  if (plan.work == nullptr || plan.work->data_bytes == 0) return Status::Ok();
  const fs::path dir = DataParent(plan.data_dir);
  struct statvfs vfs;
  if (dir.empty() || statvfs(dir.c_str(), &vfs) != 0) return Status::Ok();  // the run reports what fails
  const uint64_t free_bytes = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  if (plan.work->data_bytes <= free_bytes) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{}: at least {} to load, more than the {} free in {} ({})", plan.work->data_description,
                  FormatBytes(static_cast<double>(plan.work->data_bytes)), FormatBytes(static_cast<double>(free_bytes)),
                  dir.string(), plan.data_dir.empty() ? "give --data-dir elsewhere" : "--data-dir"));
}

}  // namespace dbxb
