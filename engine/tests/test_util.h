// Helpers shared by the engine tests: a fresh temporary directory per test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace dbx::test {

/// A new empty directory, removed when the object dies: under $DBX_TEST_DIR if set, else /dev/shm
/// when present (fsync is free on tmpfs, which keeps flush-heavy tests fast; the crash tests kill
/// processes, not the machine, so tmpfs keeps their semantics), else $TMPDIR or /tmp.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("DBX_TEST_DIR");
    if (base == nullptr && std::filesystem::is_directory("/dev/shm")) base = "/dev/shm";
    if (base == nullptr) base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr ? base : "/tmp") + "/dbx_test_XXXXXX";
    char* p = ::mkdtemp(tmpl.data());
    if (p == nullptr) ADD_FAILURE() << "mkdtemp failed";
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  /// A subdirectory name that does not exist yet.
  std::string Sub(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// The paths of the files in `dir` whose extension is `ext` (".wal", ".seg"), sorted.
inline std::vector<std::string> FilesWithExt(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dbx::test
