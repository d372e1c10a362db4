#include "common/file_policy.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tool_process.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;
using test::FreshTestDir;
using test::ReadFile;

class FilePolicyTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = FreshTestDir("dbxb-file-policy-test"); }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return Path(name);
  }
  // The message of a refused check, "" when it was allowed.
  static std::string Refusal(const Status& st) { return st.ok() ? "" : st.message(); }

  fs::path dir_;
};

TEST_F(FilePolicyTest, ReadsARegularFileAndFollowsALinkToOne) {
  const std::string file = Write("in.json", "{}\n");
  fs::create_symlink(file, dir_ / "link");
  std::string text;
  ASSERT_TRUE(ReadInputFile(file, 100, &text).ok());
  EXPECT_EQ(text, "{}\n");
  text.clear();
  ASSERT_TRUE(ReadInputFile(Path("link"), 100, &text).ok());
  EXPECT_EQ(text, "{}\n");
}

TEST_F(FilePolicyTest, RefusesWhatIsNotARegularFileBeforeReadingIt) {
  ASSERT_EQ(::mkfifo(Path("fifo").c_str(), 0600), 0);
  fs::create_symlink(dir_ / "nowhere", dir_ / "dangling");
  const struct {
    std::string path;
    std::string message;
  } cases[] = {
      {Path("fifo"), Path("fifo") + ": is a FIFO (named pipe), not a regular file"},  // and does not block
      {"/dev/zero", "/dev/zero: is a character device, not a regular file"},
      {dir_.string(), dir_.string() + ": is a directory, not a regular file"},
      {Path("missing"), Path("missing") + ": cannot read: No such file or directory"},
      {Path("dangling"), Path("dangling") + ": is a dangling symbolic link (to '" + Path("nowhere") + "')"},
  };
  for (const auto& c : cases) {
    std::string text = "unchanged";
    Status st = ReadInputFile(c.path, 100, &text);
    EXPECT_TRUE(st.IsInvalidArgument()) << c.path << ": " << st.ToString();
    EXPECT_EQ(st.message(), c.message);
    EXPECT_EQ(text, "unchanged");
  }
}

TEST_F(FilePolicyTest, RefusesAFileLargerThanTheBound) {
  const std::string file = Write("big", std::string(2000, 'x'));
  std::string text;
  Status st = ReadInputFile(file, 1024, &text);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_EQ(st.message(), file + ": 2000 bytes, more than the 1 KiB this command reads at most");
  ASSERT_TRUE(ReadInputFile(file, 2000, &text).ok());
  EXPECT_EQ(text.size(), 2000u);
}

TEST_F(FilePolicyTest, OutputDirectoryMayBeNewADirectoryOrALinkToOne) {
  fs::create_directories(dir_ / "d");
  fs::create_symlink(dir_ / "d", dir_ / "to-d");
  fs::create_symlink(dir_ / "nowhere" / "x", dir_ / "dangling");
  const std::string file = Write("f", "precious");
  fs::create_symlink(file, dir_ / "to-f");
  EXPECT_EQ(Refusal(CheckOutputDirectory("--out", Path("new/sub"))), "");
  EXPECT_EQ(Refusal(CheckOutputDirectory("--out", Path("d"))), "");
  EXPECT_EQ(Refusal(CheckOutputDirectory("--out", Path("to-d") + "/")), "");
  EXPECT_EQ(Refusal(CheckOutputDirectory("--out", Path("dangling"))),
            "--out: '" + Path("dangling") + "' is a dangling symbolic link (to '" + Path("nowhere/x") +
                "'); create its target or give another directory");
  EXPECT_EQ(Refusal(CheckOutputDirectory("-o", file)), "-o: '" + file + "' is a regular file, not a directory");
  EXPECT_EQ(Refusal(CheckOutputDirectory("-o", Path("to-f"))),
            "-o: '" + Path("to-f") + "' is a symbolic link to a regular file, not to a directory");
  EXPECT_EQ(Refusal(CheckOutputDirectory("--out", "/dev/null")),
            "--out: '/dev/null' is a character device, not a directory");
}

TEST_F(FilePolicyTest, NeverAnOutputOverADeviceFifoLinkOrDirectory) {
  ASSERT_EQ(::mkfifo(Path("fifo").c_str(), 0600), 0);
  const std::string file = Write("f", "precious");
  fs::create_symlink(file, dir_ / "link");
  fs::create_symlink(dir_ / "nowhere", dir_ / "dangling");
  fs::create_directories(dir_ / "d");
  for (bool force : {false, true}) {
    const FilePolicy files("compare", force);
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", "/dev/null")),
              "--json: '/dev/null' is a character device; dbx-bench writes only regular files");
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", Path("fifo"))),
              "--json: '" + Path("fifo") + "' is a FIFO (named pipe); dbx-bench writes only regular files");
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", Path("link"))),
              "--json: '" + Path("link") + "' is a symbolic link (to '" + file +
                  "'); dbx-bench never replaces a link: give the file itself or a new name");
    EXPECT_NE(Refusal(files.CheckOutputFile("--json", Path("dangling"))).find("is a dangling symbolic link"),
              std::string::npos);
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", Path("d"))), "--json: '" + Path("d") + "' is a directory");
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", Path("missing/x.json"))),
              "--json: directory '" + Path("missing") + "' does not exist");
    EXPECT_EQ(Refusal(files.CheckOutputFile("--json", file + "/x.json")),
              "--json: '" + file + "' is a regular file, not a directory");
  }
  EXPECT_EQ(ReadFile(file), "precious");
}

TEST_F(FilePolicyTest, AFileTheToolDidNotWriteIsReplacedOnlyWithForce) {
  const std::string file = Write("cmp.json", "my notes");
  EXPECT_EQ(
      Refusal(FilePolicy("compare", false).WriteOutputFile("--json", file, "{}")),
      "--json: '" + file + "' exists and was not written by dbx-bench compare --json (use --force to replace it)");
  EXPECT_EQ(ReadFile(file), "my notes");
  ASSERT_TRUE(FilePolicy("compare", true).WriteOutputFile("--json", file, "{}").ok());
  EXPECT_EQ(ReadFile(file), "{}");
}

TEST_F(FilePolicyTest, ItsOwnOutputIsReplacedByTheSameWriterOnly) {
  const std::string path = Path("cmp.json");
  ASSERT_TRUE(FilePolicy("compare", false).WriteOutputFile("--json", path, "one").ok());
  EXPECT_TRUE(fs::is_regular_file(dir_ / kOutputMarksFile));
  ASSERT_TRUE(FilePolicy("compare", false).WriteOutputFile("--json", path, "two").ok()) << "ours: replaced";
  EXPECT_EQ(ReadFile(path), "two");
  // Another command's or option's output is not this one's to replace (merge -o over a run's results).
  EXPECT_NE(Refusal(FilePolicy("merge", false).CheckOutputFile("-o", path)).find("not written by dbx-bench merge -o"),
            std::string::npos);
  EXPECT_NE(Refusal(FilePolicy("compare", false).CheckOutputFile("--markdown", path)).find("--force"),
            std::string::npos);
  // Edited since: no longer ours.
  std::ofstream(path, std::ios::app) << " and my edit";
  EXPECT_NE(Refusal(FilePolicy("compare", false).CheckOutputFile("--json", path)).find("--force"), std::string::npos);
}

TEST_F(FilePolicyTest, AnInputIsNeverAnOutputNotEvenWithForce) {
  const std::string file = Write("results.json", "{}");
  fs::create_directories(dir_ / "d");
  FilePolicy files("compare", true);
  std::string text;
  ASSERT_TRUE(files.ReadInput(file, 100, &text).ok());
  EXPECT_EQ(Refusal(files.CheckOutputFile("--json", file)),
            "--json: '" + file + "' is an input of this command; write to another file");
  // The same file by another path.
  const std::string other = Path("d/../results.json");
  EXPECT_EQ(Refusal(files.CheckOutputFile("--json", other)),
            "--json: '" + other + "' is an input of this command ('" + file + "'); write to another file");
  EXPECT_EQ(files.NoteInput(other), file) << "the same file noted twice is reported";
  EXPECT_EQ(files.NoteInput(Path("missing")), std::nullopt);
}

TEST_F(FilePolicyTest, AStreamedOutputIsCheckedAgainBeforeItIsPublished) {
  const FilePolicy files("run", false);
  const std::string path = Path("latencies.csv");
  AtomicFileWriter file;
  ASSERT_TRUE(files.OpenOutputFile("--raw-latencies", path, &file).ok());
  ASSERT_TRUE(file.Append("a,b\n").ok());
  // Meanwhile someone puts a link there: it stays, and the temporary file goes.
  fs::create_symlink(dir_ / "elsewhere", path);
  Status st = files.CommitOutputFile("--raw-latencies", &file);
  EXPECT_NE(Refusal(st).find("is a dangling symbolic link"), std::string::npos) << st.ToString();
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(path)));
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) entries += e.path().filename() != "latencies.csv";
  EXPECT_EQ(entries, 0u) << "no temporary file left";
}

TEST_F(FilePolicyTest, TheMarksFileIsNeverAnOutputAndNotReplacedWhenNotAFile) {
  const FilePolicy files("compare", true);
  EXPECT_NE(Refusal(files.CheckOutputFile("--json", Path(kOutputMarksFile))).find("record of the files it wrote"),
            std::string::npos);
  ASSERT_EQ(::mkfifo(Path(kOutputMarksFile).c_str(), 0600), 0);
  ASSERT_TRUE(files.WriteOutputFile("--json", Path("cmp.json"), "{}").ok()) << "written, though not marked";
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(dir_ / kOutputMarksFile)));
  EXPECT_NE(Refusal(FilePolicy("compare", false).CheckOutputFile("--json", Path("cmp.json"))).find("--force"),
            std::string::npos);
}

}  // namespace
}  // namespace dbxb
