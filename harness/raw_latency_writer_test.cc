// RawLatencyWriter: the CSV replaces the file at the path only once a phase was written.
#include "harness/raw_latency_writer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
  std::string path_;
};

TEST_F(RawLatencyWriterTest, APhaseWrittenReplacesTheFile) {
  RawLatencyBuffer b(2);
  b.Append(0, 10, 100, 10);
  b.Append(1, 120, 30, 115);
  RawLatencyWriter w;
  ASSERT_TRUE(w.Open(path_).ok());
  EXPECT_EQ(Read(path_), "earlier\n") << "untouched until Close";
  ASSERT_TRUE(w.WritePhase("dbx", "cached", "run", {"read", "update"}, {&b}).ok());
  ASSERT_TRUE(w.Close().ok());
  EXPECT_EQ(Read(path_),
            "engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns\n"
            "dbx,cached,run,0,read,10,100,10\n"
            "dbx,cached,run,0,update,120,30,115\n");
  EXPECT_FALSE(fs::exists(path_ + ".partial"));
}

TEST_F(RawLatencyWriterTest, NoPhaseLeavesTheEarlierFileAndNoPartial) {
  {
    RawLatencyWriter w;
    ASSERT_TRUE(w.Open(path_).ok());
    ASSERT_TRUE(w.Close().ok());
  }
  EXPECT_EQ(Read(path_), "earlier\n");
  EXPECT_FALSE(fs::exists(path_ + ".partial"));
  {
    RawLatencyBuffer b(1);
    b.Append(0, 1, 2, 1);
    RawLatencyWriter w;  // dies without Close, as on an early error return
    ASSERT_TRUE(w.Open(path_).ok());
    ASSERT_TRUE(w.WritePhase("dbx", "", "load", {"insert"}, {&b}).ok());
  }
  EXPECT_EQ(Read(path_), "earlier\n");
  EXPECT_FALSE(fs::exists(path_ + ".partial"));
}

TEST_F(RawLatencyWriterTest, ADirectoryOrAnUnwritablePlaceIsAnError) {
  RawLatencyWriter a;
  Status st = a.Open(dir_.string());
  EXPECT_TRUE(st.IsIOError()) << st.ToString();
  EXPECT_NE(st.message().find("directory"), std::string::npos);
  RawLatencyWriter b;
  EXPECT_TRUE(b.Open((dir_ / "missing" / "x.csv").string()).IsIOError());
}

}  // namespace
}  // namespace dbxb
