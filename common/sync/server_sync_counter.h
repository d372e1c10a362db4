// A server's sync counter as the tool sees it: the counting library (sync_preload.cc, carried inside the
// tool) written next to the server's files, the counter file it counts into, and the count read back.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace dbxb {

class ServerSyncCounter {
 public:
  /// Writes the library and a zeroed counter file into `dir` (owned by `owner` when given, so that a
  /// server running as that user can map it) and maps the counter. IOError naming the file on failure.
  static Result<std::unique_ptr<ServerSyncCounter>> Create(const std::string& dir,
                                                           std::optional<std::pair<uid_t, gid_t>> owner);
  ~ServerSyncCounter();
  ServerSyncCounter(const ServerSyncCounter&) = delete;
  ServerSyncCounter& operator=(const ServerSyncCounter&) = delete;

  /// The environment that preloads the library into a program: LD_PRELOAD and the counter file.
  std::vector<std::string> Environment() const;
  /// The sync calls counted so far; nullopt while no process has loaded the library (it was not
  /// preloaded, e.g. from a file system mounted noexec). Thread-safe.
  std::optional<uint64_t> Read() const;

 private:
  ServerSyncCounter() = default;

  std::string library_path_;
  std::string counter_path_;
  void* map_ = nullptr;
};

}  // namespace dbxb
