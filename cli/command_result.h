// What a CLI command hands back to main(): the exit code, and the one line main() prints on stderr.
#pragma once

#include <string>
#include <utility>

namespace dbxb {

/// The exit codes of dbx-bench (see cli/main.cc).
inline constexpr int kExitCodeSuccess = 0;
inline constexpr int kExitCodeFailure = 1;   ///< run: a benchmark failed; compare: a regression over the gate
inline constexpr int kExitCodeBadInput = 2;  ///< bad arguments, missing, corrupt or incompatible files

struct CommandResult {
  int exit_code = kExitCodeSuccess;
  std::string error;  ///< one line for stderr (without the "dbx-bench: " prefix); empty = nothing to say

  static CommandResult Ok() { return {}; }
  static CommandResult Failed(int code, std::string message) { return {code, std::move(message)}; }
};

}  // namespace dbxb
