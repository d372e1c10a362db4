// The output directory of a run (`--out`): made ready before anything runs, and left as it was when
// the run ends with nothing to write.
#pragma once

#include <string>

#include "common/status.h"

namespace dbxb {

/// Prepares `--out` and, unless Keep() is called, undoes what Prepare created when it goes out of
/// scope: the directories it made are removed again, each only while it is empty. A directory that
/// existed before is never removed, and nothing in it is changed.
///
/// Not thread-safe.
class OutputDir {
 public:
  OutputDir() = default;
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  ~OutputDir();

  /// Creates `dir` and its missing parents and checks that it is writable. InvalidArgument starting
  /// with "--out: " and naming the directory and the problem when it is not; the directories this
  /// call created are then removed again.
  /// REQUIRES: called once.
  [[nodiscard]] Status Prepare(const std::string& dir);

  /// The run has something to write: the directory stays.
  void Keep() { kept_ = true; }

  /// True when Prepare created the directory (it did not exist before).
  bool created() const { return !created_root_.empty(); }

 private:
  void RemoveCreated();

  std::string dir_;           // as given, normalised
  std::string created_root_;  // the outermost directory Prepare created; empty = none
  bool kept_ = false;
};

}  // namespace dbxb
