#include "workloads/sqlite_vps/vps_data.h"

#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "workloads/sqlite_vps/vps_config.h"

namespace dbxb {
namespace {

TEST(IndexPermutationTest, IsABijectionForAwkwardSizes) {
  for (uint64_t n : {1ull, 2ull, 3ull, 5ull, 17ull, 1000ull, 1024ull, 1025ull, 4099ull}) {
    IndexPermutation p(n, 7);
    std::set<uint64_t> seen;
    for (uint64_t x = 0; x < n; ++x) {
      uint64_t y = p(x);
      ASSERT_LT(y, n);
      seen.insert(y);
    }
    EXPECT_EQ(seen.size(), n) << n;
  }
}

TEST(IndexPermutationTest, DependsOnTheSeedAndScatters) {
  IndexPermutation p(10000, 1), q(10000, 2);
  int same = 0, adjacent = 0;
  for (uint64_t x = 0; x < 10000; ++x) {
    same += p(x) == q(x);
    if (x > 0) adjacent += (p(x) == p(x - 1) + 1);
  }
  EXPECT_LT(same, 20);
  EXPECT_LT(adjacent, 20);  // consecutive ids do not get consecutive values of a
}

TEST(VpsRowsTest, FilledRowsVerifyAndCarryTheirVersion) {
  VpsRows rows(1000, 200, 3);
  Row r;
  for (int64_t id : {1, 2, 999, 1000}) {
    for (uint32_t v : {0u, 1u, 42u, VpsRows::kMaxVersion}) {
      rows.Fill(id, v, &r);
      EXPECT_EQ(r.payload.size(), 200u);
      uint32_t got = 77;
      ASSERT_TRUE(rows.Verify(id, r, &got).ok()) << rows.Verify(id, r).ToString();
      EXPECT_EQ(got, v);
      EXPECT_GE(r.a, 0);
      EXPECT_LT(r.a, 1000);
      EXPECT_GE(r.b, 0);
      EXPECT_LT(r.b, 1000);
    }
  }
  rows.Fill(5, 0, &r);
  EXPECT_EQ(r.payload.substr(0, 19), "#000000000005v0000:");
  // Rows inserted after the load: a continues above every loaded value.
  EXPECT_EQ(rows.A(1001), 1000);
  EXPECT_EQ(rows.A(5000), 4999);
  rows.Fill(1001, 0, &r);
  EXPECT_TRUE(rows.Verify(1001, r).ok());
}

TEST(VpsRowsTest, VerifyCatchesEveryKindOfWrongRow) {
  VpsRows rows(100, 64, 9);
  Row good;
  rows.Fill(10, 1, &good);
  auto broken = [&](auto mutate) {
    Row r = good;
    mutate(r);
    return rows.Verify(10, r);
  };
  EXPECT_TRUE(broken([](Row& r) { r.id = 11; }).IsCorruption());
  EXPECT_TRUE(broken([](Row& r) { r.a += 1; }).IsCorruption());
  EXPECT_TRUE(broken([](Row& r) { r.b = (r.b + 1) % 100; }).IsCorruption());
  EXPECT_TRUE(broken([](Row& r) { r.payload.pop_back(); }).IsCorruption());
  EXPECT_TRUE(broken([](Row& r) { r.payload.back() ^= 1; }).IsCorruption());
  EXPECT_TRUE(broken([](Row& r) { r.payload[12] = '1'; }).IsCorruption());  // another id in the prefix
  EXPECT_TRUE(broken([](Row& r) { r.payload[17] = '2'; }).IsCorruption());  // version 2 with version 1's b
  EXPECT_TRUE(broken([](Row& r) { r.payload[0] = 'x'; }).IsCorruption());
  Row other;
  rows.Fill(11, 1, &other);
  EXPECT_TRUE(rows.Verify(10, other).IsCorruption());
}

// The disk-bound data set must outgrow memory on engines that compress blocks too: 16 KiB of
// consecutive rows (what a block holds) compress to no less than 3/4 of their size (95 printable symbols
// allow about 82 %; a repeated pattern would compress to a few percent).
TEST(VpsRowsTest, PayloadsDoNotCompress) {
  VpsRows rows(100000, 500, 1);
  std::string block;
  Row r;
  for (int64_t id = 1; block.size() < (16u << 10); ++id) {
    rows.Fill(id, 0, &r);
    block += r.payload;
  }
  std::string out(ZSTD_compressBound(block.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), block.data(), block.size(), 19);
  ASSERT_FALSE(ZSTD_isError(n));
  EXPECT_GT(static_cast<double>(n), 0.75 * static_cast<double>(block.size())) << n << " of " << block.size();
}

TEST(VpsRowsTest, SameSeedSameRows) {
  VpsRows x(500, 40, 5), y(500, 40, 5), z(500, 40, 6);
  Row rx, ry, rz;
  int differ = 0;
  for (int64_t id = 1; id <= 500; ++id) {
    x.Fill(id, 1, &rx);
    y.Fill(id, 1, &ry);
    z.Fill(id, 1, &rz);
    EXPECT_EQ(rx, ry);
    differ += rx.a != rz.a;
  }
  EXPECT_GT(differ, 400);
}

// --durability reaches every engine of every data set; the default is the study's normal.
TEST(VpsConfigTest, DurabilityFollowsTheOptions) {
  SqliteVpsConfig config;
  config.datasets = {VpsDataset::kCached, VpsDataset::kDiskBound};
  for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull}) {
    PhaseSuiteOptions options;
    options.records = 1000;
    options.engine_options.durability = d;
    for (VpsDataset dataset : config.datasets) {
      auto plan = ResolveVpsPlan(dataset, options, config);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_EQ(plan->engine_options.durability, d) << DurabilityName(d) << " " << VpsDatasetName(dataset);
      // The other settings stay (the first ones are SQLite's production settings on both data sets).
      const auto sqlite = VpsSqliteNativeOptions();
      ASSERT_GE(plan->engine_options.native_options.size(), sqlite.size());
      EXPECT_TRUE(std::equal(sqlite.begin(), sqlite.end(), plan->engine_options.native_options.begin()));
    }
  }
}

TEST(VpsConfigTest, DefaultsFollowTheStudy) {
  PhaseSuiteOptions options;
  SqliteVpsConfig config;
  auto cached = ResolveVpsPlan(VpsDataset::kCached, options, config);
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ(cached->records, 1'000'000u);
  EXPECT_EQ(cached->payload_bytes, 200u);
  EXPECT_EQ(cached->engine_options.cache_bytes, 256ull << 20);
  EXPECT_EQ(cached->engine_options.durability, Durability::kNormal);
  EXPECT_EQ(cached->engine_options.native_options, VpsSqliteNativeOptions());
  ASSERT_EQ(cached->phases.size(), 7u);
  EXPECT_EQ(cached->phases[0].name, "bulk-insert");
  EXPECT_EQ(cached->phases[0].warmup_operations + cached->phases[0].operations, 1'000'000u);
  EXPECT_EQ(cached->phases[0].duration_seconds, 0);
  EXPECT_EQ(cached->phases[2].rows_per_operation, 10u);  // range-scan
  EXPECT_EQ(cached->phases[4].op_types, (std::vector<std::string>{"read", "update", "insert"}));
  EXPECT_EQ(cached->phases[5].threads, 4u);
  EXPECT_EQ(cached->phases[5].duration_seconds, 5.0);
  EXPECT_EQ(cached->phases[5].operations, 0u);
  EXPECT_EQ(cached->phases[6].threads, 1u);

  config.memory_limit_bytes = 100'000'000;
  auto disk = ResolveVpsPlan(VpsDataset::kDiskBound, options, config);
  ASSERT_TRUE(disk.ok());
  EXPECT_EQ(disk->payload_bytes, 500u);
  EXPECT_EQ(disk->records, 400'000u);                        // 2 x limit / 500
  EXPECT_EQ(disk->engine_options.cache_bytes, 12'500'000u);  // limit / 8
  auto expected_native = VpsSqliteNativeOptions();
  expected_native.emplace_back("lmdb.readahead", "off");   // disk-bound only
  expected_native.emplace_back("dbx.block_size", "8192");  // disk-bound only
  EXPECT_EQ(disk->engine_options.native_options, expected_native);
  // The user's --engine-option settings come after the suite's own, so that they win.
  options.engine_options.native_options = {{"lmdb.readahead", "on"}};
  disk = ResolveVpsPlan(VpsDataset::kDiskBound, options, config);
  ASSERT_TRUE(disk.ok());
  expected_native.emplace_back("lmdb.readahead", "on");
  EXPECT_EQ(disk->engine_options.native_options, expected_native);
  options.engine_options.native_options.clear();
  EXPECT_EQ(disk->memory_limit_bytes, 100'000'000u);
  config.memory_limit_bytes = 0;
  disk = ResolveVpsPlan(VpsDataset::kDiskBound, options, config);
  ASSERT_TRUE(disk.ok());
  EXPECT_EQ(disk->memory_limit_bytes, 1ull << 30);
  EXPECT_EQ(VpsDiskBoundMemoryLimit(config), 1ull << 30);
  EXPECT_EQ(disk->engine_options.cache_bytes, 128ull << 20);
}

// --quick: a tenth of the rows, counts and warm-up, concurrent phases 1 s; given bounds still win.
TEST(VpsConfigTest, QuickShortensEveryDefault) {
  PhaseSuiteOptions options;
  SqliteVpsConfig config;
  config.quick = true;
  auto quick = ResolveVpsPlan(VpsDataset::kCached, options, config);
  ASSERT_TRUE(quick.ok()) << quick.status().ToString();
  EXPECT_EQ(quick->records, 100'000u);
  ASSERT_EQ(quick->phases.size(), 7u);
  EXPECT_EQ(quick->phases[0].warmup_operations + quick->phases[0].operations, 100'000u);  // bulk-insert: every row
  EXPECT_EQ(quick->phases[0].warmup_operations, 100u);
  EXPECT_EQ(quick->phases[1].operations, 10'000u);  // select-pk
  EXPECT_EQ(quick->phases[1].warmup_operations, 100u);
  EXPECT_EQ(quick->phases[2].operations, 2'000u);  // range-scan
  EXPECT_EQ(quick->phases[3].operations, 2'000u);  // update
  EXPECT_EQ(quick->phases[4].operations, 5'000u);  // mixed-oltp
  EXPECT_EQ(quick->phases[5].duration_seconds, 1.0);
  EXPECT_EQ(quick->phases[6].duration_seconds, 1.0);

  options.records = 5000;
  options.operations = 300;
  quick = ResolveVpsPlan(VpsDataset::kCached, options, config);
  ASSERT_TRUE(quick.ok());
  EXPECT_EQ(quick->records, 5000u);
  EXPECT_EQ(quick->phases[1].operations, 300u);
  EXPECT_EQ(quick->phases[5].operations, 300u);
  EXPECT_EQ(quick->phases[5].duration_seconds, 0);

  // The disk-bound data set keeps its size: it must stay larger than the memory limit.
  options = PhaseSuiteOptions();
  config.memory_limit_bytes = 100'000'000;
  auto disk = ResolveVpsPlan(VpsDataset::kDiskBound, options, config);
  ASSERT_TRUE(disk.ok());
  EXPECT_EQ(disk->records, 400'000u);
  EXPECT_EQ(disk->phases[1].operations, 10'000u);
}

TEST(VpsConfigTest, CommandLineBoundsReplaceTheDefaults) {
  PhaseSuiteOptions options;
  options.records = 5000;
  options.operations = 300;
  options.threads = 2;
  options.writers = 3;
  options.warmup_seconds = 0.5;
  SqliteVpsConfig config;
  config.range_length = 25;
  config.cache_bytes = 1 << 20;
  auto plan = ResolveVpsPlan(VpsDataset::kDiskBound, options, config);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->records, 5000u);
  EXPECT_EQ(plan->engine_options.cache_bytes, 1u << 20);
  for (const PhaseSpec& s : plan->phases) {
    SCOPED_TRACE(s.name);
    if (s.name == "bulk-insert") {
      EXPECT_EQ(s.operations + s.warmup_operations, 5000u);
      EXPECT_EQ(s.threads, 1u);
      EXPECT_EQ(s.warmup_seconds, 0);
      continue;
    }
    EXPECT_EQ(s.operations, 300u);
    EXPECT_EQ(s.duration_seconds, 0);
    EXPECT_EQ(s.warmup_seconds, 0.5);
    EXPECT_EQ(s.warmup_operations, 0u);
    EXPECT_EQ(s.threads, s.name == "concurrent-writes" ? 3u : 2u);
  }
  options.operations = 0;
  options.duration_seconds = 2;
  plan = ResolveVpsPlan(VpsDataset::kCached, options, config);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->phases[1].operations, 0u);
  EXPECT_EQ(plan->phases[1].duration_seconds, 2.0);
  EXPECT_EQ(plan->phases[0].duration_seconds, 0.0);
}

TEST(VpsConfigTest, RejectsWhatItCannotRun) {
  PhaseSuiteOptions options;
  SqliteVpsConfig config;
  config.phases = {"select-pk", "no-such-phase"};
  EXPECT_TRUE(ResolveVpsPlan(VpsDataset::kCached, options, config).status().IsInvalidArgument());
  config.phases = {"range-scan", "select-pk"};
  auto plan = ResolveVpsPlan(VpsDataset::kCached, options, config);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->phases.size(), 2u);
  EXPECT_EQ(plan->phases[0].name, "select-pk");  // suite order, not the order given
  config.phases.clear();
  options.records = 5;
  EXPECT_TRUE(ResolveVpsPlan(VpsDataset::kCached, options, config).status().IsInvalidArgument());
  std::vector<VpsDataset> d;
  EXPECT_TRUE(ParseVpsDatasets("both", &d).ok());
  EXPECT_EQ(d.size(), 2u);
  EXPECT_TRUE(ParseVpsDatasets("warm", &d).IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
