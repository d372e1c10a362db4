// End-to-end tests of the built binary: what a user sees on the command line and in the files.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-cli-test"); }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the tool with `words` (see SplitWords), capturing stdout and stderr.
  ToolResult Run(const std::string& words) { return RunTool(DBXB_TOOL, SplitWords(words), dir_); }

  // Starts `run` of a read-only YCSB workload of `records` rows on `engine`, for up to 60 s, writing to
  // out/ with its data under data/ and its console in log.txt.
  pid_t StartReadRun(const std::string& engine, int records) {
    const fs::path workload = dir_ / "workload";
    std::ofstream(workload) << "recordcount=" << records
                            << "\noperationcount=0\nreadproportion=1\nupdateproportion=0\n";
    return StartTool(DBXB_TOOL,
                     {"run", "--workload", workload.string(), "--engines", engine, "--duration", "60s", "--no-overhead",
                      "--out", (dir_ / "out").string(), "--data-dir", (dir_ / "data").string()},
                     "/dev/null", dir_ / "log.txt");
  }

  // The processes whose command line names data/: a postgres server started by StartReadRun.
  int ServersOfTheRun() { return ProcessesMentioning((dir_ / "data").string()); }

  fs::path dir_;
};

TEST_F(CliTest, ListNamesEveryEngineWithItsVersion) {
  ToolResult o = Run("list");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* engine : {"sqlite", "lmdb", "rocksdb", "leveldb", "wiredtiger", "postgres", "null"})
    EXPECT_NE(o.out.find(engine), std::string::npos) << engine;
  EXPECT_NE(o.out.find("SQLite 3."), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("LevelDB 1."), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("WiredTiger 11.3."), std::string::npos)
      << "the release build (thirdparty/wiredtiger.sh): " << o.out;
  EXPECT_NE(o.out.find("PostgreSQL 1"), std::string::npos) << "the server's version: " << o.out;
  EXPECT_NE(o.out.find("RocksDB 11."), std::string::npos) << "the release build (thirdparty/rocksdb.sh): " << o.out;
  EXPECT_NE(o.out.find("SQLite 3.54."), std::string::npos) << "the release build (thirdparty/sqlite.sh): " << o.out;
  EXPECT_NE(o.out.find("-O3 -DNDEBUG"), std::string::npos) << "RocksDB's build flavour is shown: " << o.out;
  EXPECT_NE(o.out.find("from crates.io librocksdb-sys 0.19.0+11.8.1"), std::string::npos) << "its source: " << o.out;
  EXPECT_NE(o.out.find("LMDB 0.9.36"), std::string::npos) << "the release build (thirdparty/lmdb.sh): " << o.out;
  EXPECT_NE(o.out.find("from Debian 12 package libleveldb-dev"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("dbx-micro"), std::string::npos);
}

TEST_F(CliTest, VersionAndHelp) {
  ToolResult v = Run("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("0."), std::string::npos) << v.out;
  for (const char* cmd : {"--help", "list --help", "run --help"}) {
    ToolResult h = Run(cmd);
    EXPECT_EQ(h.exit_code, 0) << cmd;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << cmd << ": " << h.out;
  }
}

// Bad input: one line on stderr naming the input and the problem, exit code 2, nothing written.
TEST_F(CliTest, BadInputIsOneLineAndExitTwo) {
  fs::path out = dir_ / "out";
  struct Case {
    std::string args;
    std::string names;  // what the message must mention
  };
  const Case cases[] = {
      {"run --engines nosuch", "nosuch"},
      {"run --engines sqlite,sqlite", "sqlite"},
      {"run --records abc", "--records"},
      {"run --records 0", "--records"},
      {"run --records -5", "--records"},
      {"run --records 99999999999999999999999", "--records"},
      {"run --key-size 4", "--key-size"},
      {"run --durability sometimes", "--durability"},
      {"run --cache-size 12XB", "--cache-size"},
      {"run --format xml", "--format"},
      {"run --suite nosuch", "--suite"},
      {"run --workloads insert,fly", "fly"},
      {"run --warmup 5x", "--warmup"},
      {"run --measurement -1s", "--measurement"},
      {"run --samples 3", "--samples"},
      {"run --seed x", "--seed"},
      {"run --baseline lmdb --engines sqlite", "--baseline"},
      {"run --suite ycsb", "--workload"},
      {"run --workload /nonexistent/workloadz", "workloadz"},
      {"run --threads 2", "--threads"},
      {"run --target-rate 100", "--target-rate"},
      {"run --suite sqlite-vps --threads 0", "--threads"},
      {"run --suite sqlite-vps --target-rate fast", "--target-rate"},
      {"run --suite sqlite-vps --samples 20", "--samples"},
      {"run --suite sqlite-vps --workloads select-pk,fly", "fly"},
      {"run --suite sqlite-vps --dataset warm", "--dataset"},
      {"run --suite sqlite-vps --duration 0s", "--duration"},
      {"run --nosuchflag", "nosuchflag"},
      {"frobnicate", "frobnicate"},
      {"", "subcommand"},
  };
  for (const auto& c : cases) {
    ToolResult o = Run(c.args + " --out " + out.string());
    if (c.args.empty() || c.args == "frobnicate") o = Run(c.args);
    EXPECT_EQ(o.exit_code, 2) << c.args << "\n" << o.err;
    EXPECT_EQ(CountLines(o.err), 1) << c.args << "\n" << o.err;
    EXPECT_NE(o.err.find(c.names), std::string::npos) << c.args << "\n" << o.err;
    EXPECT_FALSE(fs::exists(out)) << c.args << ": nothing may be written on bad input";
  }
}

TEST_F(CliTest, UnwritableOrFileOutputDirectoryIsBadInput) {
  fs::path file = dir_ / "a-file";
  std::ofstream(file) << "precious";
  ToolResult o = Run("run --engines null --quick --out " + file.string());
  EXPECT_EQ(o.exit_code, 2) << o.err;
  EXPECT_EQ(CountLines(o.err), 1) << o.err;
  std::ifstream in(file);
  std::string content;
  in >> content;
  EXPECT_EQ(content, "precious") << "a file named as --out is never overwritten";
}

// Ctrl-C: the finished benchmarks are written, marked incomplete; temporary data is removed; exit 130.
TEST_F(CliTest, InterruptWritesFinishedBenchmarksMarkedIncomplete) {
  fs::path out = dir_ / "out", data = dir_ / "data", console = dir_ / "console.txt";
  // Each benchmark measures for 2 s: the interrupt comes while the second one runs.
  pid_t pid = StartTool(
      DBXB_TOOL,
      {"run", "--engines", "null", "--records", "1000", "--warmup", "10ms", "--measurement", "2s", "--samples", "10",
       "--resamples", "1000", "--no-overhead", "--out", out.string(), "--data-dir", data.string()},
      console, dir_ / "log.txt");
  // The first benchmark's summary is on the console (flushed per benchmark): interrupt the second.
  ASSERT_TRUE(WaitForFileText(console, "time:")) << ReadFile(dir_ / "log.txt");
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ToolResult r = WaitTool(pid, 120);
  ASSERT_EQ(r.term_signal, 0) << r.Describe();
  EXPECT_EQ(r.exit_code, 130) << ReadFile(dir_ / "log.txt");
  std::ifstream in(out / "results.json");
  ASSERT_TRUE(in.good()) << "results.json is written on interrupt";
  nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_TRUE(doc["context"]["incomplete"].get<bool>());
  EXPECT_EQ(doc["benchmarks"].size(), 1u) << "the finished benchmark, not the interrupted one";
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";
}

// Ctrl-C while postgres runs: its private server is stopped and its directory removed.
TEST_F(CliTest, InterruptStopsThePostgresServer) {
  pid_t pid = StartReadRun("postgres", 200);
  // The server is up once a postmaster mentions the run's data directory.
  ASSERT_TRUE(WaitUntil([&] { return ServersOfTheRun() > 0; }, 60)) << ReadFile(dir_ / "log.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // into the measured run phase
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ToolResult r = WaitTool(pid, 120);
  ASSERT_EQ(r.term_signal, 0) << r.Describe();
  EXPECT_EQ(r.exit_code, 130) << ReadFile(dir_ / "log.txt");
  EXPECT_EQ(ServersOfTheRun(), 0) << "the server is stopped";
  EXPECT_TRUE(fs::is_empty(dir_ / "data")) << "its directory is removed";
}

// A second Ctrl-C exits at once, skipping every Close: the postgres server is still ended.
TEST_F(CliTest, SecondInterruptStillEndsThePostgresServer) {
  pid_t pid = StartReadRun("postgres", 200);
  ASSERT_TRUE(WaitUntil([&] { return ServersOfTheRun() > 0; }, 60)) << ReadFile(dir_ / "log.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ToolResult r = WaitTool(pid, 60);
  EXPECT_EQ(r.exit_code, 130) << r.Describe();
  // SIGQUIT: immediate shutdown.
  EXPECT_TRUE(WaitUntil([&] { return ServersOfTheRun() == 0; }, 30)) << "the server is ended";
}

// Ctrl-C during a phase: the phases so far are written, the cut one marked incomplete; exit 130.
TEST_F(CliTest, InterruptDuringAPhaseWritesItMarkedIncomplete) {
  const fs::path out = dir_ / "out", data = dir_ / "data";
  pid_t pid = StartReadRun("null", 100);
  ASSERT_TRUE(WaitForEntries(data)) << ReadFile(dir_ / "log.txt");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // into the measured run phase
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ToolResult r = WaitTool(pid, 120);
  ASSERT_EQ(r.term_signal, 0) << r.Describe();
  EXPECT_EQ(r.exit_code, 130) << ReadFile(dir_ / "log.txt");
  std::ifstream in(out / "results.json");
  ASSERT_TRUE(in.good()) << "results.json is written on interrupt";
  nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_TRUE(doc["context"]["incomplete"].get<bool>());
  ASSERT_EQ(doc["phases"].size(), 2u) << "load finished, run cut short";
  EXPECT_FALSE(doc["phases"][0]["incomplete"].get<bool>());
  EXPECT_TRUE(doc["phases"][1]["incomplete"].get<bool>());
  EXPECT_FALSE(doc["phases"][1]["error_occurred"].get<bool>());
  EXPECT_GT(doc["phases"][1]["operations"].get<uint64_t>(), 0u);
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";
}

}  // namespace
}  // namespace dbxb::test
