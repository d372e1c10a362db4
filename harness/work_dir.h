// The directory a run creates for its databases (`--data-dir`, or the temporary directory): a fresh
// "dbx-bench-XXXXXX" marked as this run's (common/owned_dir.h), removed at the end, and by an orphan
// guard (common/orphan_guard.h) if the run is killed; what killed runs left beside it is removed first.
// The tool never deletes a path the user named: it works in a fresh sub-directory of it.
#pragma once

#include <memory>
#include <string>

#include "common/orphan_guard.h"
#include "common/status.h"

namespace dbxb {

class WorkDir {
 public:
  WorkDir() = default;
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir() { Remove(); }

  /// Creates the directory under `base_option` (empty: the temporary directory). InvalidArgument naming
  /// --data-dir when it cannot.
  Status Create(const std::string& base_option);
  /// Removes it (only while it carries the marker). Idempotent.
  void Remove();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<OrphanGuard> guard_;
};

}  // namespace dbxb
