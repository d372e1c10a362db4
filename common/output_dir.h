// The output directory of a run (`--out`): made ready before anything runs, and left as it was when
// the run ends with nothing to write.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/file_policy.h"
#include "common/status.h"

namespace dbxb {

/// Prepares an output directory (`--out`, `report -o`, `--hdr-log`) and, unless Keep() is called,
/// undoes what Prepare created when it goes out of scope: the directories it made are removed again,
/// each only while it is empty. Nothing that existed before is ever removed (a dangling symbolic link
/// given as the directory is refused, never replaced), and nothing in an existing directory is changed
/// besides the probe file, which is removed again before Prepare returns.
///
/// Not thread-safe.
class OutputDir {
 public:
  /// The size of the probe file (kOutputProbeBytes, common/file_policy.h).
  static constexpr size_t kProbeBytes = kOutputProbeBytes;

  /// `option` starts every message ("--out", "-o", "--hdr-log").
  explicit OutputDir(std::string option = "--out") : option_(std::move(option)) {}
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  ~OutputDir();

  /// Checks `dir` (CheckOutputDirectory, common/file_policy.h), creates it and its missing parents, then
  /// writes, fsyncs and removes a probe file of `probe_bytes` in it. InvalidArgument starting with the
  /// option and naming the directory and the error (e.g. "No space left on device", "Read-only file
  /// system") when any step fails; the directories this call created are then removed again.
  /// REQUIRES: called once.
  [[nodiscard]] Status Prepare(const std::string& dir, size_t probe_bytes = kProbeBytes);

  /// The run has something to write: the directory stays.
  void Keep() { kept_ = true; }

  /// True when Prepare created the directory (it did not exist before).
  bool created() const { return !created_.empty(); }

 private:
  Status CreateMissing(const std::string& given);
  void RemoveCreated();

  std::string option_;
  std::string dir_;                   // as given, normalised
  std::vector<std::string> created_;  // the directories Prepare made, outermost first
  bool kept_ = false;
};

}  // namespace dbxb
