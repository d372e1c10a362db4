// Directories the tool creates for itself (a run's databases, a server's socket, an initdb template),
// each marked with the process that made it, so that what a killed run left behind can be told from
// what a running one uses, and removed by a later run. Nothing without the mark is ever removed.
#pragma once

#include <sys/types.h>

#include <string>

#include "common/status.h"

namespace dbxb {

/// The temporary directory: $TMPDIR when set and not empty, else /tmp. InvalidArgument naming TMPDIR when
/// it is missing, not a directory, or cannot take a new file (a probe file is created and removed).
Result<std::string> TempDirectory();

/// The marker file every owned directory holds.
inline constexpr char kOwnedMarker[] = ".dbx-bench-owned";

/// Creates "<base>/<prefix>XXXXXX" (mkdtemp, mode 0700 until chmod'ed) with the marker naming this
/// process (its pid and start time). Returns the path. IOError naming the directory when it fails.
Result<std::string> CreateOwnedDir(const std::string& base, const std::string& prefix);

/// True when `dir` holds the marker (of any process).
bool IsOwnedDir(const std::string& dir);

/// Removes every "<base>/<prefix>*" directory whose marker names a process that no longer runs (its pid
/// is gone or now belongs to a process started at another time). Directories without a marker, with a
/// marker of an older format (no process named) or of a running process are left alone. Returns how
/// many were removed. Never throws.
int RemoveAbandonedDirs(const std::string& base, const std::string& prefix);

}  // namespace dbxb
