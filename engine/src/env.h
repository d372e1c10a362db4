// File-system access of the engine, behind one interface (as LevelDB's Env): append-only files,
// positional reads, renames, directory listing and fsync, the directory lock. Every engine file
// and directory operation goes through the Env in Options::env, so that tests can substitute one
// that injects faults or simulates a power loss (src/fault_env.h). Every failure is an IOError
// naming the file. Env::Default() is the POSIX one (Linux).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dbx/status.h"

namespace dbx {

/// An append-only file. Not thread-safe except SyncData(), which may run concurrently with
/// Append/Flush (it makes durable whatever earlier Flush() calls handed to the file system).
class WritableFile {
 public:
  /// The POSIX Env's NewWritableFile (tests and tools; the engine uses its Options::env).
  static Status Create(const std::string& path, std::unique_ptr<WritableFile>* out);
  virtual ~WritableFile() = default;

  virtual Status Append(std::string_view data) = 0;
  /// Hands buffered bytes to the file system.
  virtual Status Flush() = 0;
  /// Flush() then fdatasync: the bytes survive a power loss (once the file's name does: SyncDir).
  virtual Status Sync() = 0;
  /// fdatasync only: makes durable what earlier Flush() calls handed to the file system.
  virtual Status SyncData() = 0;
  virtual Status Close() = 0;
  /// Starts writeback every `bytes` handed to the kernel (see Options::bytes_per_sync); 0 leaves
  /// writeback to the kernel and Sync(). Durability is still only what Sync() promises.
  virtual void SetBytesPerSync(size_t bytes) { (void)bytes; }
  virtual const std::string& path() const = 0;
  /// Bytes appended so far (buffered or not).
  virtual uint64_t size() const = 0;
};

/// Positional reads. Implementations are thread-safe.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  /// Reads up to n bytes at offset. *result may point into *scratch or into the file's own memory.
  /// Fewer bytes than asked means the file ended.
  virtual Status Read(uint64_t offset, size_t n, std::string* scratch, std::string_view* result) const = 0;
  virtual uint64_t Size() const = 0;
  virtual const std::string& name() const = 0;
  /// True when every Read's *result points into the file's own memory (a mapping), which stays
  /// valid and unchanged while the file is open: readers may then keep views instead of copies.
  virtual bool ReadsInPlace() const { return false; }
  /// A hint before reading [offset, offset + n) in place (ReadsInPlace): its pages that are not in
  /// memory are read now, in one request, instead of one fault after the other. Nothing to do for a
  /// range within one page (one fault reads it) or a file that is not mapped.
  virtual void WillNeed(uint64_t offset, size_t n) const {
    (void)offset;
    (void)n;
  }
};

/// A lock on a database directory, released when destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

/// The file system. Implementations are thread-safe.
class Env {
 public:
  virtual ~Env() = default;
  /// The POSIX file system; never destroyed.
  static Env* Default();

  /// Creates (or truncates) path for appending.
  virtual Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) = 0;
  virtual Status NewRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) = 0;
  /// Atomically replaces `to` by `from` (rename(2)); durable once the directory is synced.
  virtual Status RenameFile(const std::string& from, const std::string& to) = 0;
  /// Removes path; OK when it does not exist.
  virtual Status RemoveFile(const std::string& path) = 0;
  virtual bool FileExists(const std::string& path) = 0;
  /// Makes dir (not its parents); *created tells whether it was made now.
  virtual Status CreateDirIfMissing(const std::string& dir, bool* created) = 0;
  /// fsync of the directory: the creates, renames and removes in it so far survive a power loss.
  virtual Status SyncDir(const std::string& dir) = 0;
  /// The names in dir, without "." and "..".
  virtual Status ListDir(const std::string& dir, std::vector<std::string>* names) = 0;
  /// An exclusive lock on path (created if missing); Busy when held elsewhere.
  virtual Status LockFile(const std::string& path, std::unique_ptr<FileLock>* out) = 0;

  /// Reads a whole file.
  Status ReadFileToString(const std::string& path, std::string* out);
  /// Writes `contents` to dir/name.tmp, syncs it, renames it over dir/name and syncs the directory:
  /// readers see either the old or the new contents, even after a power loss.
  Status ReplaceFileAtomically(const std::string& dir, const std::string& name, std::string_view contents);
};

/// The directory a path is in ("." for a bare name, "/" for "/x").
std::string ParentDir(const std::string& path);

// Shortcuts to Env::Default() for tests, tools and fuzzers. The engine uses its Options::env.
Status OpenRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out);
Status ReadFileToString(const std::string& path, std::string* out);
bool FileExists(const std::string& path);
/// A RandomAccessFile over bytes in memory (tests and fuzzers).
std::unique_ptr<RandomAccessFile> NewMemoryFile(std::string name, std::string contents);

}  // namespace dbx
