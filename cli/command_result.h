// What a CLI command hands back to main(): the exit code, and the one line main() prints on stderr.
#pragma once

#include <string>
#include <utility>

namespace dbxb {

/// The exit codes of dbx-bench (see cli/main.cc).
inline constexpr int kExitCodeSuccess = 0;
inline constexpr int kExitCodeFailure = 1;        ///< run: a benchmark failed; compare: a regression over the gate
inline constexpr int kExitCodeBadInput = 2;       ///< bad arguments, missing, corrupt or incompatible files
inline constexpr int kExitCodeInterrupted = 130;  ///< Ctrl-C or SIGTERM (128 + SIGINT, as shells report it)

struct CommandResult {
  int exit_code = kExitCodeSuccess;
  std::string error;  ///< one line for stderr (without the "dbx-bench: " prefix); empty = nothing to say

  static CommandResult Ok() { return {}; }
  static CommandResult Failed(int code, std::string message) { return {code, std::move(message)}; }
};

/// Exit code 2 with `message` (which names the input and the problem): every command's bad input.
inline CommandResult BadInput(std::string message) {
  return CommandResult::Failed(kExitCodeBadInput, std::move(message));
}

}  // namespace dbxb
