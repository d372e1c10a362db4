#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
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
#include <cstring>
#include <new>

#include "harness/memory/memory_files.h"
#include "harness/memory/memory_limit.h"

// Confining this process to a child cgroup with a memory limit, and the v1 OOM guard.
namespace dbxb {

using namespace memory_internal;

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

void ReleaseFreedHeap() {
#ifdef __GLIBC__
  (void)malloc_trim(0);
#endif
}

MemoryConfinement::MemoryConfinement() = default;

uint64_t MemoryConfinement::oom_events() const { return guard_ != nullptr ? guard_->events() : 0; }

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
    if (guard.ok())
      c->guard_ = std::move(guard.value());
    else
      guard_note = " (no OOM guard: " + guard.status().ToString() + ")";
  }
  // Heap that earlier engines of this run freed goes back to the OS first. glibc keeps it resident,
  // charged to the cgroup it was allocated in; the engine about to run would reuse it and so get
  // memory outside its limit (LMDB, run fourth, showed 678 MiB of anonymous memory; 19 MiB alone).
  ReleaseFreedHeap();
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
  uint64_t bytes = 0;
  DBXB_RETURN_IF_ERROR(ParseDecimal(*text, path_ + (v2 ? "/memory.peak" : "/memory.max_usage_in_bytes"), &bytes));
  return bytes;
}

}  // namespace dbxb
