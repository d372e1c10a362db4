// Reads on a DB shaped like the sqlite-vps row store after its bulk load: N rows, each one primary
// entry ('r' + id -> a, b, 200-byte payload of random printable bytes, which do not compress, as the
// suite's) and two secondary-index entries ('a'/'b' + value + id -> empty), written in id order in
// batches of 1,000 rows under a 256 MiB memory budget with a 256 MiB block cache (as the dbx adapter
// runs it); about 300 MB of blocks, so the cache holds most but not all of them. The argument is the
// layout — K > 0: K chunks of ids, each flushed as one segment (a flush writes its blocks into the
// cache), no compaction; 0: eight such segments merged into one by Compact(), as a settled load ends
// — as background timing would otherwise vary the layout from run to run; -1: as the suite runs it
// (durability normal, background flushes and size-tiered compactions, WaitForIdle after the load:
// the settled layout, with the write tiers' last contents still in memory); -2: the first 95 % of the
// rows as layout 0 (one segment), the last 5 % left in the write tiers (frozen deltas merged into the
// WOS, which is not written out): the suite's settled shape (it leaves 0-48 MiB in the write tiers,
// depending on where its last WOS flush fell), made repeatable; -3: layout -2 with the write tiers
// then flushed as a second, small segment (no compaction), the shape a settle that flushes leaves.
// One loaded DB is kept at a time; the benchmarks of one layout run one after the other.
//
//   build-engine/engine/dbx_engine_bench --benchmark_filter=Rows
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dbx/db.h"

namespace {

constexpr size_t kRows = 1000000;
constexpr size_t kPayloadBytes = 200;

void AppendBigEndian(uint64_t v, std::string* out) {
  for (int i = 7; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string RowKey(uint64_t id) {
  std::string k(1, 'r');
  AppendBigEndian(id, &k);
  return k;
}

std::string IndexKey(char tag, uint64_t value, uint64_t id) {
  std::string k(1, tag);
  AppendBigEndian(value, &k);
  AppendBigEndian(id, &k);
  return k;
}

struct RowsDb {
  std::string dir;
  std::unique_ptr<dbx::DB> db;
  explicit RowsDb(int layout) {
    const int segments = layout > 0 ? layout : 8;
    const bool settled = layout == -1;
    const bool tail_in_memory = layout == -2 || layout == -3;  // the last 5 % written after the compaction
    const uint64_t in_segments = tail_in_memory ? kRows / 20 * 19 : kRows;
    std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    dir = base + "/dbx_bench_rows_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    dbx::Options o;
    o.durability = settled ? dbx::Durability::kNormal : dbx::Durability::kNone;
    o.memory_budget_bytes = size_t{256} << 20;
    o.block_cache_bytes = size_t{256} << 20;
    if (!settled) {
      o.compaction_trigger = 0;
      o.wos_flush_bytes = size_t{1} << 30;  // segments are cut by the Flush() calls below
    }
    if (dbx::Status st = dbx::DB::Open(o, dir, &db); !st.ok()) {
      std::fprintf(stderr, "rows_bench: cannot open %s: %s\n", dir.c_str(), st.ToString().c_str());
      std::exit(1);
    }
    std::mt19937_64 rng(7);
    std::string filler(1 << 20, ' ');
    for (char& c : filler) c = static_cast<char>(' ' + rng() % 95);
    std::string row;
    dbx::WriteBatch b;
    for (uint64_t id = 0; id < kRows; ++id) {
      uint64_t a = rng() % kRows, bv = rng() % kRows;
      row.clear();
      AppendBigEndian(a, &row);
      AppendBigEndian(bv, &row);
      row.append(filler, (id * 7919) % (filler.size() - kPayloadBytes), kPayloadBytes);
      b.Put(RowKey(id), row);
      b.Put(IndexKey('a', a, id), {});
      b.Put(IndexKey('b', bv, id), {});
      if ((id + 1) % 1000 == 0) {
        (void)db->Write(dbx::WriteOptions(), b);
        b.Clear();
      }
      if (!settled && id < in_segments && (id + 1) % (in_segments / segments) == 0) (void)db->Flush();
      if (id + 1 == in_segments && tail_in_memory) (void)db->Compact();
    }
    if (layout == 0) (void)db->Compact();
    if (layout == -3) (void)db->Flush();
    if (tail_in_memory) (void)db->WaitForIdle();
    if (settled) (void)db->WaitForIdle();
  }
  ~RowsDb() {
    db.reset();
    std::filesystem::remove_all(dir);
  }
};

std::unique_ptr<RowsDb> loaded_rows;
int loaded_segments = std::numeric_limits<int>::min();  // none loaded

RowsDb& Rows(int segments) {
  if (loaded_segments != segments) {
    loaded_rows.reset();
    loaded_rows = std::make_unique<RowsDb>(segments);
    loaded_segments = segments;
    static bool registered = [] { return std::atexit([] { loaded_rows.reset(); }) == 0; }();
    (void)registered;
  }
  return *loaded_rows;
}

void SetSegmentCounters(benchmark::State& state, const RowsDb& r, const dbx::DbStats& before) {
  dbx::DbStats after = r.db->GetStats();
  state.counters["segments"] = static_cast<double>(after.segments);
  state.counters["write_tiers_MiB"] =
      static_cast<double>(after.delta_bytes + after.frozen_delta_bytes + after.wos_bytes + after.frozen_wos_bytes) /
      (1 << 20);
  state.counters["cached_MiB"] = static_cast<double>(after.block_cache_bytes) / (1 << 20);
  uint64_t file_bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(r.dir))
    if (f.path().extension() == ".seg") file_bytes += f.file_size();
  state.counters["segment_MiB"] = static_cast<double>(file_bytes) / (1 << 20);
  double blocks = static_cast<double>(after.block_cache_hits + after.block_cache_misses - before.block_cache_hits -
                                      before.block_cache_misses);
  state.counters["blocks/op"] = blocks / static_cast<double>(state.iterations());
  state.counters["misses/op"] = static_cast<double>(after.block_cache_misses - before.block_cache_misses) /
                                static_cast<double>(state.iterations());
}

// select-pk: one point Get of a random row.
void BM_Dbx_RowsGetPk(benchmark::State& state) {
  RowsDb& r = Rows(static_cast<int>(state.range(0)));
  std::mt19937_64 rng(1);
  std::string v;
  dbx::DbStats before = r.db->GetStats();
  for (auto _ : state) {
    if (!r.db->Get(dbx::ReadOptions(), RowKey(rng() % kRows), &v).ok()) state.SkipWithError("get");
  }
  SetSegmentCounters(state, r, before);
}

// range-scan: Scan 10 entries of index 'a' from a random value, then Get each row.
void BM_Dbx_RowsIndexRange(benchmark::State& state) {
  RowsDb& r = Rows(static_cast<int>(state.range(0)));
  std::mt19937_64 rng(2);
  std::string v;
  std::vector<std::string> ids;
  dbx::DbStats before = r.db->GetStats();
  for (auto _ : state) {
    ids.clear();
    std::string start(1, 'a');
    AppendBigEndian(rng() % kRows, &start);
    (void)r.db->Scan(dbx::ReadOptions(), start, {}, 10, [&](std::string_view k, std::string_view) {
      if (k[0] != 'a') return false;
      ids.push_back(RowKey(0));
      ids.back().replace(1, 8, k.substr(9, 8));
      return true;
    });
    for (const std::string& id : ids)
      if (!r.db->Get(dbx::ReadOptions(), id, &v).ok()) state.SkipWithError("get");
  }
  SetSegmentCounters(state, r, before);
}

// The index walk of range-scan alone: Scan 10 entries of index 'a' from a random value.
void BM_Dbx_RowsScan10(benchmark::State& state) {
  RowsDb& r = Rows(static_cast<int>(state.range(0)));
  std::mt19937_64 rng(2);
  std::string start;
  size_t ids = 0;
  dbx::DbStats before = r.db->GetStats();
  for (auto _ : state) {
    start.assign(1, 'a');
    AppendBigEndian(rng() % kRows, &start);
    if (!r.db->Scan(dbx::ReadOptions(), start, {}, 10,
                    [&](std::string_view k, std::string_view) {
                      if (k[0] != 'a') return false;
                      ids += static_cast<unsigned char>(k[16]);
                      return true;
                    })
             .ok())
      state.SkipWithError("scan");
  }
  benchmark::DoNotOptimize(ids);
  SetSegmentCounters(state, r, before);
}

// The iterator alone: Seek into index 'a' and step 10 times.
void BM_Dbx_RowsSeekNext10(benchmark::State& state) {
  RowsDb& r = Rows(static_cast<int>(state.range(0)));
  std::mt19937_64 rng(3);
  std::unique_ptr<dbx::Iterator> it = r.db->NewIterator(dbx::ReadOptions());
  dbx::DbStats before = r.db->GetStats();
  size_t bytes = 0;
  for (auto _ : state) {
    std::string start(1, 'a');
    AppendBigEndian(rng() % kRows, &start);
    it->Seek(start);
    for (int i = 0; i < 10 && it->Valid(); ++i, it->Next()) bytes += it->key().size();
  }
  benchmark::DoNotOptimize(bytes);
  SetSegmentCounters(state, r, before);
}

}  // namespace

BENCHMARK(BM_Dbx_RowsGetPk)->Arg(-1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsGetPk)->Arg(-2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(-1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(-2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(-1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(-2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(-1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(-2)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsGetPk)->Arg(-3)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(-3)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(-3)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(-3)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsGetPk)->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsGetPk)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsGetPk)->Arg(8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsIndexRange)->Arg(8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsScan10)->Arg(8)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Dbx_RowsSeekNext10)->Arg(8)->Unit(benchmark::kMicrosecond);
