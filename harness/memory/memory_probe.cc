#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/memory/memory_files.h"
#include "harness/memory/memory_limit.h"

// Which memory limit works here: the cgroup v2 or v1 hierarchy this process lives in, tried with an
// empty child, or the page-cache eviction fallback.
namespace dbxb {
namespace {

using namespace memory_internal;

struct CgroupMount {
  std::string mount_point;
  std::string root;  // the hierarchy path mounted there
};

// Finds the mount of the cgroup2 hierarchy (v2 = true) or of the v1 hierarchy carrying the memory
// controller, from /proc/self/mountinfo: "<id> <parent> <dev> <root> <mount point> <opts> ... - <fstype> <src> <super
// opts>".
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
    bool match =
        v2 ? fstype == "cgroup2" : fstype == "cgroup" && ("," + super_opts + ",").find(",memory,") != std::string::npos;
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
    bool match =
        v2 ? hierarchy == "0" && controllers.empty() : ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (match) {
      *out = line.substr(c2 + 1);
      return true;
    }
  }
  return false;
}

std::string CgroupDir(const CgroupMount& mount, std::string path) {
  if (mount.root != "/" && path.compare(0, mount.root.size(), mount.root) == 0) path = path.substr(mount.root.size());
  return (std::filesystem::path(mount.mount_point) / std::filesystem::path(path).relative_path())
      .lexically_normal()
      .string();
}

// This process's cgroup directory in the cgroup2 hierarchy (v2 = true) or the v1 memory hierarchy, into
// *dir; false, with a note saying why, where there is none.
bool OwnCgroupDir(bool v2, std::string* dir, std::vector<std::string>* notes) {
  CgroupMount mount;
  std::string own;
  const std::string name = v2 ? "cgroup v2" : "cgroup v1";
  if (!FindCgroupMount(v2, &mount)) {
    notes->push_back(name + (v2 ? ": no cgroup2 file system mounted" : ": no memory hierarchy mounted"));
    return false;
  }
  if (!OwnCgroupPath(v2, &own)) {
    notes->push_back(name + " (" + mount.mount_point +
                     "): " + (v2 ? "this process has no v2 cgroup" : "this process is in no memory cgroup"));
    return false;
  }
  *dir = CgroupDir(mount, own);
  return true;
}

// Creates an empty child, sets a limit on it, reads it back and removes it: proves the method works here.
Status TryChild(const std::string& dir, bool v2) {
  std::string child = dir + "/" + NewChildName() + "-probe";
  if (mkdir(child.c_str(), 0755) != 0) return Status::IOError("mkdir " + child + ": " + ErrnoText(errno));
  const char* file = v2 ? "memory.max" : "memory.limit_in_bytes";
  Status s = WriteFile(child + "/" + file, "268435456");
  if (s.ok()) {
    Result<std::string> back = ReadFile(child + "/" + file);
    if (!back.ok())
      s = back.status();
    else if (Trim(*back) != "268435456")
      s = Status::IOError(std::string(file) + " reads back as '" + Trim(*back) + "'");
  }
  rmdir(child.c_str());
  return s;
}

MemoryLimitProbe Probe() {
  MemoryLimitProbe probe;
  bool found = false;
  std::string dir;
  // cgroup v2
  if (OwnCgroupDir(true, &dir, &probe.notes)) {
    Result<std::string> controllers = ReadFile(dir + "/cgroup.controllers");
    std::string where = "cgroup v2 (" + dir + "): ";
    // " hugetlb memory pids ": the controllers as space-delimited words.
    std::string words(" ");
    if (controllers.ok()) words.append(Trim(*controllers)).append(" ");
    if (!controllers.ok()) {
      probe.notes.push_back(where + controllers.status().ToString());
    } else if (words.find(" memory ") == std::string::npos) {
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
  if (OwnCgroupDir(false, &dir, &probe.notes)) {
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

}  // namespace

std::string MemoryLimitMethodName(MemoryLimitMethod method) {
  switch (method) {
    case MemoryLimitMethod::kCgroupV2:
      return "cgroup-v2";
    case MemoryLimitMethod::kCgroupV1:
      return "cgroup-v1";
    case MemoryLimitMethod::kFadviseEviction:
      return "fadvise-dontneed eviction";
  }
  return "unknown";
}

MemoryLimitProbe ProbeMemoryLimit() { return Probe(); }

}  // namespace dbxb
