// RawLatencyWriter: the CSV replaces the file at the path only once a phase was written.
#include "harness/raw_latency_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class RawLatencyWriterTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "dbxb-raw-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "latencies.csv").string();
    std::ofstream(path_) << "earlier\n";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // The names in the directory other than the CSV and the marks of the tool's outputs: temporaries.
  std::vector<std::string> Leftovers() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (name != "latencies.csv" && name != kOutputMarksFile) names.push_back(name);
    }
    return names;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::string path_;
  // The earlier file at path_ was not written by the tool: replacing it takes --force.
  const FilePolicy forced_{"run", true};
};

TEST_F(RawLatencyWriterTest, APhaseWrittenReplacesTheFile) {
  RawLatencyBuffer b(2);
  b.Append(0, 10, 100, 10);
  b.Append(1, 120, 30, 115);
  RawLatencyWriter w;
  ASSERT_TRUE(w.Open(forced_, path_).ok());
  EXPECT_EQ(Read(path_), "earlier\n") << "untouched until Close";
  ASSERT_TRUE(w.WritePhase("dbx", "cached", "run", {"read", "update"}, {&b}).ok());
  ASSERT_TRUE(w.Close().ok());
  EXPECT_EQ(Read(path_),
            "engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns\n"
            "dbx,cached,run,0,read,10,100,10\n"
            "dbx,cached,run,0,update,120,30,115\n");
  EXPECT_EQ(Leftovers(), std::vector<std::string>{});
}

TEST_F(RawLatencyWriterTest, NoPhaseLeavesTheEarlierFileAndNoPartial) {
  {
    RawLatencyWriter w;
    ASSERT_TRUE(w.Open(forced_, path_).ok());
    ASSERT_TRUE(w.Close().ok());
  }
  EXPECT_EQ(Read(path_), "earlier\n");
  EXPECT_EQ(Leftovers(), std::vector<std::string>{});
  {
    RawLatencyBuffer b(1);
    b.Append(0, 1, 2, 1);
    RawLatencyWriter w;  // dies without Close, as on an early error return
    ASSERT_TRUE(w.Open(forced_, path_).ok());
    ASSERT_TRUE(w.WritePhase("dbx", "", "load", {"insert"}, {&b}).ok());
  }
  EXPECT_EQ(Read(path_), "earlier\n");
  EXPECT_EQ(Leftovers(), std::vector<std::string>{});
}

TEST_F(RawLatencyWriterTest, ADirectoryOrAnUnwritablePlaceIsAnError) {
  RawLatencyWriter a;
  Status st = a.Open(forced_, dir_.string());
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.message().find("is a directory"), std::string::npos) << st.message();
  RawLatencyWriter b;
  st = b.Open(forced_, (dir_ / "missing" / "x.csv").string());
  EXPECT_NE(st.message().find("does not exist"), std::string::npos) << st.message();
}

TEST_F(RawLatencyWriterTest, AFileTheToolDidNotWriteIsReplacedOnlyWithForce) {
  const FilePolicy files("run", false);
  RawLatencyWriter w;
  Status st = w.Open(files, path_);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.message().find("--force"), std::string::npos) << st.message();
  EXPECT_EQ(Read(path_), "earlier\n");
  // Once written by the tool, the next run replaces it without --force.
  RawLatencyBuffer b(1);
  b.Append(0, 1, 2, 1);
  {
    RawLatencyWriter forced;
    ASSERT_TRUE(forced.Open(forced_, path_).ok());
    ASSERT_TRUE(forced.WritePhase("dbx", "", "load", {"insert"}, {&b}).ok());
    ASSERT_TRUE(forced.Close().ok());
  }
  RawLatencyWriter again;
  ASSERT_TRUE(again.Open(files, path_).ok());
  ASSERT_TRUE(again.WritePhase("dbx", "", "run", {"read"}, {&b}).ok());
  ASSERT_TRUE(again.Close().ok());
  EXPECT_NE(Read(path_).find("dbx,,run,0,read,1,2,1"), std::string::npos) << Read(path_);
}

}  // namespace
}  // namespace dbxb
