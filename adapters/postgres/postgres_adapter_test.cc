// What the conformance test cannot see of the postgres adapter: the server's life cycle (started by
// Open, gone after Close or a failed start), its settings read back, the start timeout, TCP with a
// password, its costs counted from outside the process, the database's size as its tables only, and an
// existing server (postgres.url) used through a schema of our own and nothing else.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "adapters/adapter.h"
#include "common/disk_usage.h"
#include "common/server_usage.h"

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
    if (cmdline.str().find(text) != std::string::npos) ++n;
  }
  return n;
}

// The programs (argv[0]) of the processes whose command line mentions `text`.
std::vector<std::string> ProgramsMentioning(const std::string& text) {
  std::vector<std::string> programs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::ifstream in(entry.path() / "cmdline");
    std::stringstream cmdline;
    cmdline << in.rdbuf();
    const std::string line = cmdline.str();
    if (line.find(text) != std::string::npos) programs.push_back(line.substr(0, line.find('\0')));
  }
  return programs;
}

std::string Setting(const Settings& settings, const std::string& key) {
  for (const auto& [k, v] : settings)
    if (k == key) return v;
  return "<absent>";
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs SQL on a connection string; returns the first value, or "ERROR: ..." with the message.
std::string Sql(const std::string& conninfo, const std::string& sql) {
  PGconn* c = PQconnectdb(conninfo.c_str());
  if (PQstatus(c) != CONNECTION_OK) {
    std::string msg = std::string("ERROR: ") + PQerrorMessage(c);
    PQfinish(c);
    return msg;
  }
  PGresult* r = PQexec(c, sql.c_str());
  std::string out = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0)
                    : PQresultStatus(r) == PGRES_COMMAND_OK                  ? "OK"
                                                            : std::string("ERROR: ") + PQresultErrorMessage(r);
  PQclear(r);
  PQfinish(c);
  return out;
}

class PostgresAdapterTest : public testing::Test {
 protected:
  void SetUp() override {
    pg_ = BuiltinAdapters().Find("postgres");
    ASSERT_NE(pg_, nullptr);
    std::string tmpl = (fs::temp_directory_path() / "dbxb-postgres-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    ASSERT_EQ(chmod(tmpl.c_str(), 0711), 0);  // reachable by the server account when the test is root
    dir_ = tmpl;
  }
  void TearDown() override {
    unsetenv("PGPASSWORD");
    fs::remove_all(dir_);
  }

  AdapterOptions Options(const std::string& name = "db") const {
    AdapterOptions o;
    o.dir = (dir_ / name).string();
    o.cache_bytes = 16ull << 20;
    return o;
  }

  const AdapterFactory* pg_ = nullptr;
  fs::path dir_;
};

TEST_F(PostgresAdapterTest, ServerRunsFromOpenToCloseWithTheRequestedSettings) {
  const std::string data = (dir_ / "db" / "server" / "data").string();
  auto adapter = pg_->open(Options());
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  EXPECT_GE(ProcessesMentioning(data), 1) << "a server for this database";
  const Settings s = (*adapter)->NativeSettings();
  EXPECT_EQ(Setting(s, "shared_buffers"), "16MB");
  EXPECT_EQ(Setting(s, "listen_addresses"), "'' (Unix socket only)");
  EXPECT_NE(Setting(s, "server_version"), "<absent>");
  EXPECT_NE(pg_->library_version().find("PostgreSQL "), std::string::npos) << pg_->library_version();
  EXPECT_TRUE(fs::exists(data + "/.s.PGSQL.5432")) << "the socket is in the data directory";
  // pg_hba: trust only on the socket, whose directory nobody but the server's account can enter.
  const std::string hba = ReadFile(data + "/pg_hba.conf");
  EXPECT_NE(hba.find("local all dbxbench trust"), std::string::npos) << hba;
  EXPECT_EQ(hba.find("host"), std::string::npos) << hba;
  EXPECT_EQ(fs::status(data).permissions() & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);
  ASSERT_TRUE((*adapter)->Close().ok());
  EXPECT_EQ(ProcessesMentioning(data), 0) << "Close stops the server";
  EXPECT_FALSE(fs::exists(data + "/postmaster.pid"));
}

TEST_F(PostgresAdapterTest, DestroyingAnOpenAdapterStopsTheServer) {
  const std::string data = (dir_ / "db" / "server" / "data").string();
  {
    auto adapter = pg_->open(Options());
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_GE(ProcessesMentioning(data), 1);
  }  // a failed run drops its adapter without Close
  EXPECT_EQ(ProcessesMentioning(data), 0);
}

TEST_F(PostgresAdapterTest, StartTimeoutIsOneLineWithoutAPathThatWillBeGoneAndLeavesNoServer) {
  AdapterOptions options = Options();
  options.native_options = {{"postgres.start_timeout_s", "0"}};
  auto adapter = pg_->open(options);
  ASSERT_FALSE(adapter.ok());
  const std::string msg = adapter.status().ToString();
  EXPECT_NE(msg.find("did not accept connections within 0 s"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("server.log"), std::string::npos) << "the log goes with the database's directory: " << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_EQ(ProcessesMentioning((dir_ / "db" / "server" / "data").string()), 0) << "the half-started server is stopped";
}

TEST_F(PostgresAdapterTest, BadOptionsAreInvalidArgument) {
  for (const auto& options : std::vector<std::vector<std::pair<std::string, std::string>>>{
           {{"postgres.start_timeout_s", "soon"}},
           {{"postgres.listen", "udp"}},
           {{"postgres.url", "postgresql://[::1"}},
           {{"postgres.url", "host=localhost"}, {"postgres.listen", "tcp"}},
           {{"postgres.schema", "x"}},
           {{"postgres.url", "host=localhost"}, {"postgres.schema", "Robert'); DROP"}},
           {{"postgres.url", "host=localhost"}, {"postgres.schema", "pg_catalog"}},
       }) {
    AdapterOptions o = Options();
    o.native_options = options;
    auto adapter = pg_->open(o);
    ASSERT_FALSE(adapter.ok()) << options.front().first;
    EXPECT_TRUE(adapter.status().IsInvalidArgument()) << adapter.status().ToString();
  }
}

TEST_F(PostgresAdapterTest, TheServersCostsAreCountedWhileItRunsAndAfterItStops) {
  const ServerTotals before = ReadServerTotals(false);
  AdapterOptions o = Options();
  o.durability = Durability::kFull;
  auto adapter = pg_->open(o);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  const ServerTotals running = ReadServerTotals(true);
  EXPECT_EQ(running.running, before.running + 1);
  EXPECT_GT(running.usage.pss_bytes, 1u << 20) << "the postmaster and its backends";
  ASSERT_TRUE(running.usage.sync_calls.has_value()) << "the counting library is preloaded into the server";
  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((*session)->Put("k" + std::to_string(i), std::string(100, 'v')).ok());
  ServerTotals written = ReadServerTotals(false);
  EXPECT_GE(*written.usage.sync_calls - *running.usage.sync_calls, 20u) << "a WAL flush per commit at full";
  // /proc counts CPU in clock ticks (10 ms): a fast server may not have used one yet after 20 puts, so
  // more puts run until it has (or 2,000 more have not made it count: the failure below).
  auto cpu = [](const ServerTotals& t) { return t.usage.processes.cpu_user_ns + t.usage.processes.cpu_sys_ns; };
  for (int i = 20; i < 2020 && cpu(written) <= cpu(before); ++i) {
    ASSERT_TRUE((*session)->Put("k" + std::to_string(i), std::string(100, 'v')).ok());
    if (i % 100 == 0) written = ReadServerTotals(false);
  }
  written = ReadServerTotals(false);
  EXPECT_GT(cpu(written), cpu(before)) << "the server's CPU is counted";
  EXPECT_GT(*written.usage.wal_bytes, 20u * 100) << "the WAL holds the rows";
  session->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
  const ServerTotals after = ReadServerTotals(false);
  EXPECT_EQ(after.running, before.running);
  EXPECT_GE(*after.usage.sync_calls, *written.usage.sync_calls) << "a stopped server's figures are kept";
  EXPECT_GE(after.usage.processes.io_write_bytes, written.usage.processes.io_write_bytes);
}

TEST_F(PostgresAdapterTest, TheDatabasesSizeIsItsTablesNotTheCluster) {
  auto adapter = pg_->open(Options());
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*session)->Begin().ok());
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE((*session)->Put("key" + std::to_string(i), std::string(31, 'v')).ok());
  ASSERT_TRUE((*session)->Commit().ok());
  ASSERT_TRUE((*adapter)->Settle().ok());
  const uint64_t data = DirectoryBytes((dir_ / "db").string());
  const uint64_t cluster = DirectoryBytes((dir_ / "db" / "server").string());
  EXPECT_GT(data, 10000u * 31) << "the rows are in the tablespace";
  EXPECT_LT(data, 4u << 20) << "kv and rows with their indexes, not the catalog or the WAL";
  EXPECT_GT(cluster, 20u << 20) << "the cluster (catalog, WAL) is there, and left out";
  session->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
}

// postgres runs the release build, postgres@debian Debian's: each says which, and the server that answers
// is that one. As root, the server's account runs no program from root's home (the release build is
// cached there): it runs a copy.
TEST_F(PostgresAdapterTest, EachBuildRunsTheServerItNames) {
  int builds = 0;
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    if (OptionPrefix(f) != "postgres") continue;
    SCOPED_TRACE(f.name);
    ++builds;
    auto adapter = f.open(Options(f.name));
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    const std::string version = Setting((*adapter)->NativeSettings(), "server_version");
    EXPECT_EQ(f.library_version().rfind("PostgreSQL " + version + " server", 0), 0u)
        << f.library_version() << " vs SHOW server_version " << version;
    const std::vector<std::string> programs = ProgramsMentioning((dir_ / f.name / "server" / "data").string());
    EXPECT_FALSE(programs.empty()) << "the server of this database";
    const passwd* root = getpwuid(0);
    ASSERT_NE(root, nullptr);
    for (const std::string& program : programs)
      EXPECT_NE(program.rfind(std::string(root->pw_dir) + "/", 0), 0u) << program << " runs from root's home";
    if (!f.variant_of.empty()) EXPECT_EQ(f.library_build(), "debian-package");
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  EXPECT_GE(builds, 1);
}

// A batch is pipelined (postgres_connection.h): more statements than one pipeline holds all commit; a
// read in the batch sees its writes; a failed statement fails Commit, nothing of its batch stays, and the
// session goes on.
TEST_F(PostgresAdapterTest, APipelinedBatchCommitsWhollyOrNotAtAll) {
  auto adapter = pg_->open(Options());
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto kv = (*adapter)->NewSession();
  ASSERT_TRUE(kv.ok());
  ASSERT_TRUE((*kv)->Begin().ok());
  for (int i = 0; i < 2500; ++i) ASSERT_TRUE((*kv)->Put("k" + std::to_string(i), "v").ok());
  std::string value;
  ASSERT_TRUE((*kv)->Get("k2499", &value).ok());
  ASSERT_TRUE((*kv)->Commit().ok());
  uint64_t count = 0;
  ASSERT_TRUE((*kv)->Count(&count).ok());
  EXPECT_EQ(count, 2500u);

  auto rows = (*adapter)->NewRowSession();
  ASSERT_TRUE(rows.ok());
  ASSERT_TRUE((*rows)->Begin().ok());
  ASSERT_TRUE((*rows)->InsertRow({1, 1, 1, "one"}).ok());
  ASSERT_TRUE((*rows)->Commit().ok());
  ASSERT_TRUE((*rows)->Begin().ok());
  for (int64_t id : {2, 1, 3}) ASSERT_TRUE((*rows)->InsertRow({id, id, id, "dup"}).ok()) << "queued, not yet run";
  EXPECT_TRUE((*rows)->Commit().IsInvalidArgument()) << "row 1 exists: the batch fails at Commit";
  ASSERT_TRUE((*rows)->Count(&count).ok());
  EXPECT_EQ(count, 1u) << "nothing of the failed batch stays";
  ASSERT_TRUE((*rows)->Begin().ok());
  ASSERT_TRUE((*rows)->InsertRow({4, 4, 4, "four"}).ok());
  ASSERT_TRUE((*rows)->Commit().ok());
  ASSERT_TRUE((*rows)->Count(&count).ok());
  EXPECT_EQ(count, 2u);
  kv->reset();
  rows->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
}

// A private server over TCP, shared as --clients shares it, and adapters on it through postgres.url.
class ExistingServerTest : public PostgresAdapterTest {
 protected:
  void StartServer(bool tcp) {
    AdapterOptions o = Options("server");
    if (tcp) o.native_options = {{"postgres.listen", "tcp"}};
    auto server = pg_->start_shared_server(o);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(*server);
    for (const auto& [k, v] : server_->ClientOptions()) (k == "postgres.url" ? url_ : run_id_) = v;
    for (const std::string& e : server_->ClientEnvironment()) {
      const size_t eq = e.find('=');
      if (e.substr(0, eq) == "PGPASSWORD") password_ = e.substr(eq + 1);
    }
  }
  AdapterOptions Client(std::vector<std::pair<std::string, std::string>> extra = {}) const {
    AdapterOptions o = Options("client");
    o.native_options = {{"postgres.url", url_}};
    for (auto& kv : extra) o.native_options.push_back(std::move(kv));
    return o;
  }
  // True once the server has no backend of ours left (pg_terminate_backend only signals them).
  bool WaitForNoBackend() const {
    for (int i = 0; i < 100; ++i) {
      if (Sql(url_, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dbx-bench'") == "0") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }
  std::unique_ptr<SharedServer> server_;
  std::string url_, run_id_, password_;
};

TEST_F(ExistingServerTest, TcpNeedsThePasswordAndListensOnLoopbackOnly) {
  StartServer(true);
  ASSERT_EQ(url_.rfind("postgresql://dbxbench@127.0.0.1:", 0), 0u) << url_;
  ASSERT_FALSE(password_.empty());
  EXPECT_EQ(url_.find(password_), std::string::npos) << "the URL never holds the password";
  EXPECT_EQ(Setting(server_->NativeSettings(), "listen_addresses"), "127.0.0.1");
  EXPECT_NE(Sql(url_, "SELECT 1").find("ERROR"), std::string::npos) << "no password, no connection";
  EXPECT_NE(Sql(url_ + "?password=wrong", "SELECT 1").find("password authentication failed"), std::string::npos);
  EXPECT_EQ(Sql(url_ + "?password=" + password_, "SELECT 1"), "1");
  const std::string hba = ReadFile(dir_ / "server" / "server" / "data" / "pg_hba.conf");
  EXPECT_NE(hba.find("host all dbxbench 127.0.0.1/32 scram-sha-256"), std::string::npos) << hba;
  EXPECT_EQ(hba.find(" trust", hba.find("host")), std::string::npos) << "never trust on TCP: " << hba;
}

TEST_F(ExistingServerTest, ASchemaOfOurOwnIsCreatedJoinedByTheRunAndDropped) {
  StartServer(true);
  setenv("PGPASSWORD", password_.c_str(), 1);
  const std::string admin = url_;
  const std::string run_id_ = "byhand";  // not the shared server's run, whose schema that server owns
  auto first = pg_->open(Client({{"postgres.run_id", run_id_}}));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const std::string schema = "dbx_bench_" + run_id_;
  EXPECT_EQ(Sql(admin, "SELECT obj_description('" + schema + "'::regnamespace)"), "dbx-bench run " + run_id_);
  auto second = pg_->open(Client({{"postgres.run_id", run_id_}}));
  ASSERT_TRUE(second.ok()) << "a client of the same run joins: " << second.status().ToString();
  auto s1 = (*first)->NewSession();
  auto s2 = (*second)->NewSession();
  ASSERT_TRUE(s1.ok() && s2.ok());
  ASSERT_TRUE((*s1)->Put("shared", "yes").ok());
  std::string v;
  ASSERT_TRUE((*s2)->Get("shared", &v).ok());
  EXPECT_EQ(v, "yes") << "one table, two clients";
  EXPECT_NE(Sql(admin, "SELECT count(*) FROM public.kv").find("ERROR"), std::string::npos) << "nothing in public";
  auto other_run = pg_->open(Client({{"postgres.run_id", "otherrun"}, {"postgres.schema", schema}}));
  ASSERT_FALSE(other_run.ok());
  EXPECT_TRUE(other_run.status().IsInvalidArgument()) << other_run.status().ToString();
  s1->reset();
  s2->reset();
  ASSERT_TRUE((*second)->Close().ok());
  EXPECT_EQ(Sql(admin, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'"), "1")
      << "the joiner keeps it";
  ASSERT_TRUE((*first)->Close().ok());
  EXPECT_EQ(Sql(admin, "SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'"), "0")
      << "the creator drops it";
}

// A fault: the server ends the run's connections (pg_terminate_backend, as an administrator or a
// restart would). The schema is still dropped at Close, over a new connection.
TEST_F(ExistingServerTest, ALostConnectionStillDropsTheSchemaOverANewOne) {
  StartServer(false);  // over the private socket: trust for the server's own account
  auto adapter = pg_->open(Client());
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  // The adapter's schema, not the one the shared server keeps for its own run.
  const std::string ours =
      "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'dbx\\_bench\\_%' AND nspname <> "
      "'dbx_bench_" +
      run_id_ + "'";
  ASSERT_EQ(Sql(url_, ours), "1");
  ASSERT_NE(Sql(url_,
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'dbx-bench'"),
            "0");
  ASSERT_TRUE(WaitForNoBackend());
  EXPECT_TRUE((*adapter)->Close().ok());
  EXPECT_EQ(Sql(url_, ours), "0") << "dropped over a new connection";
}

// run --clients with postgres.url: the run decides the id its clients share and owns their schema: it
// makes it before they start (each client joins it and never drops it under the others), makes it
// anew when every client closed its database, and at its end drops every schema of the run still
// there (one a client made when it was killed too), and nothing else.
TEST_F(ExistingServerTest, ARunOnAServerTheUserRunsOwnsTheSchemaItsClientsShare) {
  StartServer(false);
  auto run = pg_->start_shared_server(Client());
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  ASSERT_NE(*run, nullptr);
  std::string run_id;
  for (const auto& [k, v] : (*run)->ClientOptions()) {
    EXPECT_EQ(k, "postgres.run_id") << "nothing else: the clients reach the server themselves";
    run_id = v;
  }
  ASSERT_FALSE(run_id.empty());
  const std::string schema = "dbx_bench_" + run_id;
  const std::string runs = "SELECT count(*) FROM pg_namespace WHERE nspname = '" + schema + "'";
  ASSERT_EQ(Sql(url_, runs), "1") << "made before the clients start";
  auto client = pg_->open(Client({{"postgres.run_id", run_id}}));
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  auto session = (*client)->NewSession();
  ASSERT_TRUE(session.ok() && (*session)->Put("k", "v").ok());
  session->reset();
  ASSERT_TRUE((*client)->Close().ok());
  EXPECT_EQ(Sql(url_, "SELECT count(*) FROM " + schema + ".kv"), "1") << "a client never drops the run's schema";
  ASSERT_TRUE((*run)->ClientsClosedDatabase().ok());
  EXPECT_EQ(Sql(url_, "SELECT count(*) FROM " + schema + ".kv"), "0") << "the next database starts empty";
  // What a client killed after it made a schema of the run leaves, and a schema of another run.
  ASSERT_EQ(Sql(url_, "CREATE SCHEMA left_behind; COMMENT ON SCHEMA left_behind IS 'dbx-bench run " + run_id + "'"),
            "OK");
  ASSERT_EQ(Sql(url_, "CREATE SCHEMA users_own; COMMENT ON SCHEMA users_own IS 'dbx-bench run other'"), "OK");
  run->reset();
  EXPECT_EQ(Sql(url_, runs), "0") << "the run's schema is dropped when the run ends";
  EXPECT_EQ(Sql(url_, "SELECT count(*) FROM pg_namespace WHERE nspname = 'left_behind'"), "0");
  EXPECT_EQ(Sql(url_, "SELECT count(*) FROM pg_namespace WHERE nspname = 'users_own'"), "1") << "untouched";
}

TEST_F(ExistingServerTest, ASchemaThatIsNotOursIsRefusedAndUntouched) {
  StartServer(false);  // over the private socket: trust for the server's own account
  ASSERT_EQ(Sql(url_, "CREATE SCHEMA mine"), "OK");
  ASSERT_EQ(Sql(url_, "CREATE TABLE mine.kv(k bytea)"), "OK");
  AdapterOptions o = Client({{"postgres.schema", "mine"}});
  Status pre = pg_->preflight(o);
  EXPECT_TRUE(pre.IsInvalidArgument()) << pre.ToString();
  EXPECT_NE(pre.ToString().find("'mine'"), std::string::npos) << pre.ToString();
  EXPECT_EQ(pre.ToString().find('\n'), std::string::npos) << pre.ToString();
  auto adapter = pg_->open(o);
  ASSERT_FALSE(adapter.ok());
  EXPECT_TRUE(adapter.status().IsInvalidArgument()) << adapter.status().ToString();
  EXPECT_EQ(Sql(url_, "SELECT count(*) FROM mine.kv"), "0") << "untouched";
  EXPECT_TRUE(pg_->preflight(Client({{"postgres.schema", "free_one"}})).ok());
}

TEST_F(ExistingServerTest, AnUnreachableOrRefusingServerIsBadInputWithinTheTimeout) {
  StartServer(true);
  const auto start = std::chrono::steady_clock::now();
  AdapterOptions refused = Options();
  refused.native_options = {{"postgres.url", "postgresql://dbxbench@127.0.0.1:1/postgres"},
                            {"postgres.connect_timeout_s", "2"}};
  Status st = pg_->preflight(refused);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.ToString().find("127.0.0.1"), std::string::npos) << st.ToString();
  EXPECT_EQ(st.ToString().find('\n'), std::string::npos) << st.ToString();
  setenv("PGPASSWORD", "wrong", 1);
  st = pg_->preflight(Client());
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.ToString().find("password authentication failed"), std::string::npos) << st.ToString();
  EXPECT_EQ(st.ToString().find("wrong"), std::string::npos) << "never the password: " << st.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace dbxb
