// "Nothing lost": what the tool promises when a run is stopped or its directories misbehave.
//  - SIGTERM (as SIGINT, tested in cli_test.cc) stops the run: finished benchmarks are written marked
//    incomplete, temporary data is removed, exit 130; a second signal exits at once. With nothing
//    finished, nothing is written and an earlier run's files in --out stay as they were.
//  - An output directory that cannot be written (immutable, read-only mount) is refused up front
//    with exit 2, and what it holds stays untouched.
//  - A full disk under --out is refused before anything runs (exit 2, nothing changed); a disk that
//    fills during the run, or a full --data-dir, ends the run with one line on stderr, never a crash,
//    and leaves no partial or temporary file behind.
// The directory tests need root and a kernel that lets us mount tmpfs / bind mounts or set the
// immutable flag; where that is not possible they are skipped, saying why.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

// Arguments of a short run (the null adapter by default); `measurement` long enough to be
// interrupted in it when needed.
std::vector<std::string> ShortRun(const fs::path& out, const fs::path& data, const std::string& measurement,
                                  const std::string& engine = "null", const std::string& records = "1000") {
  return {"run",  "--engines",     engine,      "--records",  records,      "--warmup",
          "10ms", "--measurement", measurement, "--samples",  "10",         "--resamples",
          "1000", "--no-overhead", "--out",     out.string(), "--data-dir", data.string()};
}
std::vector<std::string> NullRun(const fs::path& out, const fs::path& data, const std::string& measurement) {
  return ShortRun(out, data, measurement);
}

class NothingLostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("dbxb-nothing-lost");
    fs::create_directories(dir_ / "data");
  }
  void TearDown() override {
    for (const auto& m : mounts_) umount2(m.c_str(), MNT_DETACH);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Mounts a tmpfs of `bytes` at `where`; false when this machine does not allow it.
  bool MountTmpfs(const fs::path& where, size_t bytes) {
    fs::create_directories(where);
    std::string opts = "size=" + std::to_string(bytes);
    if (mount("tmpfs", where.c_str(), "tmpfs", 0, opts.c_str()) != 0) return false;
    mounts_.push_back(where);
    return true;
  }
  // Fills the file system holding `dir` completely.
  static void Fill(const fs::path& dir) {
    std::ofstream f(dir / "filler", std::ios::binary);
    std::string block(4096, 'x');
    while (f.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }
  fs::path dir_;
  std::vector<fs::path> mounts_;
};

TEST_F(NothingLostTest, SigtermWritesFinishedBenchmarksMarkedIncompleteAndRemovesTemporaryData) {
  fs::path out = dir_ / "out", data = dir_ / "data";
  // Each benchmark measures for 2 s: the signal comes while the second one runs.
  pid_t pid = StartTool(DBXB_TOOL, NullRun(out, data, "2s"), dir_ / "stdout", dir_ / "stderr");
  ASSERT_TRUE(WaitForFileText(dir_ / "stdout", "time:")) << ReadFile(dir_ / "stderr");
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  ToolResult r = WaitTool(pid, 120);
  ASSERT_EQ(r.term_signal, 0) << r.Describe();
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 130) << ReadFile(dir_ / "stderr");
  std::ifstream in(out / "results.json");
  ASSERT_TRUE(in.good()) << "results.json is written on SIGTERM";
  nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_TRUE(doc["context"]["incomplete"].get<bool>());
  EXPECT_EQ(doc["benchmarks"].size(), 1u) << "the finished benchmark, not the interrupted one";
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << "no temporary file left: " << e.path();
}

// An interrupt before any benchmark finished has nothing to write: an earlier run's files in --out
// stay byte for byte as they were, and a --out the run created is removed again.
TEST_F(NothingLostTest, SigtermBeforeAnythingFinishedLeavesEarlierResultsUntouched) {
  fs::path out = dir_ / "out", data = dir_ / "data";
  // An earlier run's results: the tool's own, so a new run may replace them.
  ToolResult earlier = RunTool(DBXB_TOOL, NullRun(out, data, "20ms"), dir_);
  ASSERT_EQ(earlier.exit_code, 0) << earlier.err;
  const std::string earlier_json = ReadFile(out / "results.json");
  const std::string before = Fingerprint(out);
  pid_t pid = StartTool(DBXB_TOOL, NullRun(out, data, "60s"), dir_ / "stdout", dir_ / "stderr");
  ASSERT_TRUE(WaitForEntries(data)) << ReadFile(dir_ / "stderr");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  ToolResult r = WaitTool(pid, 120);
  ASSERT_EQ(r.term_signal, 0) << r.Describe();
  const std::string err = ReadFile(dir_ / "stderr");
  EXPECT_EQ(r.exit_code, 130) << err;
  // The signal handler's notice, then one line saying what happened.
  const std::string last = err.substr(err.rfind('\n', err.size() - 2) + 1);
  EXPECT_NE(last.find("nothing written"), std::string::npos) << err;
  EXPECT_NE(last.find(out.string()), std::string::npos) << "names the directory: " << err;
  EXPECT_EQ(Fingerprint(out), before) << "results.json and results.md unchanged, nothing added";
  EXPECT_EQ(ReadFile(out / "results.json"), earlier_json);
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";

  // The same run into a --out that did not exist: the directory is not left behind.
  fs::path fresh = dir_ / "fresh" / "out";
  pid = StartTool(DBXB_TOOL, NullRun(fresh, data, "60s"), dir_ / "stdout", dir_ / "stderr");
  ASSERT_TRUE(WaitForEntries(data)) << ReadFile(dir_ / "stderr");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  r = WaitTool(pid, 120);
  EXPECT_EQ(r.exit_code, 130) << r.Describe() << "\n" << ReadFile(dir_ / "stderr");
  EXPECT_FALSE(fs::exists(dir_ / "fresh")) << "the directories the run created are removed";
}

TEST_F(NothingLostTest, SecondSignalExitsAtOnce) {
  fs::path out = dir_ / "out", data = dir_ / "data";
  pid_t pid = StartTool(DBXB_TOOL, NullRun(out, data, "600s"), dir_ / "stdout", dir_ / "stderr");
  ASSERT_TRUE(WaitForEntries(data)) << ReadFile(dir_ / "stderr");
  ASSERT_EQ(kill(pid, SIGINT), 0);
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  // The deadline only tells "exits" from "hangs" (a 600 s benchmark would run for minutes).
  ToolResult r = WaitTool(pid, 60);
  ASSERT_FALSE(r.timed_out) << "the second signal must end the process";
  EXPECT_EQ(r.term_signal, 0) << r.Describe();
  EXPECT_EQ(r.exit_code, 130);
}

TEST_F(NothingLostTest, ImmutableOutputDirectoryIsRefusedAndUntouched) {
  fs::path out = dir_ / "immutable";
  fs::create_directories(out);
  std::ofstream(out / "results.json") << "{\"earlier\": true}\n";
  std::string before = Fingerprint(out);
  if (std::system(("chattr +i " + out.string() + " 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "chattr +i is not available on " << out.parent_path() << " (needs root and ext4/xfs/btrfs)";
  // --force: the earlier results.json is not the tool's own; the directory's immutability is what is tested.
  std::vector<std::string> args = NullRun(out, dir_ / "data", "20ms");
  args.push_back("--force");
  ToolResult r = RunTool(DBXB_TOOL, args, dir_);
  std::system(("chattr -i " + out.string()).c_str());
  EXPECT_EQ(r.exit_code, 2) << r.Describe() << "\n" << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Operation not permitted"), std::string::npos) << r.err;
  EXPECT_EQ(Fingerprint(out), before);
  EXPECT_TRUE(fs::is_empty(dir_ / "data"));
}

TEST_F(NothingLostTest, ReadOnlyMountedOutputDirectoryIsRefusedAndUntouched) {
  fs::path out = dir_ / "readonly";
  fs::create_directories(out);
  std::ofstream(out / "results.json") << "{\"earlier\": true}\n";
  std::string before = Fingerprint(out);
  if (mount(out.c_str(), out.c_str(), nullptr, MS_BIND, nullptr) != 0)
    GTEST_SKIP() << "bind mounts are not allowed here (needs root / CAP_SYS_ADMIN)";
  mounts_.push_back(out);
  if (mount(nullptr, out.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
    GTEST_SKIP() << "cannot remount the bind mount read-only";
  std::vector<std::string> args = NullRun(out, dir_ / "data", "20ms");
  args.push_back("--force");  // as above: the read-only mount is what is tested
  ToolResult r = RunTool(DBXB_TOOL, args, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.Describe() << "\n" << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Read-only file system"), std::string::npos) << r.err;
  umount2(out.c_str(), MNT_DETACH);
  mounts_.clear();
  EXPECT_EQ(Fingerprint(out), before);
}

// A --out on a full disk is found before anything runs: exit 2, one line naming the directory and the
// error, nothing in it changed, and a --out the run would have created is not left behind.
TEST_F(NothingLostTest, FullDiskUnderOutIsRefusedUpFrontAndUntouched) {
  fs::path out = dir_ / "tiny";
  if (!MountTmpfs(out, 64 << 10)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)";
  std::ofstream(out / "results.json") << "{\"earlier\": true}\n";
  Fill(out);
  const std::string before = Fingerprint(out);
  // --force: the earlier results.json was not written by the tool; that is not what this test is about.
  std::vector<std::string> forced = NullRun(out, dir_ / "data", "20ms");
  forced.push_back("--force");
  ToolResult r = RunTool(DBXB_TOOL, forced, dir_);
  ASSERT_EQ(r.term_signal, 0) << r.Describe() << "\n" << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(out.string()), std::string::npos) << "names the directory: " << r.err;
  EXPECT_NE(r.err.find("No space left"), std::string::npos) << "says the disk is full: " << r.err;
  EXPECT_EQ(r.out.find("time:"), std::string::npos) << "refused before any benchmark ran: " << r.out;
  EXPECT_EQ(Fingerprint(out), before) << "no partial, temporary or probe file; the earlier results.json unchanged";
  EXPECT_TRUE(fs::is_empty(dir_ / "data"));

  fs::path fresh = out / "new" / "out";
  r = RunTool(DBXB_TOOL, NullRun(fresh, dir_ / "data", "20ms"), dir_);
  EXPECT_EQ(r.exit_code, 2) << r.Describe() << "\n" << r.err;
  EXPECT_NE(r.err.find(fresh.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out / "new")) << "the directories the run created are removed again";
}

// Issue 44, item 16: the outputs of compare and calibrate on a full disk are refused before the work, as
// --out's: the check writes a probe of the size of an output, not only an empty file (which a full tmpfs
// still takes), so nothing is printed and exit 2 comes first.
TEST_F(NothingLostTest, FullDiskUnderAnOutputFileIsRefusedBeforeTheWork) {
  fs::path tiny = dir_ / "tiny";
  if (!MountTmpfs(tiny, 64 << 10)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)";
  Fill(tiny);
  const std::string before = Fingerprint(tiny);
  const std::string fx = std::string(DBXB_SOURCE_DIR) + "/tests/testdata/bad_input/";
  const std::vector<std::vector<std::string>> commands = {
      {"compare", fx + "valid_results.json", fx + "valid_results.json", "--json", (tiny / "cmp.json").string()},
      {"compare", fx + "valid_results.json", fx + "valid_results.json", "--markdown", (tiny / "cmp.md").string()},
      {"calibrate", "--engines", "sqlite", "--records", "100", "--rounds", "3", "--out", (tiny / "cal.json").string()}};
  for (const std::vector<std::string>& args : commands) {
    ToolResult r = RunTool(DBXB_TOOL, args, dir_);
    ASSERT_EQ(r.term_signal, 0) << r.Describe() << "\n" << r.err;
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_EQ(r.out, "") << args[0] << ": refused before any work or output";
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("No space left"), std::string::npos) << "says the disk is full: " << r.err;
    EXPECT_EQ(Fingerprint(tiny), before) << "no partial, temporary or probe file";
  }
}

// The disk may still fill during the run: writing the results then fails with one line (exit 1), and
// no partial or temporary file is left.
TEST_F(NothingLostTest, DiskFillingDuringTheRunEndsWithOneLineAndNoPartialFile) {
  fs::path out = dir_ / "small";
  if (!MountTmpfs(out, 256 << 10)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)";
  std::vector<std::string> args = NullRun(out, dir_ / "data", "1s");
  args.insert(args.end(), {"--workloads", "count,get"});
  pid_t pid = StartTool(DBXB_TOOL, args, dir_ / "stdout", dir_ / "stderr");
  ASSERT_TRUE(WaitForFileText(dir_ / "stdout", "time:")) << ReadFile(dir_ / "stderr");
  Fill(out);  // while the second benchmark runs
  ToolResult r = WaitTool(pid, 120);
  const std::string err = ReadFile(dir_ / "stderr");
  ASSERT_EQ(r.term_signal, 0) << r.Describe() << "\n" << err;
  EXPECT_EQ(r.exit_code, 1) << err;
  EXPECT_EQ(CountLines(err), 1) << err;
  EXPECT_NE(err.find(out.string()), std::string::npos) << "names the directory: " << err;
  EXPECT_NE(err.find("No space left"), std::string::npos) << "says the disk is full: " << err;
  for (const auto& e : fs::directory_iterator(out))
    EXPECT_EQ(e.path().filename(), "filler") << "no partial or temporary file: " << e.path();
  EXPECT_TRUE(fs::is_empty(dir_ / "data"));
}

// A data set larger than the free space of --data-dir is known before the run: exit 2, one line naming
// the data set, its size and the space.
TEST_F(NothingLostTest, ADataSetLargerThanTheDataDirIsRefusedUpFront) {
  fs::path data = dir_ / "tinydata";
  if (!MountTmpfs(data, 256 << 10)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)";
  std::vector<std::string> args = ShortRun(dir_ / "out", data, "20ms", "dbx", "20000");
  ToolResult r = RunTool(DBXB_TOOL, args, dir_);
  EXPECT_EQ(r.exit_code, 2) << r.Describe() << "\n" << r.err;
  EXPECT_EQ(r.err,
            "dbx-bench: the dbx-micro data set: 20000 records of 31 bytes: at least 605.5 KiB to load, more "
            "than the 256.0 KiB free in " +
                data.string() + " (--data-dir)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(fs::is_empty(data));
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(NothingLostTest, FullDiskUnderDataDirFailsTheBenchmarkAndRemovesTemporaryData) {
  fs::path data = dir_ / "tinydata";
  if (!MountTmpfs(data, 256 << 10)) GTEST_SKIP() << "cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)";
  fs::path out = dir_ / "out";
  // DBX with durability full writes its WAL and segments to --data-dir: 8,000 records (242 KiB of keys
  // and values, which pass the check before the run) do not fit in 256 KiB with the engine's own bytes.
  std::vector<std::string> args = ShortRun(out, data, "20ms", "dbx", "8000");
  args.insert(args.end(), {"--workloads", "insert", "--durability", "full"});
  ToolResult r = RunTool(DBXB_TOOL, args, dir_);
  ASSERT_EQ(r.term_signal, 0) << r.Describe() << "\n" << r.err;
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("No space left"), std::string::npos) << "says the disk is full: " << r.err;
  EXPECT_TRUE(fs::is_empty(data)) << "temporary data removed";
}

}  // namespace
}  // namespace dbxb::test
