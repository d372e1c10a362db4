// Writing a result file so that readers see either the old file or the complete new one, never a
// torn write, even if the process or the machine dies half-way. Which paths a command may write at
// all is decided by common/file_policy.h, which writes through this.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace dbxb {

/// One file written under a temporary name beside its target and published by Commit(): the
/// temporary file (created with mode 0666 less the umask) is fsynced, renamed over the target, and the
/// directory fsynced so that the rename itself is durable. Until Commit succeeds the target stays as
/// it was; the destructor (or Discard) removes the temporary file. Not thread-safe.
class AtomicFileWriter {
 public:
  AtomicFileWriter() = default;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter() { Discard(); }

  /// Creates the temporary file for `path`. InvalidArgument when `path` names no file ("" or "dir/");
  /// IOError naming the temporary file when it cannot be created.
  /// REQUIRES: not open; the directory of `path` exists.
  [[nodiscard]] Status Open(const std::string& path);
  /// Appends `data`. IOError naming the temporary file. REQUIRES: open.
  [[nodiscard]] Status Append(std::string_view data);
  /// fsync, close, rename over path(), fsync of the directory. On an error before the rename the
  /// temporary file is removed and the target is unchanged; if only the directory fsync fails, the
  /// target already holds the new contents, and IOError says so. REQUIRES: open.
  [[nodiscard]] Status Commit();
  /// Removes the temporary file (if any); the target stays as it was.
  void Discard();

  bool is_open() const { return fd_ >= 0; }
  /// The target, as given to Open.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string tmp_;
  int fd_ = -1;
  Status error_;  // the first failed Append, reported again by Commit
};

/// Replaces the file at `path` with `contents` through an AtomicFileWriter (see there).
/// Thread-safe for distinct paths. Commands write outputs through FilePolicy::WriteOutputFile, which
/// decides first whether `path` may be replaced at all.
[[nodiscard]] Status WriteFileAtomically(const std::string& path, std::string_view contents);

/// Reads the whole file at `path` into *contents. IOError naming the path if it cannot be read.
/// For the tool's own files only; a file a user names is read with ReadInputFile (common/file_policy.h).
[[nodiscard]] Status ReadFileToString(const std::string& path, std::string* contents);

}  // namespace dbxb
