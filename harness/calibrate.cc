#include "harness/calibrate.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/interrupt.h"
#include "harness/sampler.h"
#include "workloads/dataset.h"
#include "workloads/micro_suite.h"

namespace dbxb {
namespace {

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The native side of one round: the loop the harness's iteration performs, on the benchmark's database.
// `expected` holds the row count and byte sum of a full scan, computed once outside the timing.
Status NativeRound(const std::string& workload, NativeLoop& loop, const Dataset& data,
                   const std::vector<uint64_t>& order, const std::pair<uint64_t, uint64_t>& expected) {
  if (workload == "get") return loop.GetAll(data, order);
  if (workload == "insert") return loop.PutAll(data);
  uint64_t rows = 0, bytes = 0;
  DBXB_RETURN_IF_ERROR(loop.ScanAll(&rows, &bytes));
  if (rows != expected.first || bytes != expected.second)
    return Status::Corruption(fmt::format("native scan: {} rows, expected {}", rows, expected.first));
  return Status::Ok();
}

// Times one side of a round: for insert, a fresh database is prepared (and the native loop opened on
// it by `before`, closed by `after`) and checked outside the timing.
template <typename Before, typename Body, typename After>
Status TimedRound(MicroBenchmark& bench, Before&& before, Body&& body, After&& after, double* ns) {
  const bool fresh = bench.fresh_state_per_iteration();
  if (fresh) DBXB_RETURN_IF_ERROR(bench.PrepareIteration());
  Status st = before();
  if (st.ok()) {
    Stopwatch watch;
    st = body();
    *ns = watch.ElapsedNs();
  }
  after();
  if (fresh) {
    Status done = bench.FinishIteration();  // checks the exact count, closes and removes the database
    if (st.ok()) st = done;
  }
  return st;
}

}  // namespace

const std::vector<std::string>& CalibrationWorkloads() {
  static const std::vector<std::string> workloads = {"get", "scan", "insert"};
  return workloads;
}

bool HasNativeLoop(const AdapterFactory& engine) { return engine.native_loop; }

std::string CalibrationHeader() {
  return fmt::format("{:<8} {:<7} {:>14} {:>14} {:>8} {:>10}\n", "engine", "loop", "harness ns/op", "native ns/op",
                     "ratio", "min ratio");
}

std::string CalibrationLine(const CalibrationResult& row) {
  if (!row.error.empty()) return fmt::format("{:<8} {:<7} failed: {}\n", row.engine, row.workload, row.error);
  const bool over = row.workload == "get" && row.ratio > kCalibrationGetGoal;
  return fmt::format("{:<8} {:<7} {:>14.1f} {:>14.1f} {:>8.3f} {:>10.3f}{}\n", row.engine, row.workload,
                     row.harness_ns_per_op, row.native_ns_per_op, row.ratio, row.min_ratio,
                     over ? fmt::format("  over the {:.2f} goal for point reads", kCalibrationGetGoal) : "");
}

namespace {

// The rounds of one calibration, in nanoseconds per round: the harness's iteration and the native loop.
struct RoundTimes {
  std::vector<double> harness;
  std::vector<double> native;
};

// Runs round 0 (a warm-up of both sides, not kept) and `rounds` more on the set-up benchmark, the order
// of the two sides alternating (ABBA) against drift.
Status RunRounds(MicroBenchmark& bench, const std::string& workload, const Dataset& data,
                 const std::vector<uint64_t>& order, const std::pair<uint64_t, uint64_t>& expected, uint64_t rounds,
                 RoundTimes* times) {
  // The native loop lives as long as the database it reads: the whole benchmark for get and scan (so
  // that a per-connection cache, SQLite's, warms up as the session's did), one round for insert.
  std::unique_ptr<NativeLoop> loop;
  auto open_loop = [&]() -> Status {
    if (loop != nullptr && !bench.fresh_state_per_iteration()) return Status::Ok();
    auto l = bench.adapter()->NewNativeLoop();
    if (!l.ok()) return l.status();
    loop = std::move(l.value());
    return Status::Ok();
  };
  auto close_loop = [&] {
    if (bench.fresh_state_per_iteration()) loop.reset();  // before its database is closed
  };
  auto nothing = [] { return Status::Ok(); };
  Status st;
  for (uint64_t r = 0; st.ok() && r <= rounds; ++r) {
    if (InterruptRequested()) return Status::Interrupted("calibrating");
    double h = 0, n = 0;
    auto harness_side = [&] {
      return TimedRound(
          bench, nothing, [&] { return bench.RunIteration(); }, [] {}, &h);
    };
    auto native_side = [&] {
      auto body = [&] { return NativeRound(workload, *loop, data, order, expected); };
      return TimedRound(bench, open_loop, body, close_loop, &n);
    };
    if (r % 2 == 0) {
      st = harness_side();
      if (st.ok()) st = native_side();
    } else {
      st = native_side();
      if (st.ok()) st = harness_side();
    }
    if (st.ok() && r > 0) {
      times->harness.push_back(h);
      times->native.push_back(n);
    }
  }
  return st;  // the native loop closes here, before the caller tears the benchmark down
}

// Fills the row's figures from the rounds of a benchmark whose iteration is `ops` operations.
void Summarize(RoundTimes times, double ops, CalibrationResult* row) {
  row->harness_ns_per_op = Median(times.harness) / ops;
  row->native_ns_per_op = Median(times.native) / ops;
  // Each round's two sides ran back to back, so a slow minute of the machine hits both alike; a burst
  // that hits one side of one round is an outlying ratio the median passes over.
  std::vector<double> paired;
  paired.reserve(times.harness.size());
  for (size_t i = 0; i < times.harness.size(); ++i) paired.push_back(times.harness[i] / times.native[i]);
  row->ratio = Median(std::move(paired));
  row->min_ratio = *std::min_element(times.harness.begin(), times.harness.end()) /
                   *std::min_element(times.native.begin(), times.native.end());
  row->harness_round_ns = std::move(times.harness);
  row->native_round_ns = std::move(times.native);
}

}  // namespace

CalibrationResult CalibrateOne(const AdapterFactory& engine, const std::string& workload, uint64_t records,
                               uint64_t rounds, const std::string& work_dir) {
  CalibrationResult row;
  row.engine = engine.name;
  row.workload = workload;
  row.records = records;
  row.rounds = rounds;
  auto data = Dataset::Make({records, 12, 19});
  if (!data.ok()) {
    row.error = data.status().ToString();
    return row;
  }
  MicroConfig config;
  config.dataset = data.value();
  config.engine_options.durability = Durability::kNone;  // dbx-micro's default
  config.work_dir = work_dir;
  auto made = MakeMicroBenchmark(workload, engine, config);
  if (!made.ok()) {
    row.error = made.status().ToString();
    return row;
  }
  MicroBenchmark& bench = *made.value();
  const std::vector<uint64_t> order = MicroGetOrder(records, config.seed);
  // A full scan's row count and byte sum, computed once outside the timing.
  std::pair<uint64_t, uint64_t> expected{0, 0};
  for (uint64_t i = 0; i < records; ++i)
    AddScanRow((*data)->key(i), (*data)->value(i), &expected.first, &expected.second);
  RoundTimes times;
  Status st = bench.SetUp();
  if (st.ok() && bench.settles()) st = bench.Settle();
  if (st.ok()) st = RunRounds(bench, workload, **data, order, expected, rounds, &times);
  Status down = bench.TearDown();
  if (st.ok()) st = down;
  if (!st.ok()) {
    row.error = st.ToString();
    return row;
  }
  Summarize(std::move(times), static_cast<double>(bench.elements_per_iteration()), &row);
  return row;
}

}  // namespace dbxb
