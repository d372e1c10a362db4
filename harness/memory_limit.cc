#include "harness/memory_limit.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <new>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>

namespace dbxb {
namespace {

std::string ErrnoText(int err) { return std::strerror(err); }

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read " + path + ": " + ErrnoText(errno));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes `text` with one write(2), as cgroup files require; the kernel's errno is the useful message.
Status WriteFile(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("open " + path + ": " + ErrnoText(errno));
  ssize_t n = write(fd, text.data(), text.size());
  int err = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size())) return Status::IOError("write '" + text + "' to " + path + ": " + ErrnoText(err));
  return Status::Ok();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

struct CgroupMount {
  std::string mount_point;
  std::string root;  // the hierarchy path mounted there
};

// Finds the mount of the cgroup2 hierarchy (v2 = true) or of the v1 hierarchy carrying the memory
// controller, from /proc/self/mountinfo: "<id> <parent> <dev> <root> <mount point> <opts> ... - <fstype> <src> <super opts>".
bool FindCgroupMount(bool v2, CgroupMount* out) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string id, parent, dev, root, mount_point, tok;
    s >> id >> parent >> dev >> root >> mount_point;
    while (s >> tok && tok != "-") {
    }
    std::string fstype, source, super_opts;
    s >> fstype >> source >> super_opts;
    bool match = v2 ? fstype == "cgroup2"
                    : fstype == "cgroup" && ("," + super_opts + ",").find(",memory,") != std::string::npos;
    if (match) {
      *out = {mount_point, root};
      return true;
    }
  }
  return false;
}

// This process's path in a hierarchy, from /proc/self/cgroup: "0::/path" (v2) or "N:memory:/path" (v1).
bool OwnCgroupPath(bool v2, std::string* out) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    size_t c1 = line.find(':'), c2 = line.find(':', c1 + 1);
    if (c1 == std::string::npos || c2 == std::string::npos) continue;
    std::string hierarchy = line.substr(0, c1), controllers = line.substr(c1 + 1, c2 - c1 - 1);
    bool match = v2 ? hierarchy == "0" && controllers.empty()
                    : ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (match) {
      *out = line.substr(c2 + 1);
      return true;
    }
  }
  return false;
}

std::string CgroupDir(const CgroupMount& mount, std::string path) {
  if (mount.root != "/" && path.compare(0, mount.root.size(), mount.root) == 0) path = path.substr(mount.root.size());
  return (std::filesystem::path(mount.mount_point) / std::filesystem::path(path).relative_path()).lexically_normal().string();
}

std::atomic<uint64_t> g_child_counter{0};

std::string NewChildName() {
  return "dbxb-" + std::to_string(getpid()) + "-" + std::to_string(g_child_counter.fetch_add(1));
}

// Creates an empty child, sets a limit on it, reads it back and removes it: proves the method works here.
Status TryChild(const std::string& dir, bool v2) {
  std::string child = dir + "/" + NewChildName() + "-probe";
  if (mkdir(child.c_str(), 0755) != 0) return Status::IOError("mkdir " + child + ": " + ErrnoText(errno));
  const char* file = v2 ? "memory.max" : "memory.limit_in_bytes";
  Status s = WriteFile(child + "/" + file, "268435456");
  if (s.ok()) {
    Result<std::string> back = ReadFile(child + "/" + file);
    if (!back.ok()) s = back.status();
    else if (Trim(*back) != "268435456") s = Status::IOError(std::string(file) + " reads back as '" + Trim(*back) + "'");
  }
  rmdir(child.c_str());
  return s;
}

MemoryLimitProbe Probe() {
  MemoryLimitProbe probe;
  bool found = false;
  // cgroup v2
  CgroupMount mount;
  std::string own;
  if (!FindCgroupMount(true, &mount)) {
    probe.notes.push_back("cgroup v2: no cgroup2 file system mounted");
  } else if (!OwnCgroupPath(true, &own)) {
    probe.notes.push_back("cgroup v2 (" + mount.mount_point + "): this process has no v2 cgroup");
  } else {
    std::string dir = CgroupDir(mount, own);
    Result<std::string> controllers = ReadFile(dir + "/cgroup.controllers");
    std::string where = "cgroup v2 (" + dir + "): ";
    if (!controllers.ok()) {
      probe.notes.push_back(where + controllers.status().ToString());
    } else if ((" " + Trim(*controllers) + " ").find(" memory ") == std::string::npos) {
      probe.notes.push_back(where + "no memory controller (cgroup.controllers: '" + Trim(*controllers) + "')");
    } else if (Status s = WriteFile(dir + "/cgroup.subtree_control", "+memory"); !s.ok()) {
      probe.notes.push_back(where + "cannot enable memory for children: " + s.ToString());
    } else if (Status t = TryChild(dir, true); !t.ok()) {
      probe.notes.push_back(where + "cannot limit a child: " + t.ToString());
    } else {
      probe.notes.push_back(where + "usable");
      probe.method = MemoryLimitMethod::kCgroupV2;
      probe.cgroup_dir = dir;
      found = true;
    }
  }
  // cgroup v1
  if (!FindCgroupMount(false, &mount)) {
    probe.notes.push_back("cgroup v1: no memory hierarchy mounted");
  } else if (!OwnCgroupPath(false, &own)) {
    probe.notes.push_back("cgroup v1 (" + mount.mount_point + "): this process is in no memory cgroup");
  } else {
    std::string dir = CgroupDir(mount, own);
    std::string where = "cgroup v1 (" + dir + "): ";
    if (Status t = TryChild(dir, false); !t.ok()) {
      probe.notes.push_back(where + "cannot limit a child: " + t.ToString());
    } else {
      probe.notes.push_back(where + (found ? "usable (not needed)" : "usable"));
      if (!found) {
        probe.method = MemoryLimitMethod::kCgroupV1;
        probe.cgroup_dir = dir;
        found = true;
      }
    }
  }
  std::error_code ec;
  probe.notes.push_back(std::filesystem::exists("/run/systemd/system", ec)
                            ? "systemd-run: systemd is running, but a scope starts a new command; not used"
                            : "systemd-run: systemd is not running (no /run/systemd/system)");
  return probe;
}

// Residency of one open file, by mapping it and asking mincore.
Result<uint64_t> ResidentOf(int fd, uint64_t size, const std::string& path) {
  if (size == 0) return uint64_t{0};
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return Status::IOError("mmap " + path + ": " + ErrnoText(errno));
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((size + page - 1) / page);
  int rc = mincore(map, size, vec.data());
  int err = errno;
  munmap(map, size);
  if (rc != 0) return Status::IOError("mincore " + path + ": " + ErrnoText(err));
  uint64_t resident = 0;
  for (size_t i = 0; i < vec.size(); ++i)
    if (vec[i] & 1) resident += std::min(page, size - i * page);
  return resident;
}

template <typename Fn>
Status ForEachFile(const std::string& path, Fn fn) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return fn(path);
  if (!std::filesystem::is_directory(path, ec)) return Status::NotFound(path);
  for (auto it = std::filesystem::recursive_directory_iterator(path, ec); !ec && it != std::filesystem::end(it);
       it.increment(ec)) {
    std::error_code e2;
    if (it->is_regular_file(e2)) DBXB_RETURN_IF_ERROR(fn(it->path().string()));
  }
  // Files may vanish while we walk (an engine deleting a compacted file): not an error.
  return Status::Ok();
}

// The inner phase with the memory parameters added to its spec; fails at TearDown when the OOM guard
// had to lift the limit while it ran (its figures were then not confined).
class LabeledPhase final : public Phase {
 public:
  LabeledPhase(std::unique_ptr<Phase> inner, std::vector<std::pair<std::string, std::string>> extra,
               const MemoryConfinement* confinement, uint64_t limit)
      : inner_(std::move(inner)), spec_(inner_->spec()), confinement_(confinement), limit_(limit) {
    for (auto& kv : extra) spec_.parameters.push_back(std::move(kv));
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status SetUp() override {
    oom_before_ = OomEvents();
    return inner_->SetUp();
  }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t t) override { return inner_->NewWorker(t); }
  Status TearDown() override {
    Status s = inner_->TearDown();
    if (OomEvents() != oom_before_)
      return Status::Internal("the process's own memory (engine caches and buffers, not the page cache) exceeded "
                              "the memory limit of " + std::to_string(limit_) +
                              " bytes; the limit was lifted so the run could go on, so this phase was not "
                              "confined: raise --memory-limit");
    return s;
  }

 private:
  uint64_t OomEvents() const { return confinement_ != nullptr ? confinement_->oom_events() : 0; }

  std::unique_ptr<Phase> inner_;
  PhaseSpec spec_;
  const MemoryConfinement* confinement_;
  uint64_t limit_;
  uint64_t oom_before_ = 0;
};

class MemoryLimitedSequence final : public PhaseSequence {
 public:
  MemoryLimitedSequence(std::unique_ptr<PhaseSequence> inner, uint64_t limit, std::string evict_dir,
                        MemoryLimitProbe probe)
      : inner_(std::move(inner)), limit_(limit), evict_dir_(std::move(evict_dir)), probe_(std::move(probe)) {}

  ~MemoryLimitedSequence() override { (void)Close(); }

  std::string dataset() const override { return inner_->dataset(); }
  std::string workload() const override { return inner_->workload(); }

  Status Open() override {
    method_ = MemoryLimitMethodName(MemoryLimitMethod::kFadviseEviction);
    if (probe_.method != MemoryLimitMethod::kFadviseEviction) {
      Result<std::unique_ptr<MemoryConfinement>> c = MemoryConfinement::Enter(probe_, limit_);
      if (c.ok()) {
        confinement_ = std::move(c.value());
        method_ = confinement_->description();
      } else {
        fallback_reason_ = " (entering the cgroup failed: " + c.status().ToString() + ")";
      }
    } else if (!probe_.notes.empty()) {
      fallback_reason_ = " (no cgroup memory limit here)";
    }
    return inner_->Open();
  }

  Result<std::unique_ptr<Phase>> NextPhase() override {
    if (confinement_ != nullptr && confinement_->oom_events() != 0)
      return Status::Internal("the memory limit of " + std::to_string(limit_) +
                              " bytes was lifted after the process's own memory exceeded it (engine open or an "
                              "earlier phase): raise --memory-limit");
    Result<std::unique_ptr<Phase>> phase = inner_->NextPhase();
    if (!phase.ok() || *phase == nullptr) return phase;
    std::string method = method_;
    if (confinement_ == nullptr) {
      Result<EvictionStats> evicted = EvictFromPageCache(evict_dir_);
      if (!evicted.ok() && !evicted.status().IsNotFound()) return evicted.status();
      method += fallback_reason_;
      if (evicted.ok())
        method += "; " + std::to_string(evicted->resident_after) + " of " + std::to_string(evicted->bytes) +
                  " bytes still cached after eviction";
    }
    return std::unique_ptr<Phase>(new LabeledPhase(std::move(phase.value()),
                                                   {{"memory_limit_bytes", std::to_string(limit_)},
                                                    {kMemoryMethodParameter, method}},
                                                   confinement_.get(), limit_));
  }

  Settings engine_settings() const override { return inner_->engine_settings(); }

  Status Close() override {
    if (closed_) return Status::Ok();
    closed_ = true;
    Status s = inner_->Close();
    if (confinement_ != nullptr) {
      Status left = confinement_->Leave();
      if (s.ok()) s = left;
      confinement_.reset();
    }
    return s;
  }

 private:
  std::unique_ptr<PhaseSequence> inner_;
  uint64_t limit_;
  std::string evict_dir_;
  MemoryLimitProbe probe_;
  std::unique_ptr<MemoryConfinement> confinement_;
  std::string method_;
  std::string fallback_reason_;
  bool closed_ = false;
};

}  // namespace

// Replaces the kernel's OOM killer for one v1 cgroup: the kernel pauses the cgroup's tasks at the limit
// and signals an eventfd; a helper process then lifts the limit, which lets them go on.
//
// A process, not a thread: memory a thread touches is charged to its process's cgroup, so a thread of the
// confined process would wait at the limit like the others the moment it faults in a page. The helper is
// forked before the process moves into the cgroup, stays outside it, and after fork makes system calls
// only (read, pwrite, prctl, _exit), as a child of a multi-threaded process must. It shares one page
// with the harness for its event count and stop flag, and dies with the harness (PR_SET_PDEATHSIG).
class MemoryConfinement::OomGuard {
 public:
  static Result<std::unique_ptr<OomGuard>> Start(const std::string& cgroup) {
    std::unique_ptr<OomGuard> g(new OomGuard());
    void* page = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return Status::IOError("mmap: " + ErrnoText(errno));
    g->shared_ = new (page) Shared();
    g->event_fd_ = eventfd(0, EFD_CLOEXEC);
    if (g->event_fd_ < 0) return Status::IOError("eventfd: " + ErrnoText(errno));
    g->oom_control_fd_ = open((cgroup + "/memory.oom_control").c_str(), O_RDONLY | O_CLOEXEC);
    g->limit_fd_ = open((cgroup + "/memory.limit_in_bytes").c_str(), O_WRONLY | O_CLOEXEC);
    if (g->oom_control_fd_ < 0 || g->limit_fd_ < 0)
      return Status::IOError("open " + cgroup + "/memory.{oom_control,limit_in_bytes}: " + ErrnoText(errno));
    DBXB_RETURN_IF_ERROR(WriteFile(cgroup + "/cgroup.event_control",
                                   std::to_string(g->event_fd_) + " " + std::to_string(g->oom_control_fd_)));
    const pid_t parent = getpid();
    g->helper_ = fork();
    if (g->helper_ < 0) return Status::IOError("fork: " + ErrnoText(errno));
    if (g->helper_ == 0) Run(g->event_fd_, g->oom_control_fd_, g->limit_fd_, g->shared_, parent);  // never returns
    // Only now: with no helper, the tasks would wait at the limit for ever.
    DBXB_RETURN_IF_ERROR(WriteFile(cgroup + "/memory.oom_control", "1"));
    return g;
  }

  ~OomGuard() {
    if (helper_ > 0) {
      shared_->stop.store(1);
      uint64_t one = 1;
      (void)!write(event_fd_, &one, sizeof(one));
      int status = 0;
      while (waitpid(helper_, &status, 0) < 0 && errno == EINTR) {
      }
    }
    for (int fd : {event_fd_, oom_control_fd_, limit_fd_})
      if (fd >= 0) close(fd);
    if (shared_ != nullptr) munmap(shared_, sizeof(Shared));
  }

  uint64_t events() const { return shared_->events.load(); }

 private:
  struct Shared {
    std::atomic<uint64_t> events{0};
    std::atomic<int> stop{0};
  };

  OomGuard() = default;

  // True when memory.oom_control says the cgroup's tasks are waiting at the limit. System calls and
  // a byte scan only (the helper is the child of a multi-threaded process).
  static bool UnderOom(int oom_control_fd) {
    char buf[256];
    const ssize_t n = pread(oom_control_fd, buf, sizeof(buf) - 1, 0);
    if (n <= 0) return false;
    buf[n] = '\0';
    const char* p = std::strstr(buf, "under_oom ");
    return p != nullptr && p[10] == '1';
  }

  // Waits for the kernel's OOM notification; also polls under_oom every 250 ms, so that a notification
  // that never comes (seen once: tasks waited at the limit for minutes) cannot hang the run.
  [[noreturn]] static void Run(int event_fd, int oom_control_fd, int limit_fd, Shared* shared, pid_t parent) {
    static const char kUnlimited[] = "-1";
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);  // the harness died before prctl
    for (;;) {
      pollfd pfd{event_fd, POLLIN, 0};
      const int ready = poll(&pfd, 1, 250);
      if (ready < 0 && errno != EINTR) _exit(1);
      if (ready > 0) {
        uint64_t count = 0;
        if (read(event_fd, &count, sizeof(count)) < 0 && errno != EINTR && errno != EAGAIN) _exit(1);
      }
      if (shared->stop.load()) _exit(0);
      if (ready <= 0 && !UnderOom(oom_control_fd)) continue;
      (void)!pwrite(limit_fd, kUnlimited, sizeof(kUnlimited) - 1, 0);
      shared->events.fetch_add(1);
    }
  }

  Shared* shared_ = nullptr;
  int event_fd_ = -1;
  int oom_control_fd_ = -1;
  int limit_fd_ = -1;
  pid_t helper_ = -1;
};

MemoryConfinement::MemoryConfinement() = default;

uint64_t MemoryConfinement::oom_events() const { return guard_ != nullptr ? guard_->events() : 0; }

std::string MemoryLimitMethodName(MemoryLimitMethod method) {
  switch (method) {
    case MemoryLimitMethod::kCgroupV2: return "cgroup-v2";
    case MemoryLimitMethod::kCgroupV1: return "cgroup-v1";
    case MemoryLimitMethod::kFadviseEviction: return "fadvise-dontneed eviction";
  }
  return "unknown";
}

MemoryLimitProbe ProbeMemoryLimit() { return Probe(); }

Result<std::unique_ptr<MemoryConfinement>> MemoryConfinement::Enter(const MemoryLimitProbe& probe, uint64_t limit) {
  if (probe.method == MemoryLimitMethod::kFadviseEviction)
    return Status::InvalidArgument("MemoryConfinement needs a cgroup method");
  std::unique_ptr<MemoryConfinement> c(new MemoryConfinement());
  const bool v2 = probe.method == MemoryLimitMethod::kCgroupV2;
  c->method_ = probe.method;
  c->parent_ = probe.cgroup_dir;
  c->path_ = probe.cgroup_dir + "/" + NewChildName();
  if (mkdir(c->path_.c_str(), 0755) != 0) return Status::IOError("mkdir " + c->path_ + ": " + ErrnoText(errno));
  const std::string file = v2 ? "memory.max" : "memory.limit_in_bytes";
  Status s = WriteFile(c->path_ + "/" + file, std::to_string(limit));
  std::string guard_note;
  if (s.ok() && !v2) {
    // Started before the process moves in, so that the helper stays outside.
    Result<std::unique_ptr<OomGuard>> guard = OomGuard::Start(c->path_);
    if (guard.ok()) c->guard_ = std::move(guard.value());
    else guard_note = " (no OOM guard: " + guard.status().ToString() + ")";
  }
  if (s.ok()) s = WriteFile(c->path_ + "/cgroup.procs", std::to_string(getpid()));  // every thread
  if (!s.ok()) {
    c->guard_.reset();
    (void)WriteFile(c->parent_ + "/cgroup.procs", std::to_string(getpid()));
    rmdir(c->path_.c_str());
    return s;
  }
  c->inside_ = true;
  c->description_ = MemoryLimitMethodName(probe.method) + " " + file + "=" + std::to_string(limit) + guard_note;
  return c;
}

MemoryConfinement::~MemoryConfinement() { (void)Leave(); }

Status MemoryConfinement::Leave() {
  if (!inside_) return Status::Ok();
  inside_ = false;
  Status s = WriteFile(parent_ + "/cgroup.procs", std::to_string(getpid()));
  guard_.reset();
  // The child is empty now; its remaining page-cache charges move to the parent when it is removed.
  if (rmdir(path_.c_str()) != 0 && s.ok()) s = Status::IOError("rmdir " + path_ + ": " + ErrnoText(errno));
  return s;
}

Result<uint64_t> MemoryConfinement::PeakBytes() const {
  const bool v2 = method_ == MemoryLimitMethod::kCgroupV2;
  Result<std::string> text = ReadFile(path_ + (v2 ? "/memory.peak" : "/memory.max_usage_in_bytes"));
  if (!text.ok()) return text.status();
  return static_cast<uint64_t>(std::stoull(Trim(*text)));
}

Result<uint64_t> ResidentBytes(const std::string& path) {
  uint64_t total = 0;
  DBXB_RETURN_IF_ERROR(ForEachFile(path, [&](const std::string& file) -> Status {
    int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? Status::Ok() : Status::IOError("open " + file + ": " + ErrnoText(errno));
    struct stat st;
    Result<uint64_t> r = fstat(fd, &st) == 0 ? ResidentOf(fd, static_cast<uint64_t>(st.st_size), file)
                                             : Result<uint64_t>(Status::IOError("fstat " + file));
    close(fd);
    if (!r.ok()) return r.status();
    total += *r;
    return Status::Ok();
  }));
  return total;
}

Result<EvictionStats> EvictFromPageCache(const std::string& dir) {
  EvictionStats stats;
  DBXB_RETURN_IF_ERROR(ForEachFile(dir, [&](const std::string& file) -> Status {
    // Read-write so that fsync may flush dirty pages (DONTNEED drops only clean ones); read-only for
    // files we may not write (fsync on them still works on Linux).
    int fd = open(file.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? Status::Ok() : Status::IOError("open " + file + ": " + ErrnoText(errno));
    struct stat st;
    Status s = fstat(fd, &st) == 0 ? Status::Ok() : Status::IOError("fstat " + file + ": " + ErrnoText(errno));
    const uint64_t size = s.ok() ? static_cast<uint64_t>(st.st_size) : 0;
    if (s.ok()) {
      Result<uint64_t> before = ResidentOf(fd, size, file);
      if (fsync(fd) != 0) s = Status::IOError("fsync " + file + ": " + ErrnoText(errno));
      else if (int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); rc != 0)
        s = Status::IOError("posix_fadvise " + file + ": " + ErrnoText(rc));
      Result<uint64_t> after = ResidentOf(fd, size, file);
      if (s.ok() && !before.ok()) s = before.status();
      if (s.ok() && !after.ok()) s = after.status();
      if (s.ok()) {
        ++stats.files;
        stats.bytes += size;
        stats.resident_before += *before;
        stats.resident_after += *after;
      }
    }
    close(fd);
    return s;
  }));
  return stats;
}

std::unique_ptr<PhaseSequence> WithMemoryLimit(std::unique_ptr<PhaseSequence> inner, uint64_t limit_bytes,
                                               std::string evict_dir, MemoryLimitProbe probe) {
  return std::make_unique<MemoryLimitedSequence>(std::move(inner), limit_bytes, std::move(evict_dir), std::move(probe));
}

PhaseSequencesFactory WithMemoryLimit(PhaseSequencesFactory inner, uint64_t limit_bytes) {
  auto probe = std::make_shared<std::once_flag>();
  auto result = std::make_shared<MemoryLimitProbe>();
  return [inner = std::move(inner), limit_bytes, probe, result](const AdapterFactory& engine,
                                                                const PhaseSuiteOptions& options)
             -> Result<std::vector<std::unique_ptr<PhaseSequence>>> {
    Result<std::vector<std::unique_ptr<PhaseSequence>>> sequences = inner(engine, options);
    if (!sequences.ok() || limit_bytes == 0) return sequences;
    std::call_once(*probe, [&] { *result = ProbeMemoryLimit(); });
    for (auto& seq : *sequences) {
      if (seq->dataset() == "disk-bound") seq = WithMemoryLimit(std::move(seq), limit_bytes, options.work_dir, *result);
    }
    return sequences;
  };
}

}  // namespace dbxb
