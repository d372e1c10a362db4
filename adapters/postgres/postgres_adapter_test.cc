// What the conformance test cannot see of the postgres adapter: the server's life cycle (started by
// Open, gone after Close or a failed start), its settings read back, and the start timeout.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "adapters/adapter.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// Processes whose command line mentions `text` (the server's is "postgres -D <data dir>").
int ProcessesMentioning(const std::string& text) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(entry.path() / "cmdline");
    std::stringstream cmdline;
    cmdline << in.rdbuf();
    if (cmdline.str().find(text) != std::string::npos) {
      ++n;
      std::string shown = cmdline.str();
      for (char& c : shown) c = c == '\0' ? ' ' : c;
      std::cerr << "process " << entry.path().filename().string() << ": " << shown << "\n";
    }
  }
  return n;
}

std::string Setting(Adapter& adapter, const std::string& key) {
  for (const auto& [k, v] : adapter.NativeSettings())
    if (k == key) return v;
  return "<absent>";
}

class PostgresAdapterTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "dbxb-postgres-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    ASSERT_EQ(chmod(tmpl.c_str(), 0711), 0);  // reachable by the server account when the test is root
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  AdapterOptions Options() const {
    AdapterOptions o;
    o.dir = (dir_ / "db").string();
    o.cache_bytes = 16ull << 20;
    return o;
  }

  fs::path dir_;
};

TEST_F(PostgresAdapterTest, ServerRunsFromOpenToCloseWithTheRequestedSettings) {
  const AdapterFactory* pg = BuiltinAdapters().Find("postgres");
  ASSERT_NE(pg, nullptr);
  const std::string data = (dir_ / "db" / "data").string();
  auto adapter = pg->open(Options());
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  // At least the postmaster: a just-forked child shows the same command line until it renames itself.
  EXPECT_GE(ProcessesMentioning(data), 1) << "a server for this database";
  EXPECT_EQ(Setting(**adapter, "shared_buffers"), "16MB");
  EXPECT_EQ(Setting(**adapter, "listen_addresses"), "'' (Unix socket only)");
  EXPECT_NE(Setting(**adapter, "server_version"), "<absent>");
  EXPECT_NE(pg->library_version().find("PostgreSQL "), std::string::npos) << pg->library_version();
  EXPECT_TRUE(fs::exists(data + "/.s.PGSQL.5432")) << "the socket is in the data directory";
  ASSERT_TRUE((*adapter)->Close().ok());
  EXPECT_EQ(ProcessesMentioning(data), 0) << "Close stops the server";
  EXPECT_FALSE(fs::exists(data + "/postmaster.pid"));
}

TEST_F(PostgresAdapterTest, DestroyingAnOpenAdapterStopsTheServer) {
  const std::string data = (dir_ / "db" / "data").string();
  {
    auto adapter = BuiltinAdapters().Find("postgres")->open(Options());
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_GE(ProcessesMentioning(data), 1);
  }  // a failed run drops its adapter without Close
  EXPECT_EQ(ProcessesMentioning(data), 0);
}

TEST_F(PostgresAdapterTest, StartTimeoutIsOneLineNamingTheLogAndLeavesNoServer) {
  AdapterOptions options = Options();
  options.native_options = {{"postgres.start_timeout_s", "0"}};
  auto adapter = BuiltinAdapters().Find("postgres")->open(options);
  ASSERT_FALSE(adapter.ok());
  const std::string msg = adapter.status().ToString();
  EXPECT_NE(msg.find("did not start within 0 s"), std::string::npos) << msg;
  EXPECT_NE(msg.find((dir_ / "db" / "server.log").string()), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_EQ(ProcessesMentioning((dir_ / "db" / "data").string()), 0) << "the half-started server is stopped";
}

TEST_F(PostgresAdapterTest, BadStartTimeoutIsInvalidArgument) {
  AdapterOptions options = Options();
  options.native_options = {{"postgres.start_timeout_s", "soon"}};
  auto adapter = BuiltinAdapters().Find("postgres")->open(options);
  ASSERT_FALSE(adapter.ok());
  EXPECT_TRUE(adapter.status().IsInvalidArgument()) << adapter.status().ToString();
}

}  // namespace
}  // namespace dbxb
