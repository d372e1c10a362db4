// Micro-benchmarks of the DBX engine's hot structures and of the dbx-micro operations (10k records,
// keys key_%08d, values value_%08d_data, durability none), with LMDB doing the same work in the same
// binary so that ratios are measured side by side.
//
//   build-engine/engine/dbx_engine_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <lmdb.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "dbx/db.h"
#include "src/hash.h"
#include "src/mem_table.h"
#include "src/segment_reader.h"
#include "src/segment_writer.h"

namespace {

struct Data {
  std::vector<std::string> keys, values;
  std::vector<size_t> random_order;
  explicit Data(size_t n) {
    char buf[64];
    for (size_t i = 0; i < n; ++i) {
      std::snprintf(buf, sizeof(buf), "key_%08zu", i);
      keys.emplace_back(buf);
      std::snprintf(buf, sizeof(buf), "value_%08zu_data", i);
      values.emplace_back(buf);
      random_order.push_back(i);
    }
    std::shuffle(random_order.begin(), random_order.end(), std::mt19937_64(42));
  }
};

const Data& GetData(size_t n) {
  static std::map<size_t, Data*> cache;
  auto& d = cache[n];
  if (d == nullptr) d = new Data(n);
  return *d;
}

std::string BenchDir(const char* name) {
  std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
  std::string dir = base + "/dbx_bench_" + name + "_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  return dir;
}

// Page faults this thread has taken: an insert's timed part reports its own as a counter (a fresh page
// costs microseconds on a VM; docs/measurements/2026-12-04-insert-page-faults.md).
long ThreadFaults() {
  rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt + u.ru_majflt;
}

dbx::Options BenchOptions() {
  dbx::Options o;
  o.durability = dbx::Durability::kNone;
  return o;
}

// ---------------------------------------------------------------- DBX, dbx-micro operations

// As dbx-micro's insert: a fresh database per iteration, opened and closed untimed.
void BM_Dbx_Insert(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  std::string dir = BenchDir("insert");
  long faults = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<dbx::DB> db;
    if (!dbx::DB::Open(BenchOptions(), dir, &db).ok()) state.SkipWithError("open");
    const long before = ThreadFaults();
    state.ResumeTiming();
    dbx::WriteBatch b;
    for (size_t i = 0; i < d.keys.size(); ++i) b.Put(d.keys[i], d.values[i]);
    if (!db->Write(dbx::WriteOptions(), b).ok()) state.SkipWithError("write");
    state.PauseTiming();
    faults += ThreadFaults() - before;
    db.reset();
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
  state.counters["faults"] = benchmark::Counter(static_cast<double>(faults), benchmark::Counter::kAvgIterations);
}

// The same, with the batch's keys in random order (the delta store sorts large unsorted batches).
void BM_Dbx_InsertRandomOrder(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  std::string dir = BenchDir("insert_random");
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<dbx::DB> db;
    if (!dbx::DB::Open(BenchOptions(), dir, &db).ok()) state.SkipWithError("open");
    state.ResumeTiming();
    dbx::WriteBatch b;
    for (size_t i : d.random_order) b.Put(d.keys[i], d.values[i]);
    if (!db->Write(dbx::WriteOptions(), b).ok()) state.SkipWithError("write");
    state.PauseTiming();
    db.reset();
    std::filesystem::remove_all(dir);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

struct LoadedDbx {
  std::string dir;
  std::unique_ptr<dbx::DB> db;
  explicit LoadedDbx(const Data& d) : dir(BenchDir("loaded")) {
    (void)dbx::DB::Open(BenchOptions(), dir, &db);
    dbx::WriteBatch b;
    for (size_t i = 0; i < d.keys.size(); ++i) b.Put(d.keys[i], d.values[i]);
    (void)db->Write(dbx::WriteOptions(), b);
  }
  ~LoadedDbx() {
    db.reset();
    std::filesystem::remove_all(dir);
  }
};

void BM_Dbx_Get(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LoadedDbx l(d);
  std::string v;
  for (auto _ : state) {
    for (size_t i : d.random_order) {
      if (!l.db->Get(dbx::ReadOptions(), d.keys[i], &v).ok() || v != d.values[i]) state.SkipWithError("get");
    }
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

// The timed full scans of BM_Dbx_Scan and BM_Dbx_ScanBudget64MiB: every row visited, its bytes summed.
void TimeFullScans(benchmark::State& state, dbx::DB* db, size_t expected_rows) {
  for (auto _ : state) {
    size_t n = 0, bytes = 0;
    (void)db->Scan(dbx::ReadOptions(), {}, {}, 0, [&](std::string_view k, std::string_view v) {
      ++n;
      bytes += k.size() + v.size();
      return true;
    });
    if (n != expected_rows) state.SkipWithError("scan");
    benchmark::DoNotOptimize(bytes);
  }
}

void BM_Dbx_Scan(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LoadedDbx l(d);
  // Steady state: the first full scan after the load builds the columnar cache (tier 2); its cost is
  // what BM_Dbx_MergedScan_NoColumnarCache measures.
  (void)l.db->Scan(dbx::ReadOptions(), {}, {}, 0, [](std::string_view, std::string_view) { return true; });
  TimeFullScans(state, l.db.get(), d.keys.size());
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Dbx_Count(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LoadedDbx l(d);
  for (auto _ : state) {
    uint64_t n = 0;
    (void)l.db->Count(dbx::ReadOptions(), &n);
    if (n != d.keys.size()) state.SkipWithError("count");
    benchmark::DoNotOptimize(n);
  }
}

// ---------------------------------------------------------------- LMDB, the same operations

struct LmdbEnv {
  MDB_env* env = nullptr;
  MDB_dbi dbi = 0;
  std::string dir;
  explicit LmdbEnv(const char* name) : dir(BenchDir(name)) {
    std::filesystem::create_directories(dir);
    mdb_env_create(&env);
    mdb_env_set_mapsize(env, size_t{4} << 30);
    mdb_env_open(env, dir.c_str(), MDB_NOSYNC | MDB_NOMETASYNC, 0644);
    MDB_txn* txn;
    mdb_txn_begin(env, nullptr, 0, &txn);
    mdb_dbi_open(txn, nullptr, 0, &dbi);
    mdb_txn_commit(txn);
  }
  void Load(const Data& d) {
    MDB_txn* txn;
    mdb_txn_begin(env, nullptr, 0, &txn);
    for (size_t i = 0; i < d.keys.size(); ++i) {
      MDB_val k{d.keys[i].size(), const_cast<char*>(d.keys[i].data())};
      MDB_val v{d.values[i].size(), const_cast<char*>(d.values[i].data())};
      mdb_put(txn, dbi, &k, &v, 0);
    }
    mdb_txn_commit(txn);
  }
  ~LmdbEnv() {
    mdb_env_close(env);
    std::filesystem::remove_all(dir);
  }
};

void BM_Lmdb_Insert(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  long faults = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto* e = new LmdbEnv("lmdb_insert");
    const long before = ThreadFaults();
    state.ResumeTiming();
    e->Load(d);
    state.PauseTiming();
    faults += ThreadFaults() - before;
    delete e;
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
  state.counters["faults"] = benchmark::Counter(static_cast<double>(faults), benchmark::Counter::kAvgIterations);
}

void BM_Lmdb_Get(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LmdbEnv e("lmdb_get");
  e.Load(d);
  std::string out;
  for (auto _ : state) {
    MDB_txn* txn;
    mdb_txn_begin(e.env, nullptr, MDB_RDONLY, &txn);
    for (size_t i : d.random_order) {
      MDB_val k{d.keys[i].size(), const_cast<char*>(d.keys[i].data())}, v;
      if (mdb_get(txn, e.dbi, &k, &v) != 0) state.SkipWithError("get");
      out.assign(static_cast<const char*>(v.mv_data), v.mv_size);
      if (out != d.values[i]) state.SkipWithError("value");
    }
    mdb_txn_abort(txn);
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Lmdb_Scan(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LmdbEnv e("lmdb_scan");
  e.Load(d);
  for (auto _ : state) {
    MDB_txn* txn;
    MDB_cursor* c;
    mdb_txn_begin(e.env, nullptr, MDB_RDONLY, &txn);
    mdb_cursor_open(txn, e.dbi, &c);
    MDB_val k, v;
    size_t n = 0, bytes = 0;
    for (int rc = mdb_cursor_get(c, &k, &v, MDB_FIRST); rc == 0; rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
      ++n;
      bytes += k.mv_size + v.mv_size;
    }
    mdb_cursor_close(c);
    mdb_txn_abort(txn);
    if (n != d.keys.size()) state.SkipWithError("scan");
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Lmdb_Count(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  LmdbEnv e("lmdb_count");
  e.Load(d);
  for (auto _ : state) {
    MDB_txn* txn;
    MDB_stat st;
    mdb_txn_begin(e.env, nullptr, MDB_RDONLY, &txn);
    mdb_stat(txn, e.dbi, &st);
    mdb_txn_abort(txn);
    if (st.ms_entries != d.keys.size()) state.SkipWithError("count");
  }
}

// ---------------------------------------------------------------- hot structures

void BM_Delta_Insert(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  for (auto _ : state) {
    dbx::MemTable t;
    t.ReserveKeys(d.keys.size());
    uint64_t seq = 1;
    for (size_t i : d.random_order) t.Add(d.keys[i], dbx::Hash64(d.keys[i]), seq++, dbx::ValueType::kPut, d.values[i]);
    benchmark::DoNotOptimize(t.entries());
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Delta_Lookup(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  dbx::MemTable t;
  for (size_t i = 0; i < d.keys.size(); ++i)
    t.Add(d.keys[i], dbx::Hash64(d.keys[i]), i + 1, dbx::ValueType::kPut, d.values[i]);
  for (auto _ : state) {
    for (size_t i : d.random_order) {
      const dbx::MemNode* n = t.Find(d.keys[i], dbx::Hash64(d.keys[i]));
      benchmark::DoNotOptimize(n->VisibleAt(~0ull));
    }
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Segment_PointRead(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  std::string dir = BenchDir("segment");
  std::filesystem::create_directories(dir);
  std::string path = dir + "/000001.seg";
  dbx::Options o;
  {
    std::unique_ptr<dbx::WritableFile> f;
    (void)dbx::WritableFile::Create(path, &f);
    dbx::SegmentWriter w(o, std::move(f));
    for (size_t i = 0; i < d.keys.size(); ++i) w.Add(d.keys[i], dbx::PackTag(i + 1, dbx::ValueType::kPut), d.values[i]);
    (void)w.Finish();
  }
  std::unique_ptr<dbx::RandomAccessFile> file;
  (void)dbx::OpenRandomAccessFile(path, &file);
  std::shared_ptr<dbx::SegmentReader> r;
  (void)dbx::SegmentReader::Open(std::move(file), 1, std::make_shared<dbx::BlockCache>(64 << 20), &r);
  std::string v;
  for (auto _ : state) {
    for (size_t i : d.random_order) {
      dbx::Lookup res;
      (void)r->Get(d.keys[i], dbx::Hash64(d.keys[i]), ~0ull, &res, &v, nullptr);
      if (res != dbx::Lookup::kValue) state.SkipWithError("segment get");
    }
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
  std::filesystem::remove_all(dir);
}

void BM_Dbx_MergedScan_NoColumnarCache(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  std::string dir = BenchDir("merged");
  dbx::Options o = BenchOptions();
  o.columnar_cache_bytes = 0;
  std::unique_ptr<dbx::DB> db;
  (void)dbx::DB::Open(o, dir, &db);
  dbx::WriteBatch b;
  for (size_t i = 0; i < d.keys.size(); ++i) b.Put(d.keys[i], d.values[i]);
  (void)db->Write(dbx::WriteOptions(), b);
  for (auto _ : state) {
    size_t n = 0;
    (void)db->Scan(dbx::ReadOptions(), {}, {}, 0, [&](std::string_view, std::string_view) {
      ++n;
      return true;
    });
    if (n != d.keys.size()) state.SkipWithError("scan");
  }
  state.SetItemsProcessed(state.iterations() * d.keys.size());
  db.reset();
  std::filesystem::remove_all(dir);
}

// As dbx-micro loads and reads the engine: the harness's default 64 MiB budget (so an 8 MiB
// columnar share, which 1M rows do not fit in), batches of 1000 rows, then the dbx adapter's settle
// (Flush, WaitForIdle, Compact when more than one segment is left). The tiers read are then what
// the suite's scan and get read: one segment, empty write tiers.
struct BudgetDbx {
  std::string dir;
  std::unique_ptr<dbx::DB> db;
  explicit BudgetDbx(const Data& d) : dir(BenchDir("budget")) {
    dbx::Options o = BenchOptions();
    o.memory_budget_bytes = 64 << 20;
    o.block_cache_bytes = 64 << 20;  // as the dbx adapter sets it: the cache budget is the block cache
    (void)dbx::DB::Open(o, dir, &db);
    for (size_t i = 0; i < d.keys.size(); i += 1000) {
      dbx::WriteBatch b;
      for (size_t j = i; j < std::min(i + 1000, d.keys.size()); ++j) b.Put(d.keys[j], d.values[j]);
      (void)db->Write(dbx::WriteOptions(), b);
    }
    (void)db->Flush();
    (void)db->WaitForIdle();
    if (db->GetStats().segments > 1) (void)db->Compact();
    (void)db->WaitForIdle();
  }
  ~BudgetDbx() {
    db.reset();
    std::filesystem::remove_all(dir);
  }
};

void BM_Dbx_ScanBudget64MiB(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  BudgetDbx l(d);
  (void)l.db->Scan(dbx::ReadOptions(), {}, {}, 0, [](std::string_view, std::string_view) { return true; });
  TimeFullScans(state, l.db.get(), d.keys.size());
  state.counters["segments"] = static_cast<double>(l.db->GetStats().segments);
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

void BM_Dbx_GetBudget64MiB(benchmark::State& state) {
  const Data& d = GetData(state.range(0));
  BudgetDbx l(d);
  std::string v;
  const dbx::DbStats before = l.db->GetStats();
  for (auto _ : state) {
    for (size_t i : d.random_order) {
      if (!l.db->Get(dbx::ReadOptions(), d.keys[i], &v).ok() || v != d.values[i]) state.SkipWithError("get");
    }
  }
  const dbx::DbStats after = l.db->GetStats();
  const double gets = static_cast<double>(state.iterations() * d.keys.size());
  state.counters["segments"] = static_cast<double>(after.segments);
  // Block cache lookups per Get that found the block, and that read and decoded it.
  state.counters["hits/get"] = static_cast<double>(after.block_cache_hits - before.block_cache_hits) / gets;
  state.counters["misses/get"] = static_cast<double>(after.block_cache_misses - before.block_cache_misses) / gets;
  state.counters["cache_MiB"] = static_cast<double>(after.block_cache_bytes) / (1 << 20);
  state.SetItemsProcessed(state.iterations() * d.keys.size());
}

}  // namespace

// dbx-micro operations at 10k records, and at 1M (fewer iterations: each costs ~0.1-1 s).
BENCHMARK(BM_Dbx_Insert)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Lmdb_Insert)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_Get)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Lmdb_Get)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_Scan)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Lmdb_Scan)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_Count)->Arg(10000)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Lmdb_Count)->Arg(10000)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Dbx_Insert)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Lmdb_Insert)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Dbx_Get)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Lmdb_Get)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_Dbx_Scan)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_Lmdb_Scan)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_Dbx_Count)->Arg(1000000)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Lmdb_Count)->Arg(1000000)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Dbx_InsertRandomOrder)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Delta_Insert)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Delta_Lookup)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Segment_PointRead)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_MergedScan_NoColumnarCache)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_MergedScan_NoColumnarCache)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(5);

BENCHMARK(BM_Dbx_ScanBudget64MiB)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_Dbx_GetBudget64MiB)->Arg(1000000)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
