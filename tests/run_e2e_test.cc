// End-to-end: the dbx-micro suite on every registered engine with tiny sampling times, checking the
// files a user gets, the verification, and the statistics against an independent recomputation.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

int Shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Engine names from `dbx-bench list`, so that a newly registered engine is covered automatically.
std::set<std::string> ListedEngines(const fs::path& dir) {
  EXPECT_EQ(Shell(std::string(DBXB_TOOL) + " list >" + (dir / "list.txt").string()), 0);
  std::istringstream in(Slurp(dir / "list.txt"));
  std::set<std::string> engines;
  std::string line;
  bool in_engines = false;
  while (std::getline(in, line)) {
    if (line == "Engines:") in_engines = true;
    else if (!line.empty() && line[0] != ' ') in_engines = false;
    else if (in_engines) engines.insert(line.substr(2, line.find(' ', 2) - 2));
  }
  return engines;
}

TEST(RunEndToEnd, DbxMicroOnEveryEngineIsVerifiedAndRecomputable) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::set<std::string> engines = ListedEngines(dir);
  ASSERT_GE(engines.size(), 4u);
  std::string engine_list;
  for (const auto& e : engines) engine_list += (engine_list.empty() ? "" : ",") + e;

  fs::path out = dir / "out";
  std::string cmd = std::string(DBXB_TOOL) + " run --suite dbx-micro --engines " + engine_list +
                    " --records 500 --warmup 10ms --measurement 40ms --samples 10 --resamples 2000"
                    " --format json,md,gbench --data-dir " + (dir / "data").string() + " --out " + out.string() +
                    " >" + (dir / "console.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "console.txt");

  for (const char* f : {"results.json", "results.md", "results.gbench.json"}) ASSERT_TRUE(fs::exists(out / f)) << f;
  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  EXPECT_EQ(doc["schema_version"], 1);
  const auto& ctx = doc["context"];
  for (const char* key : {"date_utc", "host_name", "cpu_model", "num_cpus", "memory_bytes", "kernel", "compiler",
                          "compiler_flags", "build_type", "git_commit", "git_dirty", "libraries", "command_line",
                          "configuration", "seed", "sampling"})
    EXPECT_TRUE(ctx.contains(key)) << key;
  EXPECT_TRUE(ctx["harness_overhead_ns_per_op"].is_number()) << "the harness overhead is measured";
  EXPECT_EQ(ctx["libraries"].size(), engines.size());

  std::set<std::string> seen;
  std::string checksum;
  ASSERT_EQ(doc["benchmarks"].size(), engines.size() * 4);
  for (const auto& b : doc["benchmarks"]) {
    std::string name = b["workload"].get<std::string>() + "/" + b["engine"].get<std::string>();
    seen.insert(b["engine"]);
    EXPECT_FALSE(b["error_occurred"].get<bool>()) << name << ": " << b["error_message"];
    EXPECT_GE(b["samples"].size(), 10u) << name;
    EXPECT_FALSE(b["engine_settings"].empty()) << name;
    EXPECT_GT(b["estimates"]["mean"]["point"].get<double>(), 0) << name;
    EXPECT_GT(b["throughput"]["point"].get<double>(), 0) << name;
    if (checksum.empty()) checksum = b["checksum"];
    EXPECT_EQ(b["checksum"], checksum) << name << ": every engine read back the same data";
  }
  EXPECT_EQ(seen, engines);

  // The statistics, recomputed from the raw samples by an independent program.
  ASSERT_EQ(Shell("python3 " + std::string(DBXB_SOURCE_DIR) + "/scripts/check-results.py " + (out / "results.json").string() +
                  " >" + (dir / "check.txt").string() + " 2>&1"),
            0)
      << Slurp(dir / "check.txt");

  std::string md = Slurp(out / "results.md");
  for (const auto& e : engines) EXPECT_NE(md.find("| " + e + " |"), std::string::npos) << e;
  EXPECT_NE(md.find("Methodology"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir / "data")) << "the run removes the databases it created";
  fs::remove_all(dir);
}

}  // namespace
