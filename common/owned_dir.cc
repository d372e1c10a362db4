#include "common/owned_dir.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/process_usage.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

constexpr char kMarkerText[] = "created by dbx-bench; removed when the run ends\n";

// The marker's "pid <pid> <start time>" line, or false (no marker, or one without it).
bool MarkerOwner(const fs::path& dir, pid_t* pid, uint64_t* start_time) {
  std::ifstream in(dir / kOwnedMarker);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    long long p = 0;
    unsigned long long t = 0;
    if (words >> word && word == "pid" && words >> p >> t && p > 0) {
      *pid = static_cast<pid_t>(p);
      *start_time = t;
      return true;
    }
  }
  return false;
}

}  // namespace

Result<std::string> TempDirectory() {
  const char* env = std::getenv("TMPDIR");
  const bool from_env = env != nullptr && *env != '\0';
  const std::string dir = from_env ? env : "/tmp";
  const std::string name = from_env ? "TMPDIR " + dir : dir + " (the temporary directory, TMPDIR unset)";
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0) return Status::InvalidArgument(name + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) return Status::InvalidArgument(name + ": not a directory");
  std::string probe = dir + "/.dbx-bench-probe-XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0) return Status::InvalidArgument(name + ": cannot create a file: " + std::strerror(errno));
  close(fd);
  unlink(probe.c_str());
  return dir;
}

Result<std::string> CreateOwnedDir(const std::string& base, const std::string& prefix) {
  std::string dir = (fs::path(base) / (prefix + "XXXXXX")).string();
  if (mkdtemp(dir.data()) == nullptr)
    return Status::IOError("cannot create a directory in " + base + ": " + std::strerror(errno));
  std::ofstream marker(fs::path(dir) / kOwnedMarker);
  marker << kMarkerText << "pid " << getpid() << " " << ProcessStartTime(getpid()).value_or(0) << "\n";
  if (!marker.flush()) {
    std::error_code ec;
    fs::remove_all(dir, ec);
    return Status::IOError("cannot write the marker of " + dir);
  }
  return dir;
}

bool IsOwnedDir(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kOwnedMarker, ec);
}

int RemoveAbandonedDirs(const std::string& base, const std::string& prefix) {
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec) || entry.is_symlink(ec)) continue;
    pid_t pid = 0;
    uint64_t start_time = 0;
    if (!MarkerOwner(entry.path(), &pid, &start_time)) continue;
    const std::optional<uint64_t> running_since = ProcessStartTime(pid);
    if (running_since && (start_time == 0 || *running_since == start_time)) continue;  // its owner still runs
    std::error_code rm;
    fs::remove_all(entry.path(), rm);
    if (!rm) ++removed;
  }
  return removed;
}

}  // namespace dbxb
