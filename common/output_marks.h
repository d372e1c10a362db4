// The marks by which the tool knows its own outputs (used by common/file_policy.cc only): in each
// directory it wrote an output to, kOutputMarksFile lists those files, one line each:
//
//   <writer> TAB <device> TAB <inode> TAB <size> TAB <mtime s>.<mtime ns> TAB <file name, escaped>
//
// A file is ours for `writer` while the line of its name names that writer and the file still has
// that identity (device and inode) and state (size and modification time): a file replaced, edited or
// copied since is no longer ours.
#pragma once

#include <string>
#include <string_view>

namespace dbxb {

/// True when the regular file at `path` was written by `writer` and is unchanged since.
bool IsMarkedOutput(const std::string& path, std::string_view writer);

/// Records the file at `path`, as it is now, as written by `writer`, and drops the lines of files that
/// are gone or changed. Best effort: when the marks file cannot be read or written (or is not a regular
/// file), nothing is recorded, and the output can later only be replaced with --force.
void MarkOutput(const std::string& path, std::string_view writer);

}  // namespace dbxb
