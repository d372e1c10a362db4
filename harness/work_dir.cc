#include "harness/work_dir.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>

#include "common/owned_dir.h"

namespace dbxb {

namespace fs = std::filesystem;

Status WorkDir::Create(const std::string& base_option) {
  std::error_code ec;
  Result<std::string> tmp = base_option.empty() ? TempDirectory() : Result<std::string>(base_option);
  if (!tmp.ok()) return tmp.status();
  fs::path base = *tmp;
  if (!base_option.empty()) {
    if (fs::exists(base, ec) && !fs::is_directory(base, ec))
      return Status::InvalidArgument(fmt::format("--data-dir: '{}' is not a directory", base_option));
    fs::create_directories(base, ec);
    if (ec)
      return Status::InvalidArgument(fmt::format("--data-dir: cannot create '{}': {}", base_option, ec.message()));
  }
  (void)RemoveAbandonedDirs(base.string(), "dbx-bench-");
  // The guard first: the directory is never there without one that knows it (a later run removes what
  // a kill leaves when there is no guard).
  Result<std::unique_ptr<OrphanGuard>> guard = OrphanGuard::Start({});
  Result<std::string> dir = CreateOwnedDir(base.string(), "dbx-bench-");
  if (!dir.ok()) return Status::InvalidArgument("--data-dir: " + dir.status().message());
  if (guard.ok() && (*guard)->Add(*dir).ok()) guard_ = std::move(*guard);
  // Searchable, not readable, by others: postgres's server runs as another account when we are root.
  (void)chmod(dir->c_str(), 0711);
  path_ = *dir;
  return Status::Ok();
}

void WorkDir::Remove() {
  std::error_code ec;
  if (!path_.empty() && IsOwnedDir(path_)) fs::remove_all(path_, ec);
  path_.clear();
  guard_.reset();
}

}  // namespace dbxb
