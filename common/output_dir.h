// The output directory of a run (`--out`): made ready before anything runs, and left as it was when
// the run ends with nothing to write.
#pragma once

#include <cstddef>
#include <string>

#include "common/status.h"

namespace dbxb {

/// Prepares `--out` and, unless Keep() is called, undoes what Prepare created when it goes out of
/// scope: the directories it made are removed again, each only while it is empty. A directory that
/// existed before is never removed, and nothing in it is changed besides the probe file, which is
/// removed again before Prepare returns.
///
/// Not thread-safe.
class OutputDir {
 public:
  /// The size of the probe file: more than the outputs of a typical run (results.json of dbx-micro on
  /// four engines is ~40 KiB), so that a disk too full for them is found before the run, not after.
  static constexpr size_t kProbeBytes = 64 << 10;

  OutputDir() = default;
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  ~OutputDir();

  /// Creates `dir` and its missing parents, then writes, fsyncs and removes a probe file of
  /// `probe_bytes` in it. InvalidArgument starting with "--out: " and naming the directory and the
  /// error (e.g. "No space left on device", "Read-only file system") when any step fails; the
  /// directories this call created are then removed again.
  /// REQUIRES: called once.
  [[nodiscard]] Status Prepare(const std::string& dir, size_t probe_bytes = kProbeBytes);

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
