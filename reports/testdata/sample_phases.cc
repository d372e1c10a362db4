#include "reports/testdata/sample_phases.h"

#include <string>

#include "reports/testdata/sample_results.h"

namespace dbxb::testdata {
namespace {

// A latency distribution around `p50` with a tail: every field set, percentile curve of four points.
LatencySummary Latency(uint64_t count, double p50) {
  LatencySummary l;
  l.count = count;
  l.mean_ns = p50 * 1.21;
  l.stddev_ns = p50 * 0.73;
  l.min_ns = p50 * 0.41;
  l.p50_ns = p50;
  l.p90_ns = p50 * 1.9;
  l.p95_ns = p50 * 2.4;
  l.p99_ns = p50 * 5.25;
  l.p999_ns = p50 * 13.5;
  l.p9999_ns = p50 * 40.25;
  l.max_ns = p50 * 97.5;
  l.percentile_curve = {{0, l.min_ns}, {50, p50}, {99, l.p99_ns}, {100, l.max_ns}};
  return l;
}

PhaseResult Phase(const std::string& phase, const std::string& engine, uint64_t ops, double seconds, double p50) {
  PhaseResult p;
  p.suite = "ycsb";
  p.workload = "workloada";
  p.phase = phase;
  p.engine = engine;
  p.parameters = {{"records", "1000"}, {"fieldcount", "10"}, {"fieldlength", "100"}};
  p.engine_settings = {{"journal_mode", "wal"}};
  p.threads = 2;
  p.duration_ns = seconds * 1e9;
  p.operations = ops;
  p.throughput_ops_per_sec = static_cast<double>(ops) / seconds;
  p.service_time = Latency(ops, p50);
  p.per_second = {{0, ops / 2, static_cast<double>(ops / 2), p50 * 5},
                  {1, ops - ops / 2, static_cast<double>(ops - ops / 2) / (seconds - 1), p50 * 5.5}};
  return p;
}

}  // namespace

RunResults SamplePhaseResults() {
  RunResults r;
  r.context = SampleRunResults().context;
  r.context.command_line =
      "build/dbx-bench run --workload workloads/ycsb/workloada --engines sqlite,lmdb,rocksdb --threads 2";
  r.context.configuration = {{"suite", "ycsb"}, {"workload", "workloads/ycsb/workloada"}, {"threads", "2"}};
  r.context.harness_overhead_ns_per_op = 21.5;

  PhaseResult load = Phase("load", "sqlite", 2, 1.5, 2.5e6);
  load.rows_per_operation = 1000;
  load.parameters.emplace_back("load_batch", "1000");
  load.per_op = {{"insert-batch", 2, 2 / 1.5, Latency(2, 2.5e6), std::nullopt}};
  r.phases.push_back(load);

  PhaseResult run = Phase("run", "sqlite", 1000, 1.25, 4321);
  run.warmup_operations = 40;
  run.start_unix_s = 1764580496.25;
  run.service_time.hdr_histogram = "HISTFAAAACx4nJNpmSzMwMDAzQABzFDqBRC7GexYwGD/ASLCxsLMdJ2ZqXEXIxMAo7kHaQ==";
  run.settle_ns = 56'250'000;
  run.per_op = {{"read", 503, 503 / 1.25, Latency(503, 3100), std::nullopt},
                {"update", 497, 497 / 1.25, Latency(497, 6789), std::nullopt}};
  run.resources = SampleResources(1000, 497, 497, 2035712, 497000, 1310720, 1000000);
  r.phases.push_back(run);

  PhaseResult lmdb_run = Phase("run", "lmdb", 1000, 1.0, 1234.5);
  lmdb_run.engine_settings = {{"flags", "MDB_NOSYNC"}};
  lmdb_run.target_rate = 1000;
  lmdb_run.latency_from_intended_start = Latency(1000, 1500);
  lmdb_run.per_op = {{"read", 500, 500, Latency(500, 1000), Latency(500, 1200)},
                     {"update", 500, 500, Latency(500, 1400), Latency(500, 1800)},
                     {"scan", 0, 0, LatencySummary{}, LatencySummary{}}};
  lmdb_run.incomplete = true;
  r.phases.push_back(lmdb_run);

  PhaseResult failed = Phase("run", "rocksdb", 0, 0, 0);
  failed.engine_settings = {{"sync", "false"}};
  failed.throughput_ops_per_sec = 0;
  failed.service_time = LatencySummary{};
  failed.per_second.clear();
  failed.error_occurred = true;
  failed.error_message = "Corruption: thread 1: read: key user6284781860667377211 (key number 0) not found";
  r.phases.push_back(failed);

  PhaseResult vps = Phase("select-pk", "sqlite", 100000, 2.0, 8123);
  vps.suite = "sqlite-vps";
  vps.workload = "";
  vps.dataset = "disk-bound";
  vps.threads = 1;
  vps.parameters = {{"records", "4294968"}, {"payload_bytes", "500"}};
  vps.per_op = {{"select", 100000, 50000, Latency(100000, 8123), std::nullopt}};
  vps.memory_method = "cgroup-v2 memory.max=1073741824";
  vps.merged_from = {{"client-a/results.json", "client-a", 1764580500.5, 2.0e9, 1, 50000, 25000},
                     {"client-b/results.json", "client-b", 1764580500.75, 1.75e9, 1, 50000, 28571.4}};
  vps.merged_throughput = "concurrent";
  vps.resources = SampleResources(100000, 0, 0, 0, 0, 3221225472, 2250000000);
  r.phases.push_back(vps);
  return r;
}

}  // namespace dbxb::testdata
