#include "tests/tool_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace dbxb::test {

namespace fs = std::filesystem;

std::string ToolResult::Describe() const {
  if (timed_out) return "hung (killed after the deadline)";
  if (term_signal != 0) return "killed by signal " + std::to_string(term_signal) + " (" + strsignal(term_signal) + ")";
  return "exit " + std::to_string(exit_code);
}

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

pid_t StartTool(const std::string& tool, const std::vector<std::string>& args, const fs::path& out_file,
                const fs::path& err_file) {
  // Everything the child needs is prepared before fork: only async-signal-safe calls after it.
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(tool.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::string out = out_file.string(), err = err_file.string();
  pid_t pid = fork();
  if (pid != 0) return pid;
  int in_fd = open("/dev/null", O_RDONLY);
  int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in_fd < 0 || out_fd < 0 || err_fd < 0) _exit(126);
  dup2(in_fd, 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  execv(argv[0], argv.data());
  _exit(127);
}

ToolResult WaitTool(pid_t pid, double timeout_seconds) {
  ToolResult r;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0) return r;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

ToolResult RunTool(const std::string& tool, const std::vector<std::string>& args, const fs::path& scratch,
                   double timeout_seconds, const fs::path& cwd) {
  fs::path out_file = scratch / "tool.stdout", err_file = scratch / "tool.stderr";
  std::error_code ec;
  fs::path old_cwd = fs::current_path(ec);
  if (!cwd.empty()) fs::current_path(cwd);
  pid_t pid = StartTool(tool, args, out_file, err_file);
  if (!cwd.empty()) fs::current_path(old_cwd);
  ToolResult r = WaitTool(pid, timeout_seconds);
  r.out = ReadFile(out_file);
  r.err = ReadFile(err_file);
  fs::remove(out_file, ec);
  fs::remove(err_file, ec);
  return r;
}

bool WaitUntil(const std::function<bool()>& done, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

std::vector<pid_t> PidsMentioning(const std::string& text) {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos || name == std::to_string(::getpid())) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line) || line.find(") Z ") != std::string::npos) continue;
    std::string cmdline = ReadFile(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(text) != std::string::npos) pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

int ProcessesMentioning(const std::string& text) { return static_cast<int>(PidsMentioning(text).size()); }

bool PostgresInstalled() {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (fs::exists(entry.path() / "bin" / "postgres")) return true;
  return false;
}

fs::path FreshTestDir(const std::string& prefix) {
  // A parameterized test's name holds a '/' ("StopsWithinASecond/VpsBulkInsert"): kept, the directory
  // would be nested in a parent that removing it leaves behind in /tmp.
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  fs::path dir = fs::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> SplitWords(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string w;
  while (in >> w) words.push_back(w == "''" ? std::string() : w);
  return words;
}

namespace {

// Polls `done` every 25 ms until it holds or the deadline passes.
template <typename Done>
bool PollUntil(Done done, double timeout_seconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return true;
}

}  // namespace

bool WaitForFileText(const fs::path& file, const std::string& text, double timeout_seconds) {
  return PollUntil([&] { return ReadFile(file).find(text) != std::string::npos; }, timeout_seconds);
}

bool WaitForEntries(const fs::path& dir, double timeout_seconds) {
  return PollUntil(
      [&] {
        std::error_code ec;
        return fs::is_directory(dir, ec) && !fs::is_empty(dir, ec);
      },
      timeout_seconds);
}

std::string Fingerprint(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return "<absent>";
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    struct stat st {};
    stat(it->path().c_str(), &st);
    std::string what = it->is_directory() ? "<dir>" : ReadFile(it->path());
    entries[fs::relative(it->path(), dir).string()] =
        what + "|mtime=" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  }
  std::string out;
  for (const auto& [name, what] : entries) out += name + "=" + what + "\n";
  return out;
}

}  // namespace dbxb::test
