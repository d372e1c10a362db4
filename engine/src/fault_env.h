// A fault-injecting, in-memory Env for tests (as LevelDB's fault-injection test env, in memory):
//
//  - Power loss. Each file remembers how many of its bytes an fsync/fdatasync covered; each directory
//    remembers the entries (creates, renames, removes) its last fsync covered. CutPower() (or
//    CutPowerAfter(n)) stops the machine: that operation and every later one fails and changes
//    nothing. PowerLoss() then drops everything no sync covered and turns the power back on: every
//    file is cut to its synced bytes, every directory goes back to its synced entries (a removed
//    file comes back, a created one vanishes, a directory whose own name was never synced in its
//    parent vanishes with everything in it).
//  - Errors. FailNth makes the nth matching write, file sync, directory sync, rename or create fail
//    with EIO, ENOSPC or a short write (half the bytes reach the file, then ENOSPC); SetDiskFull
//    makes every write and create fail with ENOSPC until it is cleared.
//
// Paths are plain strings: a directory whose parent the Env has never seen is taken to exist
// durably (the test's temporary directory). Thread-safe; one mutex guards the whole file system.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "src/env.h"
#include "src/mutex.h"

namespace dbx {

/// The kinds of operation a fault can be injected into.
enum class FaultOp {
  kWrite,    ///< bytes handed to a file (write(2))
  kSync,     ///< fdatasync/fsync of a file
  kSyncDir,  ///< fsync of a directory
  kRename,
  kCreate,  ///< a new file or directory
  kRemove,
};
enum class FaultKind { kEIO, kENOSPC, kShortWrite };

const char* FaultOpName(FaultOp op);
const char* FaultKindName(FaultKind kind);

class FaultEnv final : public Env {
 public:
  FaultEnv() = default;
  ~FaultEnv() override;

  Status NewWritableFile(const std::string& path, std::unique_ptr<WritableFile>* out) override;
  Status NewRandomAccessFile(const std::string& path, std::unique_ptr<RandomAccessFile>* out) override;
  Status RenameFile(const std::string& from, const std::string& to) override;
  Status RemoveFile(const std::string& path) override;
  bool FileExists(const std::string& path) override;
  Status CreateDirIfMissing(const std::string& dir, bool* created) override;
  Status SyncDir(const std::string& dir) override;
  Status ListDir(const std::string& dir, std::vector<std::string>* names) override;
  Status LockFile(const std::string& path, std::unique_ptr<FileLock>* out) override;

  /// The nth operation of kind `op` from now (n >= 1) whose path ends with `path_suffix` fails with
  /// `kind` (kShortWrite applies to kWrite; elsewhere it acts as ENOSPC). One-shot.
  void FailNth(FaultOp op, uint64_t n, FaultKind kind, std::string path_suffix = {});
  /// While true, every write and create fails with ENOSPC.
  void SetDiskFull(bool full);
  /// The nth mutating operation from now (n >= 1) and all later ones fail: the power is cut.
  void CutPowerAfter(uint64_t n);
  void CutPower();
  bool power_cut() const;
  /// Drops every byte and directory entry no sync covered, releases all locks, and restores power.
  /// REQUIRES: no file of this Env is written meanwhile (the DBs using it are closed or destroyed).
  void PowerLoss();
  /// "op path" of the operation the power cut stopped ("" if none).
  std::string cut_at() const;
  /// Operations of a kind so far (failed ones included).
  uint64_t count(FaultOp op) const;
  /// Faults fired so far (FailNth, disk full, power cut).
  uint64_t faults_fired() const;

  /// Durability marks: each successful sync of a file whose name ends with `suffix` samples
  /// `marker`; DurableMark() is the largest sample whose file bytes and name are both durable now
  /// (sampled on sync, effective once the directory entry is synced too). The soak uses it to know
  /// how many acknowledged commits the last background WAL sync made durable.
  void SetSyncMarker(std::string suffix, std::function<uint64_t()> marker);
  uint64_t DurableMark() const;

 private:
  struct Inode {
    std::string data;           // bytes handed to the file system
    size_t synced = 0;          // a prefix of data that survives a power loss
    uint64_t pending_mark = 0;  // a sync marker waiting for the directory entry to become durable
  };
  struct Dir {
    bool root = false;  // a directory the Env did not create: it exists durably
    std::map<std::string, std::shared_ptr<Inode>> files, durable_files;
    std::set<std::string> subdirs, durable_subdirs;
  };
  class File;
  class Reader;
  class Lock;

  Status BeginOp(FaultOp op, const std::string& path, FaultKind* fault) REQUIRES(mu_);
  Dir* LiveDir(const std::string& dir) REQUIRES(mu_);
  bool Reachable(const std::string& dir, bool durable) const REQUIRES(mu_);
  void NoteMark(const std::string& path, const std::shared_ptr<Inode>& inode, uint64_t mark) REQUIRES(mu_);
  Status Write(const std::string& path, const std::shared_ptr<Inode>& inode, std::string_view data) REQUIRES(mu_);
  Status Sync(const std::string& path, const std::shared_ptr<Inode>& inode) REQUIRES(mu_);

  struct Fault {
    FaultOp op;
    uint64_t remaining;
    FaultKind kind;
    std::string suffix;
  };

  mutable Mutex mu_;
  std::map<std::string, Dir> dirs_ GUARDED_BY(mu_);
  std::set<std::string> locked_ GUARDED_BY(mu_);
  std::vector<Fault> faults_ GUARDED_BY(mu_);
  bool disk_full_ GUARDED_BY(mu_) = false;
  uint64_t cut_after_ GUARDED_BY(mu_) = 0;  // 0: no cut scheduled
  std::atomic<bool> dead_{false};
  std::string cut_at_ GUARDED_BY(mu_);
  uint64_t counts_[6] GUARDED_BY(mu_) = {};
  uint64_t fired_ GUARDED_BY(mu_) = 0;
  std::string mark_suffix_ GUARDED_BY(mu_);
  std::function<uint64_t()> marker_ GUARDED_BY(mu_);
  uint64_t durable_mark_ GUARDED_BY(mu_) = 0;
};

}  // namespace dbx
