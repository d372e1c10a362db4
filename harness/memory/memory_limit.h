// Memory limits for disk-bound runs: confine the measured phases to a memory budget when the system
// allows it, else bound nothing; with either, every phase starts with the database evicted from the page cache.
//
// Methods, best first (ProbeMemoryLimit picks the first that works here and says why the others don't):
//
//   cgroup-v2   A child of this process's cgroup in the cgroup2 hierarchy with memory.max = limit.
//               Needs the memory controller in cgroup.controllers and the right to enable it for
//               children (cgroup.subtree_control), which a non-root cgroup holding processes lacks.
//   cgroup-v1   A child of this process's cgroup in the v1 memory hierarchy with
//               memory.limit_in_bytes = limit.
//   fadvise-dontneed eviction
//               No limit: every phase starts cold (below), and within a phase the page cache is not
//               bounded.
//
// With every method, each phase starts with the database out of the page cache: every file under the
// database directory is fsynced, this process's shared mappings of it (LMDB's map, SQLite's mmap, DBX's
// segments) are taken out of its page tables, and its pages are dropped (posix_fadvise
// POSIX_FADV_DONTNEED); the resident bytes left are measured (mincore) and recorded in the method
// string. Under a cgroup a phase would otherwise start with what the previous phase left cached, which
// differs between engines by what each freed at its end.
//
// systemd-run --scope -p MemoryMax=... is not used: it starts a new command, while the harness confines
// itself in place (the probe notes whether systemd is there at all).
//
// Confining in place: the whole harness process (every thread) moves into the child cgroup for the
// lifetime of the sequence (engine open, all phases, close) and back afterwards. Memory the process had
// already allocated stays charged where it was; page cache filled while confined is charged to the
// child, and the kernel reclaims it (and the engine's mapped pages) to stay under the limit. If the
// process's own new anonymous memory (engine caches, memtables) exceeds the limit, the kernel's OOM
// killer would end the whole run. So with cgroup v1 an OOM guard replaces the killer (memory.oom_control
// oom_kill_disable=1, notified through cgroup.event_control): when the process's own memory hits the
// limit, the guard thread lifts the limit so the run goes on, and the phase during which it happened
// fails with a message saying so (its figures were not confined). cgroup v2 has no such switch: there
// an overrun is killed. The sqlite-vps plan keeps engine caches at 1/8 of the limit to leave room, but
// engines have fixed buffers too (DBX's 128 MiB WOS, RocksDB's 64 MiB memtables): limits of a few
// hundred MiB are too small for some engines.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "workloads/phase.h"

namespace dbxb {

enum class MemoryLimitMethod { kCgroupV2, kCgroupV1, kFadviseEviction };

struct MemoryLimitProbe {
  MemoryLimitMethod method = MemoryLimitMethod::kFadviseEviction;
  /// cgroup methods: the cgroup directory the child is created in (this process's own cgroup).
  std::string cgroup_dir;
  /// One sentence per method considered, e.g. "cgroup v2 (/sys/fs/cgroup/unified): no memory controller
  /// (cgroup.controllers: hugetlb)".
  std::vector<std::string> notes;
};

/// Looks at /proc/self/cgroup and /proc/self/mountinfo and tries each cgroup method (creating and
/// removing an empty child cgroup, without moving any process). Never fails: the fallback always works.
MemoryLimitProbe ProbeMemoryLimit();

/// "cgroup-v2", "cgroup-v1", "fadvise-dontneed eviction".
std::string MemoryLimitMethodName(MemoryLimitMethod method);

/// The calling process inside a child cgroup with a memory limit, until Leave() or destruction.
class MemoryConfinement {
 public:
  /// Creates <probe.cgroup_dir>/dbxb-<pid>-<n>, sets the limit and moves this process into it.
  /// REQUIRES: probe.method is a cgroup method.
  static Result<std::unique_ptr<MemoryConfinement>> Enter(const MemoryLimitProbe& probe, uint64_t limit_bytes);
  ~MemoryConfinement();
  MemoryConfinement(const MemoryConfinement&) = delete;
  MemoryConfinement& operator=(const MemoryConfinement&) = delete;

  /// Moves the process back to its own cgroup and removes the child. Idempotent.
  Status Leave();
  /// For results: "cgroup-v1 memory.limit_in_bytes=268435456" / "cgroup-v2 memory.max=268435456".
  const std::string& description() const { return description_; }
  const std::string& cgroup_path() const { return path_; }
  /// The most memory (page cache included) the child cgroup has been charged since Enter.
  Result<uint64_t> PeakBytes() const;
  /// How many times the OOM guard lifted the limit (cgroup v1; always 0 without a guard). Once lifted,
  /// the limit stays lifted: figures measured after that are not confined.
  uint64_t oom_events() const;

 private:
  class OomGuard;
  MemoryConfinement();
  MemoryLimitMethod method_ = MemoryLimitMethod::kCgroupV1;
  std::string parent_;
  std::string path_;
  std::string description_;
  bool inside_ = false;
  std::unique_ptr<OomGuard> guard_;
};

struct EvictionStats {
  uint64_t files = 0;
  uint64_t bytes = 0;            ///< total size of the files
  uint64_t resident_before = 0;  ///< bytes of them in the page cache before
  uint64_t resident_after = 0;   ///< and after (pages another process maps cannot be dropped)
};

/// fsyncs every regular file under `dir` (recursively) and asks the kernel to drop its pages from the
/// page cache (posix_fadvise POSIX_FADV_DONTNEED), after taking this process's shared mappings of them
/// out of its page tables (madvise MADV_DONTNEED), since the kernel keeps a mapped page cached. The
/// data stays intact, mappings stay valid; only caching changes. Other processes' mappings still pin
/// their pages (resident_after says how many bytes).
Result<EvictionStats> EvictFromPageCache(const std::string& dir);

/// Hands the heap memory this process has freed back to the OS (glibc's malloc_trim; nothing
/// elsewhere). glibc keeps freed memory resident in its arenas, charged to the cgroup it was
/// allocated in: an engine would otherwise start a confined phase with memory outside its limit
/// (another engine's, or the load's), or lose page cache to its own freed buffers.
void ReleaseFreedHeap();

/// Bytes of `path` (a file, or every regular file under a directory) now in the page cache (mincore).
Result<uint64_t> ResidentBytes(const std::string& path);

/// Wraps a sequence so that its phases run under `limit_bytes` by the probe's method: a cgroup from
/// Open() to Close() (falling back to eviction, with the reason in the method string, when entering the
/// cgroup fails), or eviction of `evict_dir` before each phase. Each phase's spec gains the parameters
/// ("memory_limit_bytes", ...) and (kMemoryMethodParameter, <the method string>), which the phase
/// runner records as PhaseResult::memory_method.
std::unique_ptr<PhaseSequence> WithMemoryLimit(std::unique_ptr<PhaseSequence> inner, uint64_t limit_bytes,
                                               std::string evict_dir, MemoryLimitProbe probe);

/// Confines the sequences of one run that ask for it (PhaseSequence::memory_limit_bytes() > 0) with
/// WithMemoryLimit, evicting under `evict_dir`; probes the method once, on the first such sequence.
/// Not thread-safe.
class MemoryLimits {
 public:
  explicit MemoryLimits(std::string evict_dir) : evict_dir_(std::move(evict_dir)) {}
  /// Replaces each sequence that asks for a limit by its confined wrapper; others stay as they are.
  void Apply(std::vector<std::unique_ptr<PhaseSequence>>* sequences);

 private:
  std::string evict_dir_;
  std::optional<MemoryLimitProbe> probe_;
};

}  // namespace dbxb
