// Small helpers of the memory-limit files (harness/memory/memory_limit.h): cgroup and proc files read and
// written the way the kernel wants them. Internal to harness/memory/*.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace dbxb::memory_internal {

/// strerror(err).
std::string ErrnoText(int err);
/// The whole file. IOError naming the path.
Result<std::string> ReadFile(const std::string& path);
/// Writes `text` with one write(2), as cgroup files require. IOError with the kernel's reason.
Status WriteFile(const std::string& path, const std::string& text);
/// `s` without trailing newlines and spaces.
std::string Trim(std::string s);
/// A decimal unsigned integer, surrounding whitespace allowed (a cgroup counter). InvalidArgument
/// naming `what` when the text is anything else; never throws.
Status ParseDecimal(std::string_view text, const std::string& what, uint64_t* out);
/// "dbxb-<pid>-<n>": a fresh name for a child cgroup of this process. Thread-safe.
std::string NewChildName();

}  // namespace dbxb::memory_internal
