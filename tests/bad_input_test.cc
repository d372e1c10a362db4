// Every kind of bad input the CLI can be given, one row each. For every row the tool must
//  - exit with code 2 (never crash, abort, hang, or end on an uncaught exception),
//  - print exactly one line on stderr, naming the input (the row's `names` substring),
//  - write nothing: the output directory it was given is not created, an earlier run's results in
//    a directory it was given are untouched, nothing appears in the working directory (where the
//    default results/<time> would go) or in --data-dir (no leftover temporary databases).
//
// Placeholders in a row's arguments, replaced per row (every row has its own scratch directory):
//   {out}   a path that does not exist (and must still not exist afterwards)
//   {prev}  a directory holding an earlier run's results.json and results.md (must stay identical)
//   {data}  an empty directory for --data-dir (must stay empty)
//   {file}  a regular file (must stay identical)
//   {tmp}   the row's scratch directory
//   {fx}    tests/testdata/bad_input/ (fixtures: bad results files, workload files)
//   {ycsb}  workloads/ycsb/ (YCSB's workload files and the bad ones in its testdata/)
//   {tool}  the dbx-bench binary under test (for `ab --baseline-bin`)
//   {fifo}  a FIFO (must stay a FIFO; reading it would block forever)
//   {dev}   a character device made with mknod (must stay one; rows with it are skipped where mknod
//           is not allowed)
//   {link}  a symbolic link to {file} (must stay that link)
//   {dangling}  a symbolic link to a path that does not exist (must stay that link)
//   {notes} a directory holding a README.md the user wrote (must stay identical)
//   {newline}, {esc}  a newline and an ESC character inside an argument
// An argument written '' is the empty string.
//
// Beyond the above, every row checks that nothing ran (stdout is empty: bad input is found before any
// work) and that the line on stderr holds no control character (they are escaped).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/bad_input_rows.h"
#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

class BadInputTest : public ::testing::TestWithParam<BadInputRow> {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("dbxb-bad-input-" + std::to_string(::getpid()) + "-" + GetParam().name);
    fs::remove_all(tmp_);
    fs::create_directories(tmp_ / "prev");
    fs::create_directories(tmp_ / "data");
    fs::create_directories(tmp_ / "cwd");
    fs::copy_file(fs::path(DBXB_SOURCE_DIR) / "tests/testdata/bad_input/valid_results.json",
                  tmp_ / "prev/results.json");
    std::ofstream(tmp_ / "prev/results.md") << "# results of an earlier run\n";
    std::ofstream(tmp_ / "file") << "precious\n";
    ASSERT_EQ(::mkfifo((tmp_ / "fifo").c_str(), 0644), 0);
    // The null device's numbers: if a row wrongly wrote to it, only this node would be touched.
    have_dev_ = ::mknod((tmp_ / "dev").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    fs::create_symlink(tmp_ / "file", tmp_ / "link");
    fs::create_symlink(tmp_ / "nowhere" / "x", tmp_ / "dangling");
    fs::create_directories(tmp_ / "notes");
    std::ofstream(tmp_ / "notes/README.md") << "# my own notes\n";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }

  std::vector<std::string> Args(const std::string& text) const {
    std::vector<std::string> args;
    for (std::string w : SplitWords(text)) {
      w = Replace(w, "{out}", (tmp_ / "out").string());
      w = Replace(w, "{prev}", (tmp_ / "prev").string());
      w = Replace(w, "{data}", (tmp_ / "data").string());
      w = Replace(w, "{file}", (tmp_ / "file").string());
      w = Replace(w, "{tmp}", tmp_.string());
      w = Replace(w, "{fx}", std::string(DBXB_SOURCE_DIR) + "/tests/testdata/bad_input");
      w = Replace(w, "{ycsb}", std::string(DBXB_SOURCE_DIR) + "/workloads/ycsb");
      w = Replace(w, "{tool}", DBXB_TOOL);
      w = Replace(w, "{fifo}", (tmp_ / "fifo").string());
      w = Replace(w, "{dev}", (tmp_ / "dev").string());
      w = Replace(w, "{link}", (tmp_ / "link").string());
      w = Replace(w, "{dangling}", (tmp_ / "dangling").string());
      w = Replace(w, "{notes}", (tmp_ / "notes").string());
      w = Replace(w, "{newline}", "\n");
      w = Replace(w, "{esc}", "\x1b");
      args.push_back(w);
    }
    return args;
  }

  // The tool run with the row's environment variable set (the child inherits it), then restored.
  ToolResult RunWithEnv(const BadInputRow& row, const fs::path& scratch) const {
    if (row.env.empty()) return RunTool(DBXB_TOOL, Args(row.args), scratch, 60, tmp_ / "cwd");
    const std::string name = row.env.substr(0, row.env.find('='));
    const char* old = std::getenv(name.c_str());
    const std::string saved = old != nullptr ? old : "";
    setenv(name.c_str(), Args(row.env.substr(name.size() + 1)).at(0).c_str(), 1);
    ToolResult r = RunTool(DBXB_TOOL, Args(row.args), scratch, 60, tmp_ / "cwd");
    old != nullptr ? setenv(name.c_str(), saved.c_str(), 1) : unsetenv(name.c_str());
    return r;
  }

  fs::path tmp_;
  bool have_dev_ = false;
};

// The first byte of `line` below 0x20 or equal to 0x7f, other than its final newline; npos when none.
size_t ControlCharacter(const std::string& line) {
  for (size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 || c == 0x7f) && !(c == '\n' && i + 1 == line.size())) return i;
  }
  return std::string::npos;
}

TEST_P(BadInputTest, ExitTwoWithOneLineAndNothingWritten) {
  const BadInputRow& row = GetParam();
  if (!have_dev_ && row.args.find("{dev}") != std::string::npos)
    GTEST_SKIP() << "mknod is not allowed here: no device node to offer as an output";
  std::string notes_before = Fingerprint(tmp_ / "notes");
  std::string prev_before = Fingerprint(tmp_ / "prev");
  std::string file_before = ReadFile(tmp_ / "file");

  fs::path scratch = tmp_ / "scratch";
  fs::create_directories(scratch);
  ToolResult r = RunWithEnv(row, scratch);

  SCOPED_TRACE("dbx-bench " + row.args);
  ASSERT_FALSE(r.timed_out) << "hung";
  ASSERT_EQ(r.term_signal, 0) << r.Describe() << "\nstderr:\n" << r.err;
  EXPECT_EQ(r.exit_code, 2) << "stderr:\n" << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << "exactly one line on stderr, got:\n" << r.err;
  EXPECT_TRUE(r.err.empty() || r.err.back() == '\n') << r.err;
  EXPECT_NE(r.err.find(row.names), std::string::npos) << "stderr must name '" << row.names << "':\n" << r.err;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
  EXPECT_EQ(ControlCharacter(r.err), std::string::npos) << "control characters are escaped:\n" << r.err;
  EXPECT_EQ(r.out, "") << "bad input is found before anything runs";

  EXPECT_FALSE(fs::exists(tmp_ / "out")) << "the output directory must not be created on bad input";
  EXPECT_EQ(Fingerprint(tmp_ / "prev"), prev_before) << "an earlier run's results must stay untouched";
  EXPECT_TRUE(fs::is_empty(tmp_ / "data")) << "no temporary data may be left in --data-dir";
  EXPECT_TRUE(fs::is_empty(tmp_ / "cwd")) << "nothing may be written to the working directory (default results/)";
  EXPECT_EQ(ReadFile(tmp_ / "file"), file_before) << "a file named as an input or output is never changed";
  EXPECT_EQ(Fingerprint(tmp_ / "notes"), notes_before) << "a directory's files the tool did not write stay";
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(tmp_ / "fifo"))) << "a FIFO is never replaced";
  if (have_dev_) EXPECT_TRUE(fs::is_character_file(fs::symlink_status(tmp_ / "dev"))) << "a device is never replaced";
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(tmp_ / "link"))) << "a symbolic link is never replaced";
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(tmp_ / "dangling"))) << "a dangling symbolic link is never deleted";
}

std::string RowName(const ::testing::TestParamInfo<BadInputRow>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Rows, BadInputTest, ::testing::ValuesIn(BadInputRows()), RowName);

}  // namespace
}  // namespace dbxb::test
