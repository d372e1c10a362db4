// Collects the `context` block of a run: machine, build, libraries, command line.
#pragma once

#include <string>

#include "adapters/adapter.h"
#include "records/result.h"

namespace dbxb {

/// Fills the machine and build facts of `ctx` (date, host, CPU, memory, kernel, compiler, flags,
/// build type, git commit, tool version). Facts that cannot be read are left as "unknown".
void CollectMachineAndBuild(RunContext* ctx);

/// The library version and build of an engine, as its adapter reports them.
LibraryInfo DescribeLibrary(const AdapterFactory& engine);

/// The tool's version string, e.g. "0.1.0 (abc1234, dirty)".
std::string ToolVersion();

/// The file-system type holding `path` ("ext4", "tmpfs", "overlay", ...), for the methodology.
std::string FileSystemType(const std::string& path);

}  // namespace dbxb
