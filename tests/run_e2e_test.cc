// End-to-end: the dbx-micro suite on every registered engine with tiny sampling times, checking the
// files a user gets, the verification, and the statistics against an independent recomputation.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
    if (line == "Engines:")
      in_engines = true;
    else if (!line.empty() && line[0] != ' ')
      in_engines = false;
    else if (in_engines && line.size() > 2 && line[2] != ' ')  // not an engine's provenance line
      engines.insert(line.substr(2, line.find(' ', 2) - 2));
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
                    " --format json,md,gbench --data-dir " +
                    (dir / "data").string() + " --out " + out.string() + " >" + (dir / "console.txt").string() +
                    " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "console.txt");

  for (const char* f : {"results.json", "results.md", "results.gbench.json"}) ASSERT_TRUE(fs::exists(out / f)) << f;
  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  EXPECT_EQ(doc["schema_version"], 1);
  const auto& ctx = doc["context"];
  for (const char* key :
       {"date_utc", "host_name", "cpu_model", "num_cpus", "memory_bytes", "kernel", "compiler", "compiler_flags",
        "build_type", "git_commit", "git_dirty", "libraries", "command_line", "configuration", "seed", "sampling"})
    EXPECT_TRUE(ctx.contains(key)) << key;
  EXPECT_TRUE(ctx["harness_overhead_ns_per_op"].is_number()) << "the harness overhead is measured";
  EXPECT_EQ(ctx["libraries"].size(), engines.size());
  // Each engine's provenance as `list` showed it: its version, build and source on its two lines.
  const std::string list = Slurp(dir / "list.txt");
  for (const auto& lib : ctx["libraries"]) {
    const std::string engine = lib["engine"], source = lib["source"];
    EXPECT_FALSE(source.empty()) << engine << ": every engine says where its library came from";
    const size_t at = list.find("\n  " + engine + " ");
    ASSERT_NE(at, std::string::npos) << engine;
    const size_t end = list.find('\n', list.find('\n', at + 1) + 1);
    const std::string lines = list.substr(at, end - at);
    for (const std::string field : {"version", "build", "source"})
      EXPECT_NE(lines.find(lib[field].get<std::string>()), std::string::npos)
          << engine << "'s " << field << " in results.json, " << lib[field] << ", is what list shows:" << lines;
  }

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
  ASSERT_EQ(Shell("python3 " + std::string(DBXB_SOURCE_DIR) + "/scripts/check-results.py " +
                  (out / "results.json").string() + " >" + (dir / "check.txt").string() + " 2>&1"),
            0)
      << Slurp(dir / "check.txt");

  std::string md = Slurp(out / "results.md");
  for (const auto& e : engines) EXPECT_NE(md.find("| " + e + " |"), std::string::npos) << e;
  EXPECT_NE(md.find("Methodology"), std::string::npos);
  EXPECT_TRUE(fs::is_empty(dir / "data")) << "the run removes the databases it created";
  fs::remove_all(dir);
}

}  // namespace

namespace {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

Csv ReadCsv(const fs::path& p) {
  Csv csv;
  std::istringstream in(Slurp(p));
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    if (first)
      csv.header = cells;
    else
      csv.rows.push_back(cells);
    first = false;
  }
  return csv;
}

// YCSB workload A, load and run, on every listed engine: verified, reported in every file, and the
// histogram percentiles checked against the raw latencies (sorted here, independently).
TEST(RunEndToEnd, YcsbOnEveryEngineWithRawLatencies) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-ycsb-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::set<std::string> engines = ListedEngines(dir);
  std::string engine_list;
  for (const auto& e : engines) engine_list += (engine_list.empty() ? "" : ",") + e;

  fs::path out = dir / "out", raw = dir / "raw.csv";
  std::string cmd = std::string(DBXB_TOOL) + " run --workload " + DBXB_SOURCE_DIR + "/workloads/ycsb/workloada" +
                    " --engines " + engine_list + " --records 200 --operations 500 --threads 2 --load-batch 50" +
                    " --raw-latencies " + raw.string() + " --data-dir " + (dir / "data").string() + " --out " +
                    out.string() + " >" + (dir / "console.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "console.txt");
  std::string console = Slurp(dir / "console.txt");
  for (const auto& e : engines) EXPECT_NE(console.find("ycsb/workloada/run/" + e + ": "), std::string::npos) << console;

  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  EXPECT_TRUE(doc["benchmarks"].empty());
  ASSERT_EQ(doc["phases"].size(), 2 * engines.size());
  std::map<std::string, uint64_t> ops_per_phase;  // "engine/phase" -> operations
  for (const auto& p : doc["phases"]) {
    std::string name = p["engine"].get<std::string>() + "/" + p["phase"].get<std::string>();
    EXPECT_FALSE(p["error_occurred"].get<bool>()) << name << ": " << p["error_message"];
    EXPECT_EQ(p["suite"], "ycsb");
    EXPECT_EQ(p["workload"], "workloada");
    EXPECT_EQ(p["threads"], 2);
    uint64_t ops = p["operations"];
    EXPECT_EQ(ops, p["phase"] == "load" ? 4u : 500u) << name;
    EXPECT_EQ(p["service_time"]["count"], ops) << name;
    uint64_t per_op = 0, per_second = 0;
    for (const auto& o : p["per_op"]) per_op += o["count"].get<uint64_t>();
    for (const auto& s : p["per_second"]) per_second += s["operations"].get<uint64_t>();
    EXPECT_EQ(per_op, ops) << name;
    EXPECT_EQ(per_second, ops) << name;
    EXPECT_GT(p["throughput_ops_per_sec"].get<double>(), 0) << name;
    EXPECT_EQ(p["settle_ns"].is_number(), p["phase"] == "run") << name << ": the run settles after the load";
    ops_per_phase[name] = ops;
  }
  EXPECT_EQ(doc["context"]["configuration"]["settle"], "on");
  EXPECT_NE(Slurp(out / "results.md").find("### Settling"), std::string::npos);

  // Raw latencies: one row per measured operation; exact percentiles of the rows agree with the
  // histogram's (which reports the top of the 0.1 % wide bucket holding the exact value).
  Csv csv = ReadCsv(raw);
  ASSERT_EQ(csv.header, (std::vector<std::string>{"engine", "dataset", "phase", "thread", "op", "start_ns",
                                                  "latency_ns", "intended_start_ns"}));
  std::map<std::string, std::vector<double>> latencies;
  for (const auto& row : csv.rows) {
    ASSERT_EQ(row.size(), 8u);
    std::string phase = row[2].substr(row[2].find('/') + 1);
    latencies[row[0] + "/" + phase].push_back(std::stod(row[6]));
  }
  EXPECT_EQ(latencies.size(), ops_per_phase.size());
  for (const auto& p : doc["phases"]) {
    std::string name = p["engine"].get<std::string>() + "/" + p["phase"].get<std::string>();
    std::vector<double>& v = latencies[name];
    ASSERT_EQ(v.size(), ops_per_phase[name]) << name;
    std::sort(v.begin(), v.end());
    EXPECT_EQ(p["service_time"]["min_ns"].get<double>(), v.front()) << name;
    EXPECT_EQ(p["service_time"]["max_ns"].get<double>(), v.back()) << name;
    for (auto [key, q] : {std::pair{"p50_ns", 0.5}, {"p99_ns", 0.99}}) {
      double exact = v[static_cast<size_t>(std::ceil(q * v.size())) - 1];
      double reported = p["service_time"][key].get<double>();
      EXPECT_GE(reported, exact) << name << " " << key;
      EXPECT_LE(reported, exact * 1.001 + 1) << name << " " << key;
    }
  }

  std::string md = Slurp(out / "results.md");
  EXPECT_NE(md.find("| Phase | Throughput (ops/s) | p50 | p95 | p99 | p999 | Ops/hour |"), std::string::npos) << md;
  for (const auto& e : engines) EXPECT_NE(md.find("## ycsb / workloada / " + e + "\n"), std::string::npos) << e;
  EXPECT_TRUE(fs::is_empty(dir / "data")) << "the run removes the databases it created";
  fs::remove_all(dir);
}

// Every malformed YCSB file of the parser's test data: one line on stderr naming the file, exit 2.
// sqlite-vps runs at the --durability given (default normal, the study's synchronous=NORMAL), and the
// settings read back from the engines say so.
TEST(RunEndToEnd, SqliteVpsRunsAndRecordsTheDurabilityGiven) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-vps-durability-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  struct Case {
    std::string flag, durability, synchronous;
  };
  for (const Case& c : {Case{"", "normal", "normal"}, Case{"--durability none", "none", "off"},
                        Case{"--durability full", "full", "full"}}) {
    SCOPED_TRACE(c.flag.empty() ? "default" : c.flag);
    fs::path out = dir / ("out-" + c.durability);
    std::string cmd = std::string(DBXB_TOOL) + " run --suite sqlite-vps --engines sqlite,dbx --records 1000" +
                      " --operations 100 --workloads select-pk --no-overhead " + c.flag + " --data-dir " +
                      (dir / "data").string() + " --out " + out.string() + " >" + (dir / "log.txt").string() + " 2>&1";
    ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
    nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
    EXPECT_EQ(doc["context"]["configuration"]["durability"], c.durability);
    ASSERT_EQ(doc["phases"].size(), 2u);
    for (const auto& phase : doc["phases"]) {
      const auto& settings = phase["engine_settings"];
      EXPECT_TRUE(phase["settle_ns"].is_number()) << "select-pk follows the untimed load";
      if (phase["engine"] == "sqlite") {
        EXPECT_EQ(settings["synchronous"], c.synchronous) << settings.dump();
        EXPECT_EQ(settings["journal_mode"], "wal");
      } else {
        EXPECT_EQ(settings["durability"], c.durability) << settings.dump();
      }
    }
  }
  fs::remove_all(dir);
}

// --quick applies to every suite: the phase suites run with their short defaults, recorded as such.
TEST(RunEndToEnd, QuickRunsEverySuite) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-quick-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string common = " --quick --no-overhead --data-dir " + (dir / "data").string();
  const std::string log = " >" + (dir / "log.txt").string() + " 2>&1";
  // A YCSB file whose counts exceed the quick caps.
  {
    std::ofstream big(dir / "bigworkload");
    big << "recordcount=50000\noperationcount=1000000\nworkload=site.ycsb.workloads.CoreWorkload\n"
           "readproportion=1\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\n";
  }
  std::string cmd = std::string(DBXB_TOOL) + " run --workload " + (dir / "bigworkload").string() +
                    " --engines sqlite --out " + (dir / "ycsb").string() + common + log;
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  nlohmann::json doc = nlohmann::json::parse(Slurp(dir / "ycsb" / "results.json"));
  EXPECT_EQ(doc["context"]["configuration"]["quick"], "true");
  ASSERT_EQ(doc["phases"].size(), 2u);
  EXPECT_EQ(doc["phases"][0]["phase"], "load");
  EXPECT_EQ(doc["phases"][1]["phase"], "run");
  EXPECT_EQ(doc["phases"][0]["operations"], 10u);  // 10000 records in batches of 1000
  EXPECT_EQ(doc["phases"][1]["operations"], 10000u);

  cmd = std::string(DBXB_TOOL) + " run --suite sqlite-vps --workloads select-pk,concurrent-reads --engines sqlite" +
        " --out " + (dir / "vps").string() + common + log;
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  doc = nlohmann::json::parse(Slurp(dir / "vps" / "results.json"));
  ASSERT_EQ(doc["phases"].size(), 2u);
  EXPECT_EQ(doc["phases"][0]["operations"], 10000u);              // select-pk: a tenth of 100,000
  EXPECT_LE(doc["phases"][1]["duration_ns"].get<double>(), 3e9);  // concurrent-reads: bounded at 1 s
  fs::remove_all(dir);
}

// --no-settle: measured right after the load, and the methodology says so.
TEST(RunEndToEnd, NoSettleIsRecordedAndSkipsTheSettle) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-nosettle-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path out = dir / "out";
  std::string cmd = std::string(DBXB_TOOL) + " run --workload " + DBXB_SOURCE_DIR + "/workloads/ycsb/workloadc" +
                    " --engines sqlite,rocksdb --records 500 --operations 200 --no-overhead --no-settle --data-dir " +
                    (dir / "data").string() + " --out " + out.string() + " >" + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  EXPECT_EQ(doc["context"]["configuration"]["settle"], "off");
  ASSERT_EQ(doc["phases"].size(), 4u);
  for (const auto& p : doc["phases"]) EXPECT_TRUE(p["settle_ns"].is_null()) << p["engine"] << "/" << p["phase"];
  EXPECT_NE(Slurp(out / "results.md").find("- Off (`--no-settle`)"), std::string::npos);
  EXPECT_EQ(doc["context"]["configuration"]["calibrate"], "off");
  EXPECT_TRUE(doc["context"]["calibration"].empty());
  fs::remove_all(dir);
}

// --calibrate: every engine with a native loop gets its get/scan/insert ratios, in results.json and
// in the methodology; an engine without one is named as not calibrated.
TEST(RunEndToEnd, CalibrateRecordsEachEnginesRatios) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-calibrate-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path out = dir / "out";
  std::string cmd = std::string(DBXB_TOOL) + " run --suite dbx-micro --workloads get --engines lmdb,leveldb" +
                    " --quick --no-overhead --calibrate --data-dir " + (dir / "data").string() + " --out " +
                    out.string() + " >" + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  EXPECT_EQ(doc["context"]["configuration"]["calibrate"], "on");
  const nlohmann::json& rows = doc["context"]["calibration"];
  ASSERT_EQ(rows.size(), 3u) << rows.dump();
  std::vector<std::string> loops;
  for (const auto& r : rows) {
    EXPECT_EQ(r["engine"], "lmdb");
    EXPECT_EQ(r["error"], "") << r.dump();
    EXPECT_GT(r["harness_ns_per_op"].get<double>(), 0);
    EXPECT_GT(r["native_ns_per_op"].get<double>(), 0);
    // Every figure recomputes from the rounds: medians per side, the median of the rounds' ratios, and
    // the fastest rounds' ratio.
    const auto harness = r["harness_round_ns"].get<std::vector<double>>();
    const auto native = r["native_round_ns"].get<std::vector<double>>();
    ASSERT_EQ(harness.size(), r["rounds"].get<size_t>());
    ASSERT_EQ(native.size(), harness.size());
    std::vector<double> ratios;
    for (size_t i = 0; i < harness.size(); ++i) ratios.push_back(harness[i] / native[i]);
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    const double rows_per_round = r["records"].get<double>();  // every loop handles each row once
    EXPECT_NEAR(r["harness_ns_per_op"].get<double>(), median(harness) / rows_per_round, 1e-9);
    EXPECT_NEAR(r["native_ns_per_op"].get<double>(), median(native) / rows_per_round, 1e-9);
    EXPECT_NEAR(r["ratio"].get<double>(), median(ratios), 1e-12);
    EXPECT_NEAR(r["min_ratio"].get<double>(),
                *std::min_element(harness.begin(), harness.end()) / *std::min_element(native.begin(), native.end()),
                1e-12);
    loops.push_back(r["workload"]);
  }
  EXPECT_EQ(loops, (std::vector<std::string>{"get", "scan", "insert"}));
  const std::string md = Slurp(out / "results.md");
  EXPECT_NE(md.find("### Native-loop calibration"), std::string::npos);
  EXPECT_NE(md.find("| lmdb | get | "), std::string::npos);
  EXPECT_NE(md.find("- Not calibrated (no native loop): leveldb."), std::string::npos);
  EXPECT_NE(Slurp(dir / "log.txt").find("Native-loop calibration (harness / native):"), std::string::npos);
  fs::remove_all(dir);
}

TEST(RunEndToEnd, MalformedYcsbFilesAreOneLineAndExitTwo) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-ycsb-bad-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(DBXB_SOURCE_DIR) / "workloads/ycsb/testdata")) {
    std::string cmd = std::string(DBXB_TOOL) + " run --engines null --workload " + entry.path().string() + " --out " +
                      (dir / "out").string() + " >" + (dir / "out.txt").string() + " 2>" + (dir / "err.txt").string();
    EXPECT_EQ(Shell(cmd), 2) << entry.path();
    std::string err = Slurp(dir / "err.txt");
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << entry.path() << ": " << err;
    EXPECT_NE(err.find(entry.path().filename().string()), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(dir / "out")) << "nothing is written on bad input";
    ++checked;
  }
  EXPECT_GE(checked, 10);
  fs::remove_all(dir);
}

}  // namespace

// The resources object of every benchmark and phase, from a real run of the tool (which counts syncs):
// exact denominators (commits and logical bytes follow from the iteration counts and the data shape),
// at least one sync per commit at full, none in the read workloads, and the phase figures.
TEST(RunEndToEnd, ResourcesAreRecordedForEveryBenchmarkAndPhase) {
  fs::path dir = fs::temp_directory_path() / ("dbxb-e2e-resources-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path out = dir / "micro";
  std::string cmd = std::string(DBXB_TOOL) + " run --suite dbx-micro --engines dbx,sqlite,lmdb,rocksdb" +
                    " --workloads insert,get --records 1000 --durability full --warmup 10ms --measurement 40ms" +
                    " --samples 10 --resamples 1000 --no-overhead --data-dir " + (dir / "data").string() + " --out " +
                    out.string() + " >" + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  nlohmann::json doc = nlohmann::json::parse(Slurp(out / "results.json"));
  ASSERT_EQ(doc["benchmarks"].size(), 8u);
  for (const auto& b : doc["benchmarks"]) {
    SCOPED_TRACE(b["workload"].get<std::string>() + "/" + b["engine"].get<std::string>());
    const auto& r = b["resources"];
    ASSERT_TRUE(r.is_object()) << b.dump();
    uint64_t iterations = 0;
    for (const auto& s : b["samples"]) iterations += s["iterations"].get<uint64_t>();
    EXPECT_EQ(r["operations"], iterations * 1000);
    ASSERT_FALSE(r["fsync_calls"].is_null()) << "dbx-bench counts syncs";
    EXPECT_GT(r["cpu_ns_per_op"].get<double>(), 0);
    EXPECT_GT(r["max_rss_bytes"].get<uint64_t>(), 0u);
    EXPECT_GT(r["disk_bytes"].get<uint64_t>(), 0u);
    EXPECT_EQ(r["live_logical_bytes"], 1000u * (12 + 19));
    if (b["workload"] == "insert") {
      EXPECT_EQ(r["commits"], iterations);
      EXPECT_EQ(r["logical_bytes"], iterations * 1000 * (12 + 19));
      EXPECT_GE(r["fsyncs_per_commit"].get<double>(), 1.0);
      EXPECT_GE(r["wchar"].get<uint64_t>(), r["logical_bytes"].get<uint64_t>()) << "the data was handed to the kernel";
      EXPECT_TRUE(r["write_amplification"].is_number());
    } else {
      EXPECT_EQ(r["commits"], 0u);
      EXPECT_EQ(r["fsync_calls"], 0u) << "reads sync nothing";
      EXPECT_TRUE(r["fsyncs_per_commit"].is_null());
      EXPECT_TRUE(r["write_amplification"].is_null());
    }
  }
  EXPECT_NE(Slurp(out / "results.md").find("## Resources: dbx-micro / insert"), std::string::npos);

  out = dir / "vps";
  cmd = std::string(DBXB_TOOL) + " run --suite sqlite-vps --engines sqlite,lmdb --records 2000 --operations 200" +
        " --workloads bulk-insert,update --durability full --no-overhead --data-dir " + (dir / "data").string() +
        " --out " + out.string() + " >" + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(Shell(cmd), 0) << Slurp(dir / "log.txt");
  doc = nlohmann::json::parse(Slurp(out / "results.json"));
  ASSERT_EQ(doc["phases"].size(), 4u);
  for (const auto& p : doc["phases"]) {
    SCOPED_TRACE(p["phase"].get<std::string>() + "/" + p["engine"].get<std::string>());
    const auto& r = p["resources"];
    ASSERT_TRUE(r.is_object()) << p.dump();
    EXPECT_EQ(r["operations"], p["operations"]);
    const uint64_t commits = p["phase"] == "bulk-insert" ? 2 : 200;  // 2,000 rows in batches of 1,000
    EXPECT_EQ(r["commits"], commits);
    EXPECT_GE(r["fsyncs_per_commit"].get<double>(), 1.0);
    EXPECT_GT(r["space_amplification"].get<double>(), 0);
  }
  fs::remove_all(dir);
}
