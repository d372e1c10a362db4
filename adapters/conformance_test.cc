// The adapter contract (adapters/adapter.h), checked for every engine at every durability against real
// files in a fresh temporary directory. Adding an engine = adding one entry to kEngines.
//
// The null adapter stores nothing, so it cannot pass a store-then-read contract and is not listed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "adapters/adapter.h"

namespace dbxb {

// Test names and failure messages show "none", not a byte dump. Found by ADL, so outside the anonymous
// namespace.
static void PrintTo(Durability d, std::ostream* os) { *os << DurabilityName(d); }

namespace {

// A native setting whose value shows the durability mapping: its expected value for none/normal/full.
struct DurabilitySetting {
  const char* key;
  const char* none;
  const char* normal;
  const char* full;
};

struct EngineCase {
  const char* name;
  bool allows_empty_key;               // false: Put("") is InvalidArgument
  bool keeps_data_on_close_with_none;  // a clean Close persists even at durability none
  std::vector<DurabilitySetting> durability_settings;
  /// Native options the engine is opened with, and the case's name when they make it a variant.
  std::vector<std::pair<std::string, std::string>> native_options = {};
  const char* label = nullptr;
};

const EngineCase kEngines[] = {
    {"dbx", true, true, {{"wal", "off", "on", "on"}, {"wal_sync", "never", "background", "per_commit_group"}}},
    {"sqlite", true, true, {{"journal_mode", "wal", "wal", "wal"}, {"synchronous", "off", "normal", "full"}}},
    {"sqlite",
     true,
     true,
     {{"journal_mode", "wal", "wal", "wal"}, {"layout", "rowid", "rowid", "rowid"}},
     {{"sqlite.layout", "rowid"}},
     "sqlite_rowid"},
    {"sqlite",
     true,
     true,
     {{"layout", "without-rowid", "without-rowid", "without-rowid"}},
     {{"sqlite.layout", "without-rowid"}},
     "sqlite_without_rowid"},
    {"lmdb",
     false,
     true,
     {{"env_flags", "MDB_NOSYNC|MDB_NOMETASYNC|MDB_NOTLS", "MDB_NOMETASYNC|MDB_NOTLS", "MDB_NOTLS"}}},
    {"rocksdb",
     true,
     true,
     {{"write_options.disableWAL", "true", "false", "false"}, {"write_options.sync", "false", "false", "true"}}},
    {"leveldb", true, true, {{"write_options.sync", "false", "false", "true"}}},
    {"wiredtiger",
     false,
     true,
     {{"log.enabled", "false", "true", "true"}, {"transaction_sync.enabled", "false", "false", "true"}}},
    {"postgres", true, true, {{"fsync", "off", "on", "on"}, {"synchronous_commit", "off", "off", "on"}}},
};

void PrintTo(const EngineCase& engine, std::ostream* os) { *os << (engine.label ? engine.label : engine.name); }

constexpr uint64_t kTestCacheBytes = 8ull << 20;
// Small enough that LMDB's map (2 x cache_bytes, at least 1 MiB) must grow several times under LargeLoad.
constexpr uint64_t kTinyCacheBytes = 64ull << 10;

using Row = std::pair<std::string, std::string>;
using Rows = std::vector<Row>;

// prefix + std::to_string(i), built by appending (GCC 12 warns falsely on operator+ here: -Wrestrict).
std::string Numbered(std::string_view prefix, int i) {
  std::string s(prefix);
  s += std::to_string(i);
  return s;
}

std::string ValueFor(const std::string& key, int version) {
  std::string v = "value(";
  v += key;
  v += ")#";
  v += std::to_string(version);
  return v;
}

std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

class ConformanceTest : public testing::TestWithParam<std::tuple<EngineCase, Durability>> {
 protected:
  const EngineCase& engine() const { return std::get<0>(GetParam()); }
  Durability durability() const { return std::get<1>(GetParam()); }

  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-conformance-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    // Searchable by all (not readable): postgres's server runs as another account when the test is root.
    ASSERT_EQ(chmod(tmpl.c_str(), 0711), 0);
    dir_ = tmpl;
    factory_ = BuiltinAdapters().Find(engine().name);
    ASSERT_NE(factory_, nullptr) << engine().name << " is not registered";
    Open(kTestCacheBytes);
  }

  void TearDown() override {
    session_.reset();
    if (adapter_ != nullptr) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
    adapter_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  void Open(uint64_t cache_bytes) {
    AdapterOptions options;
    options.dir = (dir_ / "db").string();
    options.durability = durability();
    options.cache_bytes = cache_bytes;
    options.native_options = engine().native_options;
    auto adapter = factory_->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    adapter_ = std::move(adapter.value());
    session_ = NewSession();
  }

  void CloseAndReopen(uint64_t cache_bytes = kTestCacheBytes) {
    session_.reset();
    Status closed = adapter_->Close();
    ASSERT_TRUE(closed.ok()) << closed.ToString();
    adapter_.reset();
    Open(cache_bytes);
  }

  std::unique_ptr<Session> NewSession() {
    auto session = adapter_->NewSession();
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? std::move(session.value()) : nullptr;
  }

  static void Put(Session* s, const std::string& key, const std::string& value) {
    Status st = s->Put(key, value);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  // The value of key, or "<NotFound>".
  static std::string Get(Session* s, const std::string& key) {
    std::string value = "<stale>";
    Status st = s->Get(key, &value);
    if (st.IsNotFound()) return "<NotFound>";
    EXPECT_TRUE(st.ok()) << st.ToString();
    return value;
  }

  static Rows Scan(Session* s, const std::string& start, uint64_t limit = 0) {
    Rows rows;
    Status st = s->Scan(start, limit, [&](std::string_view k, std::string_view v) {
      rows.emplace_back(std::string(k), std::string(v));
      return true;
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return rows;
  }

  static uint64_t Count(Session* s) {
    uint64_t n = ~uint64_t{0};
    Status st = s->Count(&n);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return n;
  }

  std::string NativeSetting(const std::string& key) {
    for (const auto& [k, v] : adapter_->NativeSettings())
      if (k == key) return v;
    return "<absent>";
  }

  std::filesystem::path dir_;
  const AdapterFactory* factory_ = nullptr;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
};

TEST_P(ConformanceTest, PutGetOverwriteDelete) {
  Session* s = session_.get();
  Put(s, "apple", "red");
  EXPECT_EQ(Get(s, "apple"), "red");
  Put(s, "apple", "green");
  EXPECT_EQ(Get(s, "apple"), "green");
  ASSERT_TRUE(s->Delete("apple").ok());
  EXPECT_EQ(Get(s, "apple"), "<NotFound>");
  EXPECT_TRUE(s->Delete("apple").ok()) << "deleting an absent key is OK";
  EXPECT_TRUE(s->Delete("never-written").ok());
}

TEST_P(ConformanceTest, GetOfAbsentKeyIsNotFound) {
  Session* s = session_.get();
  std::string value = "untouched";
  EXPECT_TRUE(s->Get("k", &value).IsNotFound());
  Put(s, "a", "1");
  Put(s, "c", "3");
  EXPECT_TRUE(s->Get("b", &value).IsNotFound());
  EXPECT_TRUE(s->Get("a\x01", &value).IsNotFound());
  EXPECT_TRUE(s->Get("cc", &value).IsNotFound());
}

TEST_P(ConformanceTest, ScanReturnsEveryRowInBytewiseOrder) {
  Session* s = session_.get();
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(Numbered("key", i * 7919 % 1000));
  // Bytes above 0x7f sort after ASCII (unsigned comparison); a prefix sorts before its extensions.
  for (const char* k : {"\x80", "\xff\xfe", "\x01", "key", "key1\x7f", "key1\x80"}) keys.emplace_back(k);
  std::shuffle(keys.begin(), keys.end(), std::mt19937(42));
  std::map<std::string, std::string> expected;
  for (const auto& k : keys) {
    Put(s, k, ValueFor(k, 1));
    expected[k] = ValueFor(k, 1);
  }
  EXPECT_EQ(Scan(s, ""), Rows(expected.begin(), expected.end()));
}

TEST_P(ConformanceTest, ScanStartsAtExactOrNextKey) {
  Session* s = session_.get();
  for (const char* k : {"k10", "k20", "k30"}) Put(s, k, std::string("v") + k);
  Rows from20 = {{"k20", "vk20"}, {"k30", "vk30"}};
  EXPECT_EQ(Scan(s, "k20"), from20) << "exact start";
  EXPECT_EQ(Scan(s, "k15"), from20) << "start between keys";
  EXPECT_EQ(Scan(s, std::string("k20\0", 4)), (Rows{{"k30", "vk30"}})) << "start just after a key";
  EXPECT_EQ(Scan(s, "k").size(), 3u);
  EXPECT_EQ(Scan(s, "").size(), 3u);
  EXPECT_TRUE(Scan(s, "k31").empty()) << "start after the last key";
  EXPECT_TRUE(Scan(s, std::string(600, 'z')).empty()) << "start longer than any key";
}

TEST_P(ConformanceTest, ScanLimit) {
  Session* s = session_.get();
  for (int i = 0; i < 10; ++i) Put(s, Numbered("k", i), "v");
  EXPECT_EQ(Scan(s, "", 3), (Rows{{"k0", "v"}, {"k1", "v"}, {"k2", "v"}}));
  EXPECT_EQ(Scan(s, "k5", 2), (Rows{{"k5", "v"}, {"k6", "v"}}));
  EXPECT_EQ(Scan(s, "", 0).size(), 10u) << "0 = no limit";
  EXPECT_EQ(Scan(s, "", 1000).size(), 10u);
  EXPECT_EQ(Scan(s, "k8", 5).size(), 2u);
}

TEST_P(ConformanceTest, ScanStopsWhenVisitorReturnsFalse) {
  Session* s = session_.get();
  for (int i = 0; i < 10; ++i) Put(s, Numbered("k", i), "v");
  std::vector<std::string> seen;
  Status st = s->Scan("k2", 0, [&](std::string_view k, std::string_view) {
    seen.emplace_back(k);
    return seen.size() < 3;
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"k2", "k3", "k4"}));
}

TEST_P(ConformanceTest, CountIsExact) {
  Session* s = session_.get();
  EXPECT_EQ(Count(s), 0u);
  for (int i = 0; i < 100; ++i) Put(s, Numbered("k", i), "v1");
  EXPECT_EQ(Count(s), 100u);
  for (int i = 0; i < 30; ++i) Put(s, Numbered("k", i), "v2");
  EXPECT_EQ(Count(s), 100u) << "overwrites do not add keys";
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(s->Delete(Numbered("k", i)).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s->Delete(Numbered("absent", i)).ok());
  EXPECT_EQ(Count(s), 75u);
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 90; i < 110; ++i) Put(s, Numbered("k", i), "v3");  // 10 overwrites, 10 new
  ASSERT_TRUE(s->Delete("k50").ok());
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Count(s), 84u);
}

TEST_P(ConformanceTest, BatchIsVisibleToOthersOnlyAfterCommit) {
  Session* s = session_.get();
  std::unique_ptr<Session> other = NewSession();
  ASSERT_NE(other, nullptr);
  Put(s, "d1", "old");
  Put(s, "d2", "old");
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 0; i < 10; ++i) Put(s, Numbered("b", i), ValueFor("b", i));
  ASSERT_TRUE(s->Delete("d1").ok());
  Put(s, "d2", "new");
  EXPECT_EQ(Get(other.get(), "b0"), "<NotFound>");
  EXPECT_EQ(Get(other.get(), "d1"), "old");
  EXPECT_EQ(Get(other.get(), "d2"), "old");
  EXPECT_EQ(Count(other.get()), 2u);
  Status st = s->Commit();
  ASSERT_TRUE(st.ok()) << st.ToString();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(Get(other.get(), Numbered("b", i)), ValueFor("b", i));
  EXPECT_EQ(Get(other.get(), "d1"), "<NotFound>");
  EXPECT_EQ(Get(other.get(), "d2"), "new");
  EXPECT_EQ(Count(other.get()), 11u);
  EXPECT_EQ(Count(s), 11u);
}

TEST_P(ConformanceTest, AbortedBatchLeavesNoTrace) {
  Session* s = session_.get();
  std::unique_ptr<Session> other = NewSession();
  ASSERT_NE(other, nullptr);
  Put(s, "keep", "old");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "new", "x");
  Put(s, "keep", "changed");
  ASSERT_TRUE(s->Delete("keep").ok());
  ASSERT_TRUE(s->Abort().ok());
  for (Session* reader : {s, other.get()}) {
    EXPECT_EQ(Get(reader, "keep"), "old");
    EXPECT_EQ(Get(reader, "new"), "<NotFound>");
    EXPECT_EQ(Scan(reader, ""), (Rows{{"keep", "old"}}));
    EXPECT_EQ(Count(reader), 1u);
  }
  // The session is usable again, for single writes and for batches.
  Put(s, "after", "1");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "batched", "2");
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Get(other.get(), "after"), "1");
  EXPECT_EQ(Get(other.get(), "batched"), "2");
}

TEST_P(ConformanceTest, BatchMisuseIsInvalidArgument) {
  Session* s = session_.get();
  EXPECT_TRUE(s->Commit().IsInvalidArgument());
  EXPECT_TRUE(s->Abort().IsInvalidArgument());
  ASSERT_TRUE(s->Begin().ok());
  EXPECT_TRUE(s->Begin().IsInvalidArgument());
  EXPECT_TRUE(s->Abort().ok());
  EXPECT_TRUE(s->Abort().IsInvalidArgument());
}

TEST_P(ConformanceTest, DataSurvivesCloseAndReopen) {
  if (durability() == Durability::kNone && !engine().keeps_data_on_close_with_none)
    GTEST_SKIP() << engine().name << " documents that durability none may lose data on close";
  Session* s = session_.get();
  for (int i = 0; i < 50; ++i) Put(s, Numbered("single", i), ValueFor("single", i));
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 0; i < 50; ++i) Put(s, Numbered("batch", i), ValueFor("batch", i));
  ASSERT_TRUE(s->Commit().ok());
  ASSERT_TRUE(s->Delete("single7").ok());
  Rows before = Scan(s, "");
  ASSERT_EQ(before.size(), 99u);

  CloseAndReopen();
  s = session_.get();
  EXPECT_EQ(Scan(s, ""), before);
  EXPECT_EQ(Count(s), 99u);
  EXPECT_EQ(Get(s, "batch49"), ValueFor("batch", 49));
  EXPECT_EQ(Get(s, "single7"), "<NotFound>");
  Put(s, "after-reopen", "yes");  // still writable
  EXPECT_EQ(Count(s), 100u);
}

TEST_P(ConformanceTest, NulBytesInKeysAndValues) {
  Session* s = session_.get();
  const std::string k1("a\0b", 3), k2("a\0", 2), k3("a", 1), k4("\0", 1), k5("a\0\0", 3);
  const std::string v("\0x\0y\0", 5);
  for (const std::string& k : {k1, k2, k3, k4, k5}) Put(s, k, v + k);
  for (const std::string& k : {k1, k2, k3, k4, k5}) EXPECT_EQ(Get(s, k), v + k);
  EXPECT_EQ(Get(s, std::string("a\0c", 3)), "<NotFound>");
  Rows expected = {{k4, v + k4}, {k3, v + k3}, {k2, v + k2}, {k5, v + k5}, {k1, v + k1}};
  EXPECT_EQ(Scan(s, ""), expected);
  EXPECT_EQ(Scan(s, k2).size(), 3u);
  ASSERT_TRUE(s->Delete(k2).ok());
  EXPECT_EQ(Get(s, k2), "<NotFound>");
  EXPECT_EQ(Get(s, k3), v + k3) << "deleting \"a\\0\" must not touch \"a\"";
  EXPECT_EQ(Count(s), 4u);
}

TEST_P(ConformanceTest, EmptyValues) {
  Session* s = session_.get();
  Put(s, "empty", "");
  Put(s, "full", "x");
  std::string value = "stale";
  ASSERT_TRUE(s->Get("empty", &value).ok());
  EXPECT_EQ(value, "");
  EXPECT_EQ(Scan(s, ""), (Rows{{"empty", ""}, {"full", "x"}}));
  EXPECT_EQ(Count(s), 2u);
  Put(s, "full", "");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "batched-empty", "");
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Get(s, "full"), "");
  EXPECT_EQ(Get(s, "batched-empty"), "");
}

TEST_P(ConformanceTest, EmptyKeyIsStoredOrRejected) {
  Session* s = session_.get();
  Put(s, "a", "1");
  Status put = s->Put("", "empty-key");
  if (engine().allows_empty_key) {
    ASSERT_TRUE(put.ok()) << put.ToString();
    EXPECT_EQ(Get(s, ""), "empty-key");
    EXPECT_EQ(Scan(s, ""), (Rows{{"", "empty-key"}, {"a", "1"}}));
    EXPECT_EQ(Count(s), 2u);
    ASSERT_TRUE(s->Delete("").ok());
  } else {
    EXPECT_TRUE(put.IsInvalidArgument()) << put.ToString();
    EXPECT_TRUE(s->Delete("").ok());
  }
  EXPECT_EQ(Get(s, ""), "<NotFound>");
  EXPECT_EQ(Count(s), 1u);
}

TEST_P(ConformanceTest, OneMebibyteValues) {
  Session* s = session_.get();
  const size_t kMiB = size_t{1} << 20;
  std::vector<std::string> values = {RandomBytes(kMiB, 1), RandomBytes(kMiB, 2), RandomBytes(kMiB + 7, 3)};
  Put(s, "big0", values[0]);
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "big1", values[1]);
  Put(s, "big2", values[2]);
  ASSERT_TRUE(s->Commit().ok());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(Get(s, Numbered("big", i)) == values[i]) << i;
  Rows rows = Scan(s, "");
  ASSERT_EQ(rows.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(rows[i].second == values[i]) << i;
  Put(s, "big0", values[2]);
  EXPECT_TRUE(Get(s, "big0") == values[2]);
}

// Two writer threads (single writes and batches) and two reader threads, each with its own session.
// Readers must only ever see committed values; the final state must hold every write. With a tiny
// cache_bytes and 3 KB values, LMDB's map grows while the readers run.
TEST_P(ConformanceTest, ConcurrentSessions) {
  CloseAndReopen(kTinyCacheBytes);
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kWriters = 2, kReaders = 2, kKeysPerWriter = 200, kBatch = 10;
  auto key = [](int w, int i) { return Numbered(Numbered("w", w) + "-", 1000 + i); };
  auto val = [](const std::string& k, int version) { return ValueFor(k, version) + std::string(3000, 'p'); };
  std::atomic<int> writers_done{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      std::unique_ptr<Session> s = NewSession();
      ASSERT_NE(s, nullptr);
      for (int i = 0; i < kKeysPerWriter; i += kBatch) {
        bool batched = (i / kBatch) % 2 == 1;
        if (batched) {
          ASSERT_TRUE(s->Begin().ok());
        }
        for (int j = i; j < i + kBatch; ++j) {
          Status st = s->Put(key(w, j), val(key(w, j), 1));
          ASSERT_TRUE(st.ok()) << st.ToString();
        }
        if (batched) {
          ASSERT_TRUE(s->Commit().ok());
        }
      }
      for (int i = 0; i < kKeysPerWriter; i += 4) {  // overwrite every 4th key, delete every 20th
        ASSERT_TRUE(s->Put(key(w, i), val(key(w, i), 2)).ok());
        if (i % 20 == 0) {
          ASSERT_TRUE(s->Delete(key(w, i)).ok());
        }
      }
      writers_done.fetch_add(1);
    });
  }
  for (int r = 0; r < kReaders; ++r) {
    threads.emplace_back([&, r] {
      std::unique_ptr<Session> s = NewSession();
      ASSERT_NE(s, nullptr);
      std::mt19937 rng(r);
      int rounds = 0;
      while (writers_done.load() < kWriters || rounds < 20) {
        ++rounds;
        int w = rng() % kWriters, i = rng() % kKeysPerWriter;
        std::string k = key(w, i), value;
        Status st = s->Get(k, &value);
        if (!st.IsNotFound()) {
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_TRUE(value == val(k, 1) || value == val(k, 2)) << k << " = " << value;
        }
        std::string prev;
        st = s->Scan(k, 20, [&](std::string_view sk, std::string_view sv) {
          EXPECT_LT(prev, std::string(sk));
          std::string skey(sk);
          EXPECT_TRUE(sv == val(skey, 1) || sv == val(skey, 2)) << skey;
          prev = std::move(skey);
          return true;
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
        uint64_t n = 0;
        ASSERT_TRUE(s->Count(&n).ok());
        ASSERT_LE(n, uint64_t{kWriters * kKeysPerWriter});
      }
    });
  }
  for (auto& t : threads) t.join();

  Session* s = session_.get();
  uint64_t expected_count = 0;
  for (int w = 0; w < kWriters; ++w) {
    for (int i = 0; i < kKeysPerWriter; ++i) {
      std::string want = i % 20 == 0 ? "<NotFound>" : val(key(w, i), i % 4 == 0 ? 2 : 1);
      EXPECT_EQ(Get(s, key(w, i)), want) << key(w, i);
      expected_count += i % 20 != 0;
    }
  }
  EXPECT_EQ(Count(s), expected_count);
  EXPECT_EQ(Scan(s, "").size(), expected_count);
  if (map_before != "<absent>") {
    EXPECT_GT(std::stoull(NativeSetting("map_size_bytes")), std::stoull(map_before)) << "the map grew";
  }
}

// One batch far larger than the map, aborted and then committed, while reader sessions run: LMDB grows
// its map inside the batch (the batch's transaction gives up its hold on the map gate for each growth
// and replays its writes). Readers see the committed rows throughout and the batch's rows only after
// its Commit; afterwards new batches and single writes still work (no hold was left behind).
TEST_P(ConformanceTest, BatchGrowingTheMapWhileReadersRun) {
  CloseAndReopen(kTinyCacheBytes);
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kBase = 100, kBig = 2000, kReaders = 3;
  auto big_key = [](int i) { return Numbered("big", 10000 + i); };
  auto big_value = [](const std::string& k) { return ValueFor(k, 1) + std::string(3000, 'g'); };
  Session* s = session_.get();
  for (int i = 0; i < kBase; ++i) Put(s, Numbered("base", 1000 + i), ValueFor(Numbered("base", 1000 + i), 1));

  std::atomic<int> stage{0};  // 0: the batch will be aborted, 1: committing, 2: done
  std::atomic<uint64_t> reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r] {
      std::unique_ptr<Session> rs = NewSession();
      ASSERT_NE(rs, nullptr);
      std::mt19937 rng(r);
      while (stage.load() < 2 || reads.load() < 50) {
        std::string k = Numbered("base", 1000 + static_cast<int>(rng() % kBase)), value;
        Status st = rs->Get(k, &value);
        ASSERT_TRUE(st.ok()) << k << ": " << st.ToString();
        ASSERT_EQ(value, ValueFor(k, 1));
        std::string b = big_key(static_cast<int>(rng() % kBig));
        st = rs->Get(b, &value);
        // Still stage 0 after the read: the read ended before the aborted batch did.
        if (stage.load() == 0) ASSERT_TRUE(st.IsNotFound()) << b << " visible while its batch was open";
        if (!st.IsNotFound()) {
          ASSERT_TRUE(st.ok()) << st.ToString();
          ASSERT_EQ(value, big_value(b));
        }
        uint64_t rows = 0;
        st = rs->Scan("base", 20, [&](std::string_view key, std::string_view) {
          ++rows;
          return key.substr(0, 4) == "base";
        });
        ASSERT_TRUE(st.ok()) << st.ToString();
        ASSERT_EQ(rows, 20u);
        reads.fetch_add(1);
      }
    });
  }
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(s->Begin().ok());
    for (int i = 0; i < kBig; ++i) {
      Status st = s->Put(big_key(i), big_value(big_key(i)));
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
    if (round == 0) {
      ASSERT_TRUE(s->Abort().ok());
      stage.store(1);
    } else {
      Status st = s->Commit();
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
  }
  stage.store(2);
  for (auto& t : readers) t.join();

  EXPECT_EQ(Count(s), uint64_t{kBase + kBig});
  for (int i = 0; i < kBig; i += 199) EXPECT_EQ(Get(s, big_key(i)), big_value(big_key(i)));
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "after-batch", "1");
  ASSERT_TRUE(s->Commit().ok());
  Put(s, "after-single", std::string(100000, 's'));
  EXPECT_EQ(Get(session_.get(), "after-batch"), "1");
  if (map_before != "<absent>") {
    EXPECT_GT(std::stoull(NativeSetting("map_size_bytes")), std::stoull(map_before)) << "the map grew";
  }
}

// 20k rows in batches of 1000, starting from a tiny cache_bytes: LMDB's map has to grow several times
// inside batches; then a database larger than the requested map must reopen and take more writes.
TEST_P(ConformanceTest, LargeLoadInBatches) {
  CloseAndReopen(kTinyCacheBytes);
  Session* s = session_.get();
  const std::string map_before = NativeSetting("map_size_bytes");
  constexpr int kRows = 20'000, kBatch = 1000;
  auto key = [](int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "row%08d", i);
    return std::string(buf);
  };
  auto value = [](int i) { return std::string(100, static_cast<char>('a' + i % 26)) + std::to_string(i); };
  for (int i = 0; i < kRows; i += kBatch) {
    ASSERT_TRUE(s->Begin().ok());
    for (int j = i; j < i + kBatch; ++j) Put(s, key(j), value(j));
    Status st = s->Commit();
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = 0; i < kRows; i += 997) EXPECT_EQ(Get(s, key(i)), value(i));
  if (map_before != "<absent>") {
    EXPECT_GT(std::stoull(NativeSetting("map_size_bytes")), std::stoull(map_before)) << "the map grew";
  }

  CloseAndReopen(kTinyCacheBytes);
  s = session_.get();
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = kRows; i < kRows + 300; ++i) Put(s, key(i), value(i));  // single writes after the reopen
  Rows rows = Scan(s, "");
  ASSERT_EQ(rows.size(), size_t{kRows + 300});
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(rows.back(), Row(key(kRows + 299), value(kRows + 299)));
}

// Settle waits for background work; the data written before it is all there afterwards, and the
// adapter says what it waited for.
TEST_P(ConformanceTest, SettleAfterALoadKeepsEveryRow) {
  Session* s = session_.get();
  constexpr int kRows = 20'000, kBatch = 1000;
  for (int i = 0; i < kRows; i += kBatch) {
    ASSERT_TRUE(s->Begin().ok());
    for (int j = i; j < i + kBatch; ++j) Put(s, Numbered("settle", j), std::string(200, 'v'));
    ASSERT_TRUE(s->Commit().ok());
  }
  Status settled = adapter_->Settle();
  ASSERT_TRUE(settled.ok()) << settled.ToString();
  EXPECT_NE(NativeSetting("settle"), "<absent>");
  EXPECT_EQ(Count(s), uint64_t{kRows});
  for (int i = 0; i < kRows; i += 499) EXPECT_EQ(Get(s, Numbered("settle", i)), std::string(200, 'v'));
  Put(s, "after", "settle");  // still writable
  EXPECT_EQ(Get(s, "after"), "settle");
  EXPECT_TRUE(adapter_->Settle().ok());
}

TEST_P(ConformanceTest, ReportsNativeDurabilityMappingAndLibrary) {
  Settings settings = adapter_->NativeSettings();
  ASSERT_FALSE(settings.empty());
  std::vector<std::string> keys;
  for (const auto& [k, v] : settings) {
    EXPECT_FALSE(k.empty());
    EXPECT_FALSE(v.empty()) << k;
    EXPECT_EQ(v.find("error"), std::string::npos) << k << " = " << v;
    keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end()) << "a setting is reported twice";
  for (const DurabilitySetting& d : engine().durability_settings) {
    const char* want = durability() == Durability::kNone     ? d.none
                       : durability() == Durability::kNormal ? d.normal
                                                             : d.full;
    EXPECT_EQ(NativeSetting(d.key), want) << d.key;
  }
  EXPECT_FALSE(factory_->library_version().empty());
  EXPECT_FALSE(factory_->library_build().empty());
  EXPECT_FALSE(factory_->description.empty());
}

std::string CaseName(const testing::TestParamInfo<std::tuple<EngineCase, Durability>>& info) {
  const EngineCase& engine = std::get<0>(info.param);
  return std::string(engine.label ? engine.label : engine.name) + "_" +
         std::string(DurabilityName(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(AllEngines, ConformanceTest,
                         testing::Combine(testing::ValuesIn(kEngines),
                                          testing::Values(Durability::kNone, Durability::kNormal, Durability::kFull)),
                         CaseName);

}  // namespace
}  // namespace dbxb
