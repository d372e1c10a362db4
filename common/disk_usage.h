// The space a directory's files take on disk.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace dbxb {

/// The file that marks a directory inside a database's directory as holding none of the database's data:
/// a private server's own files (PostgreSQL's cluster: its catalog, its preallocated WAL, its log), which
/// DirectoryBytes leaves out so that a database's size means its data for every engine.
inline constexpr char kNotDataMarker[] = ".dbx-bench-not-data";

/// Bytes allocated to the regular files under `dir` (st_blocks x 512, as du counts them), recursively,
/// except under directories that hold kNotDataMarker; symbolic links are not followed. 0 when `dir` does
/// not exist. Files that vanish while it walks are skipped. Never throws.
inline uint64_t DirectoryBytes(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  uint64_t total = 0;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    struct stat st;
    if (lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode)) total += static_cast<uint64_t>(st.st_blocks) * 512;
    if (S_ISDIR(st.st_mode) && lstat((it->path() / kNotDataMarker).c_str(), &st) == 0) it.disable_recursion_pending();
  }
  return total;
}

}  // namespace dbxb
