// Clients on other hosts, for real, on one machine (issue 30): a PostgreSQL server in one network
// namespace and two dbx-bench clients in two others, joined by veth pairs, as the docs tell users to do
// across machines — each client runs `run ... --engine-option postgres.url=...` against the server at the
// same time (each in a schema of its own, dbx_bench_<run id>), then `dbx-bench merge` adds their results. The merged
// counts must equal the sum of the clients' (none lost; each client also checked its table's row counts), and the
// server must hold none of their schemas afterwards.
//
// Needs root (to create namespaces), iproute2 and PostgreSQL's server programs; skipped with the reason
// otherwise. Every address used exists only inside the namespaces it creates (10.213.0.0/24); nothing
// is sent anywhere else. Everything is removed afterwards, also on failure.
#include <gtest/gtest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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
using Json = nlohmann::json;

const std::string kTool = DBXB_TOOL;
const std::string kWorkloadA = std::string(DBXB_SOURCE_DIR) + "/workloads/ycsb/workloada";
constexpr char kPassword[] = "netns-test-password";

std::string FirstExisting(const std::vector<std::string>& paths) {
  for (const std::string& p : paths)
    if (access(p.c_str(), X_OK) == 0) return p;
  return "";
}

// The newest /usr/lib/postgresql/*/bin holding initdb and postgres, or "".
std::string PostgresBindir() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (fs::exists(e.path() / "bin" / "postgres") && fs::exists(e.path() / "bin" / "initdb"))
      dirs.push_back(e.path() / "bin");
  std::sort(dirs.begin(), dirs.end(), [](const fs::path& a, const fs::path& b) {
    return std::stod(a.parent_path().filename().string()) > std::stod(b.parent_path().filename().string());
  });
  return dirs.empty() ? "" : dirs.front().string();
}

class NetnsClientsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "creating network namespaces needs root";
    ip_ = FirstExisting({"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"});
    if (ip_.empty()) GTEST_SKIP() << "iproute2 (ip) is not installed";
    bindir_ = PostgresBindir();
    if (bindir_.empty()) GTEST_SKIP() << "PostgreSQL's server programs are not installed";
    setpriv_ = FirstExisting({"/usr/bin/setpriv", "/bin/setpriv"});
    if (setpriv_.empty()) GTEST_SKIP() << "setpriv (util-linux) is not installed";
    passwd* user = getpwnam("dbxbench");
    if (user == nullptr) GTEST_SKIP() << "the server account dbxbench does not exist (scripts/install-deps.sh)";
    uid_ = user->pw_uid;
    gid_ = user->pw_gid;

    dir_ = FreshTestDir("dbxb-netns");
    fs::permissions(dir_, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const std::string tag = std::to_string(getpid() % 100000);
    ns_ = {"dbxb-srv-" + tag, "dbxb-c1-" + tag, "dbxb-c2-" + tag};
    ToolResult probe = Ip({"netns", "add", ns_[0]});
    if (probe.exit_code != 0) GTEST_SKIP() << "cannot create a network namespace: " << probe.err;
    created_ns_ = 1;
    ASSERT_NO_FATAL_FAILURE(MakeNetwork());
    ASSERT_NO_FATAL_FAILURE(StartServer());
  }

  void TearDown() override {
    if (server_ > 0) {
      kill(server_, SIGINT);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (waitpid(server_, nullptr, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      kill(server_, SIGKILL);
      waitpid(server_, nullptr, WNOHANG);
    }
    for (int i = 0; i < created_ns_; ++i) (void)Ip({"netns", "del", ns_[i]});
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  ToolResult Ip(const std::vector<std::string>& args) { return RunTool(ip_, args, fs::temp_directory_path(), 30); }
  void MustIp(const std::vector<std::string>& args) {
    const ToolResult r = Ip(args);
    ASSERT_EQ(r.exit_code, 0) << "ip " << ::testing::PrintToString(args) << ": " << r.err;
  }

  // One network, 10.213.0.0/24: a bridge in the server's namespace (10.213.0.1) and a veth pair to each
  // client's (10.213.0.2, 10.213.0.3); loopback up in each.
  void MakeNetwork() {
    MustIp({"netns", "add", ns_[1]});
    created_ns_ = 2;
    MustIp({"netns", "add", ns_[2]});
    created_ns_ = 3;
    MustIp({"-n", ns_[0], "link", "add", "br0", "type", "bridge"});
    MustIp({"-n", ns_[0], "addr", "add", "10.213.0.1/24", "dev", "br0"});
    MustIp({"-n", ns_[0], "link", "set", "br0", "up"});
    MustIp({"-n", ns_[0], "link", "set", "lo", "up"});
    for (int client = 1; client <= 2; ++client) {
      const std::string srv_if = "vs" + std::to_string(client), cli_if = "vc" + std::to_string(client);
      MustIp({"link", "add", srv_if, "netns", ns_[0], "type", "veth", "peer", "name", cli_if, "netns", ns_[client]});
      MustIp({"-n", ns_[0], "link", "set", srv_if, "master", "br0"});
      MustIp({"-n", ns_[0], "link", "set", srv_if, "up"});
      MustIp({"-n", ns_[client], "addr", "add", "10.213.0." + std::to_string(client + 1) + "/24", "dev", cli_if});
      MustIp({"-n", ns_[client], "link", "set", cli_if, "up"});
      MustIp({"-n", ns_[client], "link", "set", "lo", "up"});
    }
  }

  // The server a user would run: its own cluster, listening on its two veth addresses only, SCRAM.
  void StartServer() {
    const fs::path data = dir_ / "server";
    fs::create_directories(data);
    std::ofstream(dir_ / "pw") << kPassword << "\n";
    ASSERT_EQ(chown(data.c_str(), uid_, gid_), 0);
    ASSERT_EQ(chown((dir_ / "pw").c_str(), uid_, gid_), 0);
    const ToolResult init =
        RunTool(setpriv_,
                {"--reuid=dbxbench", "--regid=dbxbench", "--clear-groups", bindir_ + "/initdb", "-D", data.string(),
                 "-U", "dbxbench", "--auth=scram-sha-256", "--pwfile", (dir_ / "pw").string(), "--no-sync",
                 "--no-instructions", "-E", "UTF8", "--locale=C"},
                dir_, 120);
    ASSERT_EQ(init.exit_code, 0) << init.out << init.err;
    std::ofstream(data / "postgresql.auto.conf")
        << "listen_addresses = '10.213.0.1'\nport = 5432\nunix_socket_directories = ''\n";  // TCP only
    std::ofstream(data / "pg_hba.conf") << "host all dbxbench 10.213.0.0/24 scram-sha-256\n";
    server_ = StartTool(ip_,
                        {"netns", "exec", ns_[0], setpriv_, "--reuid=dbxbench", "--regid=dbxbench", "--clear-groups",
                         bindir_ + "/postgres", "-D", data.string()},
                        dir_ / "server.out", dir_ / "server.log");
    bool ready = false;
    for (int i = 0; i < 300 && !ready; ++i) {
      const ToolResult r =
          RunTool(ip_, {"netns", "exec", ns_[1], bindir_ + "/pg_isready", "-h", "10.213.0.1", "-p", "5432", "-t", "1"},
                  dir_, 10);
      ready = r.exit_code == 0;
      if (!ready && waitpid(server_, nullptr, WNOHANG) == server_) {
        server_ = 0;  // it ended: its log says why
        break;
      }
      if (!ready) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(ready) << "the server did not start: " << ReadFile(dir_ / "server.log");
  }

  // Client `i` (1 or 2) in its namespace: the same command on every host, as the docs give it.
  std::vector<std::string> ClientCommand(int i) const {
    const std::string n = std::to_string(i);
    return {"netns",
            "exec",
            ns_[i],
            "env",
            std::string("PGPASSWORD=") + kPassword,
            kTool,
            "run",
            "--workload",
            kWorkloadA,
            "--engines",
            "postgres",
            "--records",
            "3000",
            "--operations",
            "6000",
            "--threads",
            "2",
            "--seed",
            n,
            "--engine-option",
            "postgres.url=postgresql://dbxbench@10.213.0.1:5432/postgres",
            "--out",
            (dir_ / ("c" + n)).string(),
            "--hdr-log",
            (dir_ / ("c" + n) / "hdr").string(),
            "--data-dir",
            dir_.string()};
  }

  std::string ip_, bindir_, setpriv_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  fs::path dir_;
  std::vector<std::string> ns_;
  int created_ns_ = 0;
  pid_t server_ = 0;
};

TEST_F(NetnsClientsTest, TwoClientsInTheirOwnNamespacesMergeToTheSumOfTheirOperations) {
  // Both clients at once, each on its own host as far as the network goes.
  const pid_t c1 = StartTool(ip_, ClientCommand(1), dir_ / "c1.out", dir_ / "c1.err");
  const pid_t c2 = StartTool(ip_, ClientCommand(2), dir_ / "c2.out", dir_ / "c2.err");
  const ToolResult r1 = WaitTool(c1, 300), r2 = WaitTool(c2, 300);
  ASSERT_EQ(r1.exit_code, 0) << r1.Describe() << ReadFile(dir_ / "c1.err");
  ASSERT_EQ(r2.exit_code, 0) << r2.Describe() << ReadFile(dir_ / "c2.err");

  const ToolResult merged =
      RunTool(kTool, {"merge", (dir_ / "c1").string(), (dir_ / "c2").string(), "-o", (dir_ / "merged.json").string()},
              dir_, 60);
  ASSERT_EQ(merged.exit_code, 0) << merged.Describe() << merged.err;
  const Json m = Json::parse(ReadFile(dir_ / "merged.json"));
  const Json a = Json::parse(ReadFile(dir_ / "c1" / "results.json"));
  const Json b = Json::parse(ReadFile(dir_ / "c2" / "results.json"));
  ASSERT_EQ(m["phases"].size(), 2u);
  for (size_t i = 0; i < m["phases"].size(); ++i) {
    const Json& p = m["phases"][i];
    EXPECT_FALSE(a["phases"][i]["error_occurred"].get<bool>());
    EXPECT_FALSE(b["phases"][i]["error_occurred"].get<bool>());
    const uint64_t sum = a["phases"][i]["operations"].get<uint64_t>() + b["phases"][i]["operations"].get<uint64_t>();
    EXPECT_EQ(p["operations"].get<uint64_t>(), sum) << p["phase"];
    if (p["phase"] == "run") EXPECT_EQ(sum, 12000u) << "every operation of both clients";
    EXPECT_EQ(p["merged_from"].size(), 2u);
  }
  // Each client dropped its schema: the server holds nothing of theirs.
  const ToolResult left =
      RunTool(ip_,
              {"netns", "exec", ns_[0], "/usr/bin/env", std::string("PGPASSWORD=") + kPassword, bindir_ + "/psql", "-h",
               "10.213.0.1", "-p", "5432", "-U", "dbxbench", "-d", "postgres", "-At", "-c",
               "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'dbx_bench%'"},
              dir_, 30);
  EXPECT_EQ(left.out, "0\n") << left.err;
}

}  // namespace
}  // namespace dbxb::test
