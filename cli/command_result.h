// What a CLI command hands back to main(): the exit code, and the one line main() prints on stderr.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>
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

/// `message` as one line for a terminal: control characters (a newline in a path, the ESC of an ANSI
/// sequence, C1 controls in UTF-8) are written as escapes ("\n", "\x1b"), so that what a user typed
/// can neither split the line nor drive the terminal. Every line dbx-bench prints on stderr goes
/// through this (cli/main.cc).
inline std::string OneLine(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  for (size_t i = 0; i < message.size(); ++i) {
    const auto c = static_cast<unsigned char>(message[i]);
    const bool c1 = c == 0xc2 && i + 1 < message.size() && static_cast<unsigned char>(message[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(message[i + 1]) <= 0x9f;
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else if (c1)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(message[++i]));
    else
      out += static_cast<char>(c);
  }
  return out;
}

}  // namespace dbxb
