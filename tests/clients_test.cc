// `run --clients N` end to end (harness/clients.h): the merged result is the clients' sum, no operation
// lost; a failing client ends the run with its error and none is left running; and the inputs that need a
// server to be bad (a wrong password, a schema that is not ours, a server that never answers) are exit 2,
// one line, nothing written.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>

#include "adapters/adapter.h"
#include "tests/tool_process.h"

namespace dbxb::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kTool = DBXB_TOOL;
const std::string kWorkloadA = std::string(DBXB_SOURCE_DIR) + "/workloads/ycsb/workloada";

Json ReadJson(const fs::path& p) { return Json::parse(ReadFile(p)); }

class ClientsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshTestDir("dbxb-clients");
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    fs::create_directories(dir_ / "data");
    fs::permissions(dir_ / "data", fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  }
  void TearDown() override {
    unsetenv("PGPASSWORD");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::vector<std::string> YcsbArgs(const std::string& engine, const std::string& clients) const {
    return {"run",
            "--workload",
            kWorkloadA,
            "--engines",
            engine,
            "--records",
            "4000",
            "--operations",
            "3000",
            "--threads",
            "2",
            "--clients",
            clients,
            "--data-dir",
            (dir_ / "data").string(),
            "--out",
            (dir_ / "out").string()};
  }

  // The merged phases hold every client's operations: the sum, none lost.
  void ExpectMergedSum(int clients) {
    const Json merged = ReadJson(dir_ / "out" / "results.json");
    ASSERT_EQ(merged["phases"].size(), 2u) << "load and run";
    for (const Json& phase : merged["phases"]) {
      uint64_t sum = 0;
      for (int i = 1; i <= clients; ++i) {
        const Json client = ReadJson(dir_ / "out" / ("client-" + std::to_string(i)) / "results.json");
        for (const Json& p : client["phases"])
          if (p["phase"] == phase["phase"]) sum += p["operations"].get<uint64_t>();
      }
      EXPECT_EQ(phase["operations"].get<uint64_t>(), sum) << phase["phase"];
      EXPECT_EQ(phase["merged_from"].size(), static_cast<size_t>(clients));
      EXPECT_EQ(phase["merged_throughput"], "concurrent") << "the clients ran each phase together";
      EXPECT_FALSE(phase["resources"].is_null());
      if (phase["phase"] == "run") EXPECT_EQ(sum, 3000u * clients) << "each client's whole operation count";
      if (phase["phase"] == "load") EXPECT_EQ(sum, 4u) << "4,000 records in batches of 1,000, split";
    }
    for (int i = 1; i <= clients; ++i)
      EXPECT_FALSE(fs::is_empty(dir_ / "out" / ("client-" + std::to_string(i)) / "hdr")) << "its HdrHistogram logs";
    EXPECT_TRUE(fs::is_empty(dir_ / "data")) << "the shared database is removed";
  }

  fs::path dir_;
};

TEST_F(ClientsTest, TwoSqliteClientsMergeToTheSumOfTheirOperations) {
  const ToolResult r = RunTool(kTool, YcsbArgs("sqlite", "2"), dir_, 300);
  ASSERT_EQ(r.exit_code, 0) << r.Describe() << r.err;
  ExpectMergedSum(2);
}

TEST_F(ClientsTest, TwoPostgresClientsOverTcpShareOneServer) {
  if (!PostgresInstalled()) GTEST_SKIP() << "PostgreSQL's server programs are not installed";
  std::vector<std::string> args = YcsbArgs("postgres", "2");
  args.insert(args.end(), {"--engine-option", "postgres.listen=tcp"});
  const ToolResult r = RunTool(kTool, args, dir_, 300);
  ASSERT_EQ(r.exit_code, 0) << r.Describe() << r.err;
  ExpectMergedSum(2);
  const Json merged = ReadJson(dir_ / "out" / "results.json");
  for (const Json& phase : merged["phases"])
    EXPECT_TRUE(phase["resources"]["server"].is_object()) << "the shared server's costs, measured by the parent";
  EXPECT_EQ(ProcessesMentioning((dir_ / "data").string()), 0) << "no server left";
}

TEST_F(ClientsTest, AFailingClientEndsTheRunAndNoneIsLeftRunning) {
  std::vector<std::string> args = YcsbArgs("sqlite", "2");
  // Bounded by the 60 s, so that the run is still going when the client dies: a phase ends at its
  // operation count or its duration, whichever comes first, and 3,000 operations can finish first.
  auto ops = std::find(args.begin(), args.end(), "--operations");
  ASSERT_NE(ops, args.end());
  *(ops + 1) = "100000000";
  args.insert(args.end(), {"--duration", "60s"});
  const pid_t pid = StartTool(kTool, args, dir_ / "stdout", dir_ / "stderr");
  // This run's second client, not another test's: its command line names this test's data directory.
  const auto second_client = [&] {
    std::vector<pid_t> mine;
    const std::vector<pid_t> here = PidsMentioning((dir_ / "data").string());
    for (pid_t p : PidsMentioning("--client 2/2"))
      if (std::find(here.begin(), here.end(), p) != here.end()) mine.push_back(p);
    return mine;
  };
  ASSERT_TRUE(WaitUntil([&] { return !second_client().empty(); }, 30)) << ReadFile(dir_ / "stderr");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // The second client dies (as an OOM kill would end it).
  for (pid_t client : second_client()) kill(client, SIGKILL);
  const ToolResult r = WaitTool(pid, 60);
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  const std::string err = ReadFile(dir_ / "stderr");
  EXPECT_NE(err.find("client 2 of 2"), std::string::npos) << err;
  EXPECT_EQ(CountLines(err.substr(err.find("dbx-bench: "))), 1) << err;
  EXPECT_TRUE(WaitUntil([&] { return ProcessesMentioning((dir_ / "data").string()) == 0; }, 5))
      << "no client (nor any guard) left running";
  EXPECT_TRUE(WaitUntil([&] { return fs::is_empty(dir_ / "data"); }, 5));
}

// A private server the test starts, shared as --clients shares it, for the inputs that need a server.
class ExistingServerInputTest : public ClientsTest {
 protected:
  void SetUp() override {
    ClientsTest::SetUp();
    if (!PostgresInstalled()) GTEST_SKIP() << "PostgreSQL's server programs are not installed";
    AdapterOptions o;
    o.dir = (dir_ / "server").string();
    o.native_options = {{"postgres.listen", "tcp"}};
    auto server = BuiltinAdapters().Find("postgres")->start_shared_server(o);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    for (const auto& [k, v] : server_->ClientOptions()) (k == "postgres.url" ? url_ : run_id_) = v;
    for (const std::string& e : server_->ClientEnvironment())
      if (e.rfind("PGPASSWORD=", 0) == 0) password_ = e.substr(11);
  }
  void TearDown() override {
    server_.reset();
    ClientsTest::TearDown();
  }

  // run on the server at url_: dbx-micro, a few rows; `extra` appended.
  ToolResult Run(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"run",
                                     "--engines",
                                     "postgres",
                                     "--records",
                                     "100",
                                     "--samples",
                                     "10",
                                     "--warmup",
                                     "1ms",
                                     "--measurement",
                                     "1ms",
                                     "--no-overhead",
                                     "--out",
                                     (dir_ / "out").string(),
                                     "--engine-option",
                                     "postgres.url=" + url_};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunTool(kTool, args, dir_, 120);
  }

  std::string Sql(const std::string& sql) {
    PGconn* c = PQconnectdb((url_ + "?password=" + password_).c_str());
    PGresult* r = PQexec(c, sql.c_str());
    std::string out = PQresultStatus(r) == PGRES_TUPLES_OK ? PQgetvalue(r, 0, 0) : PQresultErrorMessage(r);
    PQclear(r);
    PQfinish(c);
    return out;
  }

  void ExpectBadInput(const ToolResult& r, const std::string& names) {
    EXPECT_EQ(r.exit_code, 2) << r.Describe() << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << "nothing written";
    EXPECT_EQ(r.err.find(password_), std::string::npos) << "never the password";
  }

  // The runs' schemas on the server, not the one it keeps for a run of its own.
  std::string OurSchemas() const {
    return "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'dbx\\_bench\\_%' AND nspname <> 'dbx_bench_" +
           run_id_ + "'";
  }
  std::unique_ptr<SharedServer> server_;
  std::string url_, run_id_, password_;
};

TEST_F(ExistingServerInputTest, AWrongPasswordIsBadInput) {
  setenv("PGPASSWORD", "not-the-password", 1);
  const ToolResult r = Run({});
  ExpectBadInput(r, "postgres.url");
  EXPECT_NE(r.err.find("password authentication failed"), std::string::npos) << r.err;
}

TEST_F(ExistingServerInputTest, ASchemaThatIsNotOursIsRefusedAndUntouched) {
  setenv("PGPASSWORD", password_.c_str(), 1);
  ASSERT_EQ(Sql("CREATE SCHEMA theirs; CREATE TABLE theirs.kv(k bytea); INSERT INTO theirs.kv VALUES ('x'); "
                "SELECT 'ok'"),
            "ok");
  const ToolResult r = Run({"--engine-option", "postgres.schema=theirs"});
  ExpectBadInput(r, "'theirs'");
  EXPECT_EQ(Sql("SELECT count(*) FROM theirs.kv"), "1") << "untouched";
}

TEST_F(ExistingServerInputTest, TheRightPasswordRunsInASchemaOfItsOwnAndDropsIt) {
  setenv("PGPASSWORD", password_.c_str(), 1);
  const ToolResult r = Run({"--engine-option", "postgres.schema=bench_here"});
  EXPECT_EQ(r.exit_code, 0) << r.Describe() << r.err;
  EXPECT_EQ(Sql("SELECT count(*) FROM pg_namespace WHERE nspname = 'bench_here'"), "0") << "dropped at close";
  const std::string results = ReadFile(dir_ / "out" / "results.json");
  EXPECT_EQ(results.find(password_), std::string::npos) << "never recorded";
  EXPECT_NE(results.find("existing server (postgres.url): "), std::string::npos);
  EXPECT_NE(results.find("host=127.0.0.1"), std::string::npos);
}

// The clients of one run on a server the user runs share one schema (the run decides its id, issue
// 44): each reads what the others loaded, and none is left behind.
TEST_F(ExistingServerInputTest, ClientsOnAServerTheUserRunsShareOneSchemaAndLeaveNone) {
  setenv("PGPASSWORD", password_.c_str(), 1);
  std::vector<std::string> args = YcsbArgs("postgres", "2");
  args.insert(args.end(), {"--engine-option", "postgres.url=" + url_});
  const ToolResult r = RunTool(kTool, args, dir_, 300);
  ASSERT_EQ(r.exit_code, 0) << r.Describe() << r.err;
  ExpectMergedSum(2);
  EXPECT_EQ(Sql(OurSchemas()), "0");
}

// SIGTERM, SIGINT and SIGHUP of a run on a server the user runs, alone or as clients: the run stops
// and leaves no schema there.
TEST_F(ExistingServerInputTest, ASignalledRunLeavesNoSchemaOnTheServer) {
  setenv("PGPASSWORD", password_.c_str(), 1);
  for (const char* clients : {"", "2"}) {
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
      SCOPED_TRACE(std::string("--clients ") + clients + ", signal " + std::to_string(sig));
      std::vector<std::string> args = YcsbArgs("postgres", clients);
      if (*clients == '\0') args.erase(std::find(args.begin(), args.end(), "--clients"), args.end() - 4);
      *(std::find(args.begin(), args.end(), "--operations") + 1) = "100000000";
      args.insert(args.end(), {"--duration", "60s", "--engine-option", "postgres.url=" + url_});
      fs::remove_all(dir_ / "out");
      const pid_t pid = StartTool(kTool, args, dir_ / "stdout", dir_ / "stderr");
      // Signalled while the sessions work: the run's schema is there and a client's sessions are connected.
      const std::string sessions = "SELECT count(*) >= 3 FROM pg_stat_activity WHERE application_name = 'dbx-bench'";
      ASSERT_TRUE(WaitUntil([&] { return Sql(OurSchemas()) == "1" && Sql(sessions) == "t"; }, 60))
          << ReadFile(dir_ / "stderr");
      kill(pid, sig);
      const ToolResult r = WaitTool(pid, 60);
      EXPECT_EQ(r.exit_code, 130) << r.Describe() << ReadFile(dir_ / "stderr");
      EXPECT_EQ(Sql(OurSchemas()), "0") << "dropped before the tool ended";
    }
  }
}

TEST_F(ExistingServerInputTest, AServerThatNeverAnswersIsBadInputWithinTheTimeout) {
  // Something listens on 127.0.0.1 but never answers: the kernel completes the handshake, nobody speaks.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  url_ = "postgresql://dbxbench@127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/postgres";
  const auto start = std::chrono::steady_clock::now();
  const ToolResult r = Run({"--engine-option", "postgres.connect_timeout_s=2"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  close(fd);
  ExpectBadInput(r, "postgres.url");
  EXPECT_LT(seconds, 10) << "within the timeout";
}

}  // namespace
}  // namespace dbxb::test
