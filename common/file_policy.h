// Which files a command may read, and which it may write: the one place that decides it, for every
// command (docs/reliability.md, "Whose files").
//
// Inputs: a regular file (a symbolic link to one is followed) no larger than the bound of its kind,
// checked before a byte is read; never a directory, a FIFO, a socket or a device (reading /dev/zero
// or a FIFO would never end).
//
// Outputs: a path where nothing is yet (the tool creates the file), or a regular file that the same
// command and option wrote before and marked as its own in the directory's kOutputMarksFile; with
// --force also a regular file the tool did not write. Never a directory, a symbolic link (dangling or
// not), a FIFO, a socket, a device, or one of the command's own inputs, not even with --force.
// Output directories (--out DIR) may be new, a directory, or a symbolic link to one.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/atomic_file.h"
#include "common/status.h"

namespace dbxb {

/// What a command reads into memory at most, by kind of input.
inline constexpr uint64_t kMaxResultsFileBytes = uint64_t{256} << 20;  ///< results.json, baselines
inline constexpr uint64_t kMaxIntervalLogBytes = uint64_t{1} << 30;    ///< HdrHistogram interval logs
inline constexpr uint64_t kMaxWorkloadFileBytes = uint64_t{1} << 20;   ///< YCSB workload files

/// The file, in each directory the tool wrote an output to, that lists the outputs it wrote there:
/// one line per file with the writer ("compare --json"), device, inode, size and modification time.
inline constexpr char kOutputMarksFile[] = ".dbx-bench-outputs";

/// "a directory", "a FIFO", "a character device", ...: what `mode` (st_mode) is, for messages.
std::string_view FileTypeName(mode_t mode);

/// Reads the file at `path` into *contents. InvalidArgument naming the path and the problem, before
/// anything is read, when it is missing, not a regular file ("/dev/zero: is a character device, not a
/// regular file") or larger than `max_bytes`; IOError when reading fails. Never blocks: a FIFO is
/// refused by its type, and the file is opened non-blocking and checked again on the descriptor.
[[nodiscard]] Status ReadInputFile(const std::string& path, uint64_t max_bytes, std::string* contents);

/// Checks a directory given for outputs (run/ab --out, report -o, --hdr-log) before anything is
/// written: it may be missing (it will be created), a directory, or a symbolic link to one.
/// InvalidArgument starting with `option` otherwise, e.g. "--out: 'L' is a dangling symbolic link (to
/// '/nowhere/x')" or "--out: 'f' is a regular file, not a directory".
[[nodiscard]] Status CheckOutputDirectory(std::string_view option, const std::string& dir);

/// The size of the probe file an output's checks write: more than a typical output (results.json of
/// dbx-micro on four engines is ~40 KiB), so that a disk too full for it is found before the work.
inline constexpr size_t kOutputProbeBytes = 64 << 10;

/// Writes `bytes` into a fresh file in `dir`, fsyncs it and removes it: what writing an output will
/// need, short of the rename. Returns 0 or the errno of the first failing step.
int WriteProbeFile(const std::string& dir, size_t bytes);

/// One command's inputs and outputs. Not thread-safe.
class FilePolicy {
 public:
  /// `command` is the command's name ("compare"); with `option` it names the writer of an output in
  /// the marks ("compare --json"). `force` is the command's --force.
  FilePolicy(std::string command, bool force) : command_(std::move(command)), force_(force) {}

  /// ReadInputFile, then NoteInput.
  [[nodiscard]] Status ReadInput(const std::string& path, uint64_t max_bytes, std::string* contents);
  /// Remembers the file at `path` as an input of this command, so that no output replaces it.
  /// Returns the path of an earlier input that is the same file (same device and inode), if any.
  std::optional<std::string> NoteInput(const std::string& path);

  /// Whether `path` may be written as the output `option` (see the top of this file). InvalidArgument
  /// starting with `option`, naming the path and the problem, e.g. "--json: 'x.json' exists and was not
  /// written by dbx-bench compare --json (use --force to replace it)".
  [[nodiscard]] Status CheckOutputFile(std::string_view option, const std::string& path) const;
  /// CheckOutputFile, then WriteFileAtomically, then marks the file as written by `option`.
  [[nodiscard]] Status WriteOutputFile(std::string_view option, const std::string& path,
                                       std::string_view contents) const;
  /// A streamed output: CheckOutputFile, then file->Open(path).
  [[nodiscard]] Status OpenOutputFile(std::string_view option, const std::string& path, AtomicFileWriter* file) const;
  /// Publishes a streamed output: CheckOutputFile again (the path may have changed meanwhile), then
  /// file->Commit() and the mark. On error the temporary file is discarded.
  [[nodiscard]] Status CommitOutputFile(std::string_view option, AtomicFileWriter* file) const;

  bool force() const { return force_; }

 private:
  struct Input {
    dev_t dev;
    ino_t ino;
    std::string path;
  };
  std::string Writer(std::string_view option) const;

  std::string command_;
  bool force_;
  std::vector<Input> inputs_;
};

}  // namespace dbxb
