// Writing a result file so that readers see either the old file or the complete new one, never a
// torn write, even if the process or the machine dies half-way.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"

namespace dbxb {

/// Replaces the file at `path` with `contents`: writes a temporary file in the same directory
/// (created with mode 0666 less the umask), fsyncs it, renames it over `path`, then fsyncs the
/// directory so that the rename itself is durable.
///
/// On error before the rename, nothing at `path` is changed and the temporary file is removed.
/// Returns IOError naming the path and the failing step (with strerror). If only the final
/// directory fsync fails, `path` already holds the new contents, and IOError says so.
/// REQUIRES: the directory of `path` exists. Thread-safe for distinct paths.
Status WriteFileAtomically(const std::string& path, std::string_view contents);

/// Reads the whole file at `path` into *contents. IOError naming the path if it cannot be read.
Status ReadFileToString(const std::string& path, std::string* contents);

}  // namespace dbxb
