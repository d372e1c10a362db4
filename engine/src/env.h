// File-system access of the engine: append-only files, positional reads, atomic replacement, the
// directory lock. Every failure is an IOError naming the file. Linux/POSIX.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dbx/status.h"

namespace dbx {

/// Append-only file with a user-space buffer. Not thread-safe except Sync(), which may run
/// concurrently with Append/Flush (it syncs whatever reached the kernel).
class WritableFile {
 public:
  static Status Create(const std::string& path, std::unique_ptr<WritableFile>* out);
  ~WritableFile();

  Status Append(std::string_view data);
  /// Hands buffered bytes to the kernel.
  Status Flush();
  /// Flush() then fdatasync: the bytes survive a power loss.
  Status Sync();
  /// fdatasync only: makes durable what earlier Flush() calls handed to the kernel. Safe to call
  /// concurrently with Append/Flush from another thread.
  Status SyncData();
  Status Close();
  /// Starts writeback of every `bytes` handed to the kernel (sync_file_range on Linux) and waits
  /// for the previous such range, so that at most about 2 x `bytes` of this file are dirty or under
  /// writeback at a time; 0 (the default) leaves writeback to the kernel and Sync().
  /// Durability is still only what Sync() promises.
  void SetBytesPerSync(size_t bytes) { bytes_per_sync_ = bytes; }
  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }

 private:
  WritableFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  Status WriteRaw(const char* p, size_t n);
  void MaybeStartWriteback();
  std::string path_;
  int fd_;
  std::string buf_;
  uint64_t size_ = 0;
  uint64_t written_ = 0;           // bytes handed to the kernel
  size_t bytes_per_sync_ = 0;
  uint64_t writeback_from_ = 0;    // start of the range not yet sent to writeback
  uint64_t waited_to_ = 0;         // everything below has been written back
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
};

/// Opens a file for positional reads (pread).
Status OpenRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out);
/// A RandomAccessFile over bytes in memory (tests and fuzzers).
std::unique_ptr<RandomAccessFile> NewMemoryFile(std::string name, std::string contents);

Status ReadFileToString(const std::string& path, std::string* out);
/// Writes `contents` to path.tmp, fsyncs it, renames it over `path` and fsyncs the directory:
/// readers see either the old or the new contents, even after a crash.
Status ReplaceFileAtomically(const std::string& dir, const std::string& name, std::string_view contents);
Status CreateDirIfMissing(const std::string& dir, bool* created);
Status SyncDir(const std::string& dir);
Status ListDir(const std::string& dir, std::vector<std::string>* names);
Status RemoveFile(const std::string& path);
bool FileExists(const std::string& path);

/// An exclusive advisory lock on dir/LOCK held until the object is destroyed. Busy if held elsewhere.
class DirLock {
 public:
  static Status Acquire(const std::string& dir, std::unique_ptr<DirLock>* out);
  ~DirLock();

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace dbx
