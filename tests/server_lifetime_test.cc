// No server outlives the tool, whatever ends it (issue 32): `run --engines postgres` killed with SIGKILL,
// hung up (SIGHUP), its stdout closed by `head -n 4` (SIGPIPE), or interrupted twice (a second Ctrl-C).
// After each, within 5 s: no process of its server runs, and nothing it made is left — its work
// directory under --data-dir, the socket and initdb template directories in the temporary directory.
// Skipped when the PostgreSQL server programs are not installed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

const std::string kTool = DBXB_TOOL;

// The PostgreSQL processes working in a directory under `base`: the servers a run there started.
int ServerProcessesUnder(const fs::path& base) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const fs::path cwd = fs::read_symlink(entry.path() / "cwd", ec);
    if (ec || cwd.string().rfind(base.string(), 0) != 0) continue;
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    if (std::getline(comm, name) && name == "postgres") ++n;  // not the template's copy (cp) before it
  }
  return n;
}

// Directories "dbx-bench-pg-*" of the temporary directory whose marker names process `pid`.
int TempDirsOf(pid_t pid) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), ec)) {
    if (entry.path().filename().string().rfind("dbx-bench-pg-", 0) != 0) continue;
    std::ifstream marker(entry.path() / ".dbx-bench-owned");
    std::stringstream text;
    text << marker.rdbuf();
    if (text.str().find("pid " + std::to_string(pid) + " ") != std::string::npos) ++n;
  }
  return n;
}

class ServerLifetimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PostgresInstalled()) GTEST_SKIP() << "PostgreSQL's server programs are not installed";
    dir_ = FreshTestDir("dbxb-server-lifetime");
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    fs::create_directories(dir_ / "data");
    fs::permissions(dir_ / "data", fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // A run on postgres of three phases of `phase` each on a small table.
  std::vector<std::string> RunArgs(const std::string& phase = "20s") const {
    return {"run",
            "--suite",
            "sqlite-vps",
            "--engines",
            "postgres",
            "--records",
            "20000",
            "--workloads",
            "select-pk,update,mixed-oltp",
            "--duration",
            phase,
            "--no-overhead",
            "--data-dir",
            (dir_ / "data").string(),
            "--out",
            (dir_ / "out").string()};
  }

  // Starts the run and waits until its server runs.
  pid_t StartRun() {
    pid_t pid = StartTool(kTool, RunArgs(), dir_ / "stdout", dir_ / "stderr");
    EXPECT_TRUE(WaitUntil([&] { return ServerProcessesUnder(dir_ / "data") > 0; }, 60))
        << "the server did not start: " << ReadFile(dir_ / "stderr");
    return pid;
  }

  // Nothing of the run is left within 5 s: no server process, no directory of it.
  void ExpectNothingLeft(pid_t pid) {
    EXPECT_TRUE(WaitUntil([&] { return ServerProcessesUnder(dir_ / "data") == 0; }, 5))
        << ServerProcessesUnder(dir_ / "data") << " server processes still run";
    EXPECT_TRUE(WaitUntil([&] { return ProcessesMentioning((dir_ / "data").string()) == 0; }, 5))
        << "its orphan guards finish too";
    EXPECT_TRUE(WaitUntil([&] { return TempDirsOf(pid) == 0; }, 5)) << "its dbx-bench-pg-* directories";
    EXPECT_TRUE(WaitUntil([&] { return fs::is_empty(dir_ / "data"); }, 5)) << "its work directory";
  }

  fs::path dir_;
};

TEST_F(ServerLifetimeTest, SigkillLeavesNoServerAndNoFiles) {
  const pid_t pid = StartRun();
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  const ToolResult r = WaitTool(pid, 10);
  EXPECT_EQ(r.term_signal, SIGKILL);
  ExpectNothingLeft(pid);
}

TEST_F(ServerLifetimeTest, SighupStopsTheRunAndItsServer) {
  const pid_t pid = StartRun();
  ASSERT_EQ(kill(pid, SIGHUP), 0);
  const ToolResult r = WaitTool(pid, 30);
  EXPECT_EQ(r.exit_code, 130) << r.Describe() << ReadFile(dir_ / "stderr");
  ExpectNothingLeft(pid);
}

TEST_F(ServerLifetimeTest, ASecondInterruptLeavesNoServerAndNoFiles) {
  const pid_t pid = StartRun();
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ASSERT_TRUE(WaitForFileText(dir_ / "stderr", "interrupted", 10));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const ToolResult r = WaitTool(pid, 10);
  EXPECT_EQ(r.exit_code, 130) << r.Describe();
  ExpectNothingLeft(pid);
}

TEST_F(ServerLifetimeTest, AClosedStdoutStopsTheRunAndItsServer) {
  // `dbx-bench run ... | head -n 4`: the reader goes away after four lines.
  const fs::path fifo = dir_ / "stdout.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const pid_t pid = StartTool(kTool, RunArgs("2s"), fifo, dir_ / "stderr");
  int reader = open(fifo.c_str(), O_RDONLY);  // waits for the tool to open its end
  ASSERT_GE(reader, 0);
  int lines = 0;
  char c = 0;
  while (lines < 4 && read(reader, &c, 1) == 1) lines += c == '\n';
  ASSERT_EQ(lines, 4) << ReadFile(dir_ / "stderr");
  close(reader);
  // The tool stops at the broken pipe (130), or, when its output was still buffered, finishes (0);
  // either way it writes its results and stops its server.
  const ToolResult r = WaitTool(pid, 60);
  EXPECT_TRUE(r.exit_code == 130 || r.exit_code == 0) << r.Describe() << ReadFile(dir_ / "stderr");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "results.json")) << "the finished phases are written";
  ExpectNothingLeft(pid);
}

// The children of `parent` whose command line mentions `text`.
std::vector<pid_t> ChildrenMentioning(pid_t parent, const std::string& text) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line) || line.rfind(')') == std::string::npos) continue;
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    std::ifstream in(entry.path() / "cmdline");
    std::stringstream cmdline;
    cmdline << in.rdbuf();
    if (ppid == parent && cmdline.str().find(text) != std::string::npos)
      out.push_back(static_cast<pid_t>(std::stol(entry.path().filename().string())));
  }
  return out;
}

TEST_F(ServerLifetimeTest, ALaterRunRemovesWhatAKilledRunAndItsGuardsLeft) {
  // Everything killed at once (as the OOM killer or `kill -9` of every process might): nothing cleans up.
  const pid_t pid = StartRun();
  const std::vector<pid_t> guards = ChildrenMentioning(pid, "dbx-bench-orphan-guard");
  ASSERT_GE(guards.size(), 3u) << "the work directory's, the template's and the server's";
  for (pid_t g : guards) kill(g, SIGKILL);
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  (void)WaitTool(pid, 10);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {  // the server, wherever it was reparented
    const fs::path cwd = fs::read_symlink(entry.path() / "cwd", ec);
    if (!ec && cwd.string().rfind((dir_ / "data").string(), 0) == 0)
      kill(static_cast<pid_t>(std::stol(entry.path().filename().string())), SIGKILL);
  }
  ASSERT_TRUE(WaitUntil([&] { return ServerProcessesUnder(dir_ / "data") == 0; }, 10));
  ASSERT_FALSE(fs::is_empty(dir_ / "data")) << "the killed run's work directory is left";
  ASSERT_GT(TempDirsOf(pid), 0) << "and its template";

  std::vector<std::string> later = {"run",        "--suite",
                                    "sqlite-vps", "--engines",
                                    "postgres",   "--records",
                                    "2000",       "--workloads",
                                    "select-pk",  "--duration",
                                    "1s",         "--no-overhead",
                                    "--data-dir", (dir_ / "data").string(),
                                    "--out",      (dir_ / "out2").string()};
  const ToolResult r = RunTool(kTool, later, dir_, 120);
  EXPECT_EQ(r.exit_code, 0) << r.Describe() << r.err;
  EXPECT_TRUE(fs::is_empty(dir_ / "data")) << "the killed run's work directory is removed";
  EXPECT_EQ(TempDirsOf(pid), 0) << "and its template";
}

}  // namespace
}  // namespace dbxb::test
