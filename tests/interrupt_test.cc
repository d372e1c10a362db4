// Ctrl-C ends every stage of a run within a second: building and loading a data set, a sampled
// benchmark, a phase's load, its measured loop (closed, or open at a slow rate), its timed warm-up,
// sqlite-vps's bulk insert, and `calibrate`. For a phase, the second is counted to the line that
// reports it cut short ("[incomplete]"), since the engine's close that follows is the engine's own
// work (a flush it finishes); elsewhere it is counted to the exit. Every case then exits with 130 and
// leaves no temporary data.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct InterruptCase {
  std::string name;
  std::string args;     ///< after `dbx-bench`; {data} and {out} are replaced
  std::string started;  ///< stdout text that shows the stage runs ("" = the data directory has entries)
  std::string stopped;  ///< stdout text that shows the stage stopped ("" = the process exited)
  int delay_ms = 1000;  ///< from `started` to Ctrl-C: well into the stage
};

void PrintTo(const InterruptCase& c, std::ostream* os) { *os << c.name << ": dbx-bench " << c.args; }

const char* const kWorkload = DBXB_SOURCE_DIR "/workloads/ycsb/workloada";

std::vector<InterruptCase> Cases() {
  const std::string ycsb = std::string("run --workload ") + kWorkload + " --no-overhead --out {out} --data-dir {data} ";
  const std::string micro = "run --warmup 10ms --samples 10 --no-overhead --out {out} --data-dir {data} ";
  return {
      // 20M rows of 31 bytes take seconds to build; 2M rows take ~0.3 s to build and seconds to load
      // into SQLite, before the benchmark's first sample ("Warming up").
      {"MicroDataSetBuild", micro + "--engines null --records 20M --workloads get --measurement 10s", "", "", 1000},
      {"MicroDataSetLoad", micro + "--engines sqlite --records 2M --workloads get --measurement 10s", "", "", 2500},
      {"MicroMeasurement", micro + "--engines null --records 1000 --workloads get --measurement 60s", "Warming up", ""},
      {"MicroInsertIterations", micro + "--engines null --records 2M --workloads insert --measurement 60s",
       "Warming up", ""},
      {"YcsbLoad", ycsb + "--engines sqlite --records 20M --operations 100", "", "[incomplete]"},
      {"YcsbClosedLoop", ycsb + "--engines null --records 100 --operations 1000000000 --duration 60s",
       "run/null: Running", "[incomplete]"},
      // One operation every 20 s.
      {"YcsbOpenLoopAtASlowRate", ycsb + "--engines null --records 100 --operations 10 --target-rate 0.05",
       "run/null: Running", "[incomplete]"},
      {"YcsbTimedWarmup", ycsb + "--engines null --records 100 --operations 100 --phase-warmup 60s",
       "run/null: Running", "[incomplete]"},
      {"VpsBulkInsert",
       "run --suite sqlite-vps --engines sqlite --records 20M --operations 100 --out {out} --data-dir {data}",
       "bulk-insert/sqlite: Running", "[incomplete]"},
      {"Calibrate", "calibrate --engines sqlite --records 1M --rounds 1000 --data-dir {data}", "", "", 2500},
  };
}

class InterruptTest : public ::testing::TestWithParam<InterruptCase> {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("dbxb-interrupt-test");
    fs::create_directories(dir_ / "data");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> Args() const {
    std::vector<std::string> args;
    for (std::string w : SplitWords(GetParam().args)) {
      if (w == "{out}") w = (dir_ / "out").string();
      if (w == "{data}") w = (dir_ / "data").string();
      args.push_back(w);
    }
    return args;
  }

  fs::path dir_;
};

TEST_P(InterruptTest, StopsWithinASecond) {
  const InterruptCase& c = GetParam();
  const fs::path out = dir_ / "stdout", err = dir_ / "stderr", data = dir_ / "data";
  const pid_t pid = StartTool(DBXB_TOOL, Args(), out, err);
  if (c.started.empty())
    ASSERT_TRUE(WaitForEntries(data)) << ReadFile(err);
  else
    ASSERT_TRUE(WaitForFileText(out, c.started)) << ReadFile(err);
  std::this_thread::sleep_for(std::chrono::milliseconds(c.delay_ms));
  ASSERT_EQ(ReadFile(out).find(c.stopped.empty() ? "\x01" : c.stopped), std::string::npos) << "still running";
  ASSERT_EQ(kill(pid, SIGINT), 0);
  const auto signalled = Clock::now();
  double stopped_after = -1;
  int status = 0;
  bool exited = false;
  while (Clock::now() - signalled < std::chrono::seconds(60)) {
    exited = waitpid(pid, &status, WNOHANG) == pid;
    if (exited || (!c.stopped.empty() && ReadFile(out).find(c.stopped) != std::string::npos)) {
      if (stopped_after < 0) stopped_after = std::chrono::duration<double>(Clock::now() - signalled).count();
      if (exited) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!exited) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  ASSERT_TRUE(exited) << "did not exit within 60 s of Ctrl-C\n" << ReadFile(err);
  EXPECT_GE(stopped_after, 0);
  EXPECT_LT(stopped_after, 1.0) << (c.stopped.empty() ? "exit" : "'" + c.stopped + "'") << " after Ctrl-C\n"
                                << ReadFile(out) << ReadFile(err);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130) << ReadFile(err);
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";
}

std::string CaseName(const ::testing::TestParamInfo<InterruptCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Stages, InterruptTest, ::testing::ValuesIn(Cases()), CaseName);

}  // namespace
}  // namespace dbxb::test
