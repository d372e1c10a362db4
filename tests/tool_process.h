// Running the built dbx-bench binary from a test: argv without a shell, stdout and stderr captured,
// a deadline, and an exact account of how the process ended (exit code, or the signal that killed it),
// so that a test can tell a clean error from a crash, an abort or a hang.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace dbxb::test {

struct ToolResult {
  int exit_code = -1;      ///< the exit status; -1 when the process did not exit normally
  int term_signal = 0;     ///< the signal that ended it (SIGSEGV, SIGABRT, ...), 0 when it exited
  bool timed_out = false;  ///< killed by RunTool after the deadline
  std::string out, err;

  /// "exit 2", "killed by signal 11 (Segmentation fault)", "hung (killed after 60 s)".
  std::string Describe() const;
};

/// Starts `tool` with `args`, stdin from /dev/null, stdout and stderr to files in `scratch` (read
/// back into the result), in working directory `cwd` (empty: inherited). Kills it with SIGKILL after
/// `timeout_seconds`.
ToolResult RunTool(const std::string& tool, const std::vector<std::string>& args, const std::filesystem::path& scratch,
                   double timeout_seconds = 60, const std::filesystem::path& cwd = {});

/// Starts `tool` in the background (stdout/stderr to the given files); returns its pid.
pid_t StartTool(const std::string& tool, const std::vector<std::string>& args, const std::filesystem::path& out_file,
                const std::filesystem::path& err_file);
/// Waits for `pid` up to `timeout_seconds` (then SIGKILLs it). Fills exit_code/term_signal/timed_out.
ToolResult WaitTool(pid_t pid, double timeout_seconds);

/// A command line written as words separated by spaces, for tests that keep their cases as text: no
/// quoting, and a word written '' is the empty argument.
std::vector<std::string> SplitWords(const std::string& text);

/// Waits up to `timeout_seconds` until `file` contains `text` (e.g. a line the tool flushes when a
/// benchmark finished). False on timeout.
bool WaitForFileText(const std::filesystem::path& file, const std::string& text, double timeout_seconds = 60);
/// Waits up to `timeout_seconds` until `dir` exists and holds an entry (e.g. the run's work directory
/// under --data-dir: it is measuring). False on timeout.
bool WaitForEntries(const std::filesystem::path& dir, double timeout_seconds = 60);

/// A fresh, empty directory for the running GoogleTest test, <temp dir>/<prefix>-<pid>-<test name>
/// (whatever an earlier run left there is removed first). The caller removes it.
std::filesystem::path FreshTestDir(const std::string& prefix);

/// Calls `done` every 50 ms until it returns true or `seconds` pass; returns its last answer.
bool WaitUntil(const std::function<bool()>& done, double seconds);

/// Live processes (zombies and this test left out) whose command line, its arguments joined by spaces,
/// contains `text`: a server started under a directory mentions it ("postgres -D <dir>/.../data").
int ProcessesMentioning(const std::string& text);

/// The pids of those processes.
std::vector<pid_t> PidsMentioning(const std::string& text);

/// True when PostgreSQL's server programs are installed (/usr/lib/postgresql/*/bin/postgres).
bool PostgresInstalled();

/// Number of '\n' in `s`.
int CountLines(const std::string& s);
std::string ReadFile(const std::filesystem::path& p);

/// Everything under a directory: relative path -> contents (directories map to "<dir>"), with the
/// modification time folded in, so that "untouched" can be checked by equality.
std::string Fingerprint(const std::filesystem::path& dir);

}  // namespace dbxb::test
