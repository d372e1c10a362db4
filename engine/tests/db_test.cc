// End-to-end behaviour of dbx::DB through its public API, tier by tier.
#include "dbx/db.h"

#include <gtest/gtest.h>

#include <map>
#include <thread>
#include <vector>

#include "tests/test_util.h"

namespace dbx {
namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key_%08d", i);
  return buf;
}
std::string Value(int i) { return "value_" + std::to_string(i) + "_data"; }

class DBTest : public ::testing::TestWithParam<Durability> {
 protected:
  Options SmallOptions() {
    Options o;
    o.durability = GetParam();
    o.delta_flush_entries = 100;
    o.wos_flush_bytes = 64 << 10;
    o.block_size = 256;
    o.compaction_trigger = 3;
    o.wal_sync_interval_ms = 5;
    return o;
  }
  void Open(const Options& o) {
    db_.reset();
    ASSERT_TRUE(DB::Open(o, dir_.Sub("db"), &db_).ok());
  }
  std::string Get(const std::string& k, const Snapshot* snap = nullptr) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string v;
    Status s = db_->Get(ro, k, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return v;
  }
  std::map<std::string, std::string> ScanAll(const Snapshot* snap = nullptr) {
    std::map<std::string, std::string> out;
    ReadOptions ro;
    ro.snapshot = snap;
    std::string prev;
    EXPECT_TRUE(db_->Scan(ro, {}, {}, 0,
                          [&](std::string_view k, std::string_view v) {
                            EXPECT_TRUE(out.empty() || std::string(k) > prev);
                            prev.assign(k);
                            out.emplace(k, v);
                            return true;
                          })
                    .ok());
    return out;
  }
  uint64_t Count() {
    uint64_t n = ~0ull;
    EXPECT_TRUE(db_->Count(ReadOptions(), &n).ok());
    return n;
  }

  test::TempDir dir_;
  // Bulk writes in small batches: with Durability::kFull each commit costs an fsync.
  void PutRange(int from, int to, int step, const std::string& value = {}) {
    WriteBatch b;
    for (int i = from; i < to; i += step) {
      b.Put(Key(i), value.empty() ? Value(i) : value);
      if (b.Count() == 50) {
        ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
        b.Clear();
      }
    }
    ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  }

  std::unique_ptr<DB> db_;
};

TEST_P(DBTest, PutGetDeleteAcrossAllTiers) {
  Open(SmallOptions());
  WriteOptions wo;
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(db_->Put(wo, Key(i), Value(i)).ok());
  PutRange(300, 3000, 1);
  for (int i = 0; i < 300; i += 3) ASSERT_TRUE(db_->Delete(wo, Key(i)).ok());
  WriteBatch dels;
  for (int i = 300; i < 3000; i += 3) dels.Delete(Key(i));
  ASSERT_TRUE(db_->Write(wo, dels).ok());
  PutRange(0, 3000, 7, "updated");
  DbStats st = db_->GetStats();
  EXPECT_GT(st.flushes + st.segments + st.wos_entries + st.frozen_deltas, 0u);
  auto check = [&] {
    uint64_t live = 0;
    for (int i = 0; i < 3000; ++i) {
      std::string want = i % 7 == 0 ? "updated" : i % 3 == 0 ? "NOT_FOUND" : Value(i);
      ASSERT_EQ(Get(Key(i)), want) << i;
      live += want != "NOT_FOUND";
    }
    EXPECT_EQ(Count(), live);
    EXPECT_EQ(ScanAll().size(), live);
  };
  check();
  ASSERT_TRUE(db_->Flush().ok());
  EXPECT_GE(db_->GetStats().segments, 1u);
  EXPECT_EQ(db_->GetStats().delta_entries, 0u);
  check();
  ASSERT_TRUE(db_->Compact().ok());
  EXPECT_EQ(db_->GetStats().segments, 1u);
  check();
  ASSERT_TRUE(db_->Close().ok());
  Open(SmallOptions());
  check();
}

TEST_P(DBTest, ReopenWithoutCloseRecoversFromWal) {
  if (GetParam() == Durability::kNone) GTEST_SKIP() << "no WAL without durability";
  Options o = SmallOptions();
  o.delta_flush_entries = 1000000;  // keep everything in the delta store: only the WAL has it
  Open(o);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(db_->Put(WriteOptions(), Key(i), Value(i)).ok());
  PutRange(20, 500, 1);
  ASSERT_TRUE(db_->Delete(WriteOptions(), Key(7)).ok());
  // Simulate a crash: leak the DB object (no Close, no flush), release only the directory lock by
  // opening a copy of the files elsewhere.
  std::string copy = dir_.Sub("copy");
  ASSERT_EQ(std::system(("cp -r " + dir_.Sub("db") + " " + copy).c_str()), 0);
  std::unique_ptr<DB> db2;
  ASSERT_TRUE(DB::Open(o, copy, &db2).ok());
  std::string v;
  for (int i = 0; i < 500; ++i) {
    Status s = db2->Get(ReadOptions(), Key(i), &v);
    if (i == 7) {
      EXPECT_TRUE(s.IsNotFound());
    } else {
      ASSERT_TRUE(s.ok()) << i;
      EXPECT_EQ(v, Value(i));
    }
  }
  uint64_t n;
  ASSERT_TRUE(db2->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, 499u);
}

TEST_P(DBTest, SnapshotsSeeAConsistentPast) {
  Open(SmallOptions());
  WriteOptions wo;
  ASSERT_TRUE(db_->Put(wo, "a", "1").ok());
  ASSERT_TRUE(db_->Put(wo, "b", "1").ok());
  const Snapshot* s1 = db_->GetSnapshot();
  ASSERT_TRUE(db_->Put(wo, "a", "2").ok());
  ASSERT_TRUE(db_->Delete(wo, "b").ok());
  ASSERT_TRUE(db_->Put(wo, "c", "2").ok());
  PutRange(0, 2000, 1);  // push the old versions through the tiers
  ASSERT_TRUE(db_->Flush().ok());
  ASSERT_TRUE(db_->Compact().ok());
  EXPECT_EQ(Get("a", s1), "1");
  EXPECT_EQ(Get("b", s1), "1");
  EXPECT_EQ(Get("c", s1), "NOT_FOUND");
  EXPECT_EQ(Get("a"), "2");
  EXPECT_EQ(Get("b"), "NOT_FOUND");
  auto old = ScanAll(s1);
  EXPECT_EQ(old.size(), 2u);
  uint64_t n;
  ReadOptions ro;
  ro.snapshot = s1;
  ASSERT_TRUE(db_->Count(ro, &n).ok());
  EXPECT_EQ(n, 2u);
  db_->ReleaseSnapshot(s1);
  ASSERT_TRUE(db_->Compact().ok());
  EXPECT_EQ(Get("a"), "2");
  EXPECT_EQ(Count(), 2002u);
}

TEST_P(DBTest, IteratorAndBoundedScans) {
  Open(SmallOptions());
  WriteBatch b;
  for (int i = 0; i < 1000; ++i) b.Put(Key(i), Value(i));
  ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  b.Clear();
  for (int i = 0; i < 1000; i += 2) b.Delete(Key(i));
  ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  for (int pass = 0; pass < 3; ++pass) {  // merged, then columnar cache, then after a flush
    auto it = db_->NewIterator(ReadOptions());
    it->Seek(Key(100));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(it->key(), Key(101));
    int n = 0;
    for (; it->Valid(); it->Next()) ++n;
    EXPECT_EQ(n, 450);
    EXPECT_TRUE(it->status().ok());
    it.reset();
    std::vector<std::string> keys;
    ASSERT_TRUE(db_->Scan(ReadOptions(), Key(10), Key(20), 0,
                          [&](std::string_view k, std::string_view) {
                            keys.emplace_back(k);
                            return true;
                          })
                    .ok());
    EXPECT_EQ(keys, (std::vector<std::string>{Key(11), Key(13), Key(15), Key(17), Key(19)}));
    keys.clear();
    ASSERT_TRUE(db_->Scan(ReadOptions(), Key(990), {}, 3,
                          [&](std::string_view k, std::string_view) {
                            keys.emplace_back(k);
                            return true;
                          })
                    .ok());
    EXPECT_EQ(keys, (std::vector<std::string>{Key(991), Key(993), Key(995)}));
    EXPECT_EQ(ScanAll().size(), 500u);  // builds the columnar cache on the first pass
    if (pass == 1) {
      ASSERT_TRUE(db_->Flush().ok());
    }
  }
  EXPECT_GE(db_->GetStats().columnar_cache_builds, 1u);
}

TEST_P(DBTest, ColumnarCacheIsInvalidatedByWrites) {
  Open(SmallOptions());
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "1").ok());
  EXPECT_EQ(ScanAll().size(), 1u);
  EXPECT_EQ(ScanAll().size(), 1u);
  uint64_t builds = db_->GetStats().columnar_cache_builds;
  ASSERT_TRUE(db_->Put(WriteOptions(), "b", "2").ok());
  auto all = ScanAll();
  EXPECT_EQ(all.size(), 2u);
  EXPECT_EQ(all["b"], "2");
  EXPECT_EQ(db_->GetStats().columnar_cache_builds, builds + 1);
  ASSERT_TRUE(db_->Delete(WriteOptions(), "a").ok());
  EXPECT_EQ(ScanAll().size(), 1u);
}

// A columnar cache the data set does not fit in is not rebuilt (and dropped) by every full scan:
// the scans after a build that ran out of room skip it, but for a retry every 32nd, until fewer
// keys are live than the failed build held; then the next full scan builds it.
TEST_P(DBTest, ColumnarCacheThatDoesNotFitIsNotRebuiltByEveryScan) {
  Options o = SmallOptions();
  o.columnar_cache_bytes = 4 << 10;  // about 100 of the rows below
  Open(o);
  WriteOptions wo;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(db_->Put(wo, Key(i), Value(i)).ok());
  EXPECT_EQ(ScanAll().size(), 1000u);  // tries, runs out of room
  EXPECT_EQ(db_->GetStats().columnar_cache_builds, 0u);
  EXPECT_EQ(db_->GetStats().columnar_cache_skips, 0u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(ScanAll().size(), 1000u);
  EXPECT_EQ(db_->GetStats().columnar_cache_skips, 31u);  // the 32nd tried again
  EXPECT_EQ(db_->GetStats().columnar_cache_bytes, 0u);
  WriteBatch dels;
  for (int i = 20; i < 1000; ++i) dels.Delete(Key(i));
  ASSERT_TRUE(db_->Write(wo, dels).ok());
  EXPECT_EQ(ScanAll().size(), 20u);
  EXPECT_EQ(db_->GetStats().columnar_cache_builds, 1u);
  EXPECT_GT(db_->GetStats().columnar_cache_bytes, 0u);
  EXPECT_EQ(db_->GetStats().columnar_cache_skips, 31u);
}

TEST_P(DBTest, ErrorsAreStatuses) {
  Options o = SmallOptions();
  o.create_if_missing = false;
  std::unique_ptr<DB> db;
  EXPECT_TRUE(DB::Open(o, dir_.Sub("missing"), &db).IsInvalidArgument());
  Open(SmallOptions());
  std::unique_ptr<DB> second;
  EXPECT_TRUE(DB::Open(SmallOptions(), dir_.Sub("db"), &second).IsBusy());
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "v").ok());
  ASSERT_TRUE(db_->Close().ok());
  EXPECT_TRUE(db_->Close().IsInvalidArgument());
  EXPECT_TRUE(db_->Put(WriteOptions(), "k", "v").IsInvalidArgument());
  o = SmallOptions();
  o.error_if_exists = true;
  EXPECT_TRUE(DB::Open(o, dir_.Sub("db"), &db).IsInvalidArgument());
}

TEST_P(DBTest, EmptyValuesAndBinaryKeys) {
  Open(SmallOptions());
  std::string bin("a\0b\xff", 4);
  ASSERT_TRUE(db_->Put(WriteOptions(), bin, "").ok());
  ASSERT_TRUE(db_->Put(WriteOptions(), "", "empty key").ok());
  EXPECT_EQ(Get(bin), "");
  EXPECT_EQ(Get(""), "empty key");
  ASSERT_TRUE(db_->Close().ok());
  Open(SmallOptions());
  EXPECT_EQ(Get(bin), "");
  EXPECT_EQ(Get(""), "empty key");
  EXPECT_EQ(Count(), 2u);
}

// Flushed segments are written into the block cache; compaction leaves the cache alone (its output
// is read from the file).
TEST_P(DBTest, WrittenSegmentsAreReadFromTheBlockCache) {
  Options o = SmallOptions();
  o.compaction_trigger = 0;
  Open(o);
  PutRange(0, 2000, 1);
  ASSERT_TRUE(db_->Flush().ok());
  auto misses = [&] { return db_->GetStats().block_cache_misses; };
  ASSERT_GE(db_->GetStats().segments, 1u);
  uint64_t before = misses();
  for (int i = 0; i < 2000; i += 7) ASSERT_EQ(Get(Key(i)), Value(i));
  EXPECT_EQ(misses(), before);
  PutRange(5000, 5100, 1);
  // Flushes the new keys (cached), then merges: the output takes the room its inputs' blocks left.
  ASSERT_TRUE(db_->Compact().ok());
  ASSERT_EQ(db_->GetStats().segments, 1u);
  before = misses();
  for (int i = 0; i < 2000; i += 7) ASSERT_EQ(Get(Key(i)), Value(i));
  EXPECT_EQ(Get(Key(5050)), Value(5050));
  EXPECT_EQ(misses(), before);
}

TEST_P(DBTest, CompactionOutputFillsOnlyFreeCacheRoom) {
  Options o = SmallOptions();
  o.compaction_trigger = 0;
  o.block_cache_bytes = 64 << 10;  // holds a fraction of the blocks
  Open(o);
  PutRange(0, 4000, 1);
  ASSERT_TRUE(db_->Flush().ok());
  PutRange(4000, 8000, 1);
  ASSERT_TRUE(db_->Compact().ok());
  DbStats st = db_->GetStats();
  ASSERT_EQ(st.segments, 1u);
  EXPECT_GT(st.block_cache_bytes, 0u);
  EXPECT_LE(st.block_cache_bytes, o.block_cache_bytes + 16);
  for (int i = 0; i < 8000; i += 13) ASSERT_EQ(Get(Key(i)), Value(i));  // cached or not, all read back
}

// Rows of `m` in [start, end) (empty end: no bound), at most `limit` (0: all), as a scan returns them.
std::vector<std::pair<std::string, std::string>> Expected(const std::map<std::string, std::string>& m,
                                                          const std::string& start, const std::string& end,
                                                          uint64_t limit) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = m.lower_bound(start); it != m.end() && (end.empty() || it->first < end); ++it) {
    if (limit != 0 && out.size() == limit) break;
    out.emplace_back(*it);
  }
  return out;
}

// A settled DB (one segment, empty write tiers) is scanned block by block, without the merging
// iterator: it must resolve what the merged scan resolves. The segment below holds several versions
// of many keys (two snapshots keep them through the compaction), tombstones, keys shorter than 8
// bytes and keys longer than 64, in blocks read through the cache (lz4), in place (uncompressed) or
// with no cache at all.
TEST_P(DBTest, OneSegmentScanResolvesVersionsTombstonesAndBounds) {
  struct Variant {
    Compression compression;
    size_t block_cache_bytes;
  };
  int run = 0;
  for (const Variant& variant :
       {Variant{Compression::kLz4, 8 << 20}, Variant{Compression::kNone, 8 << 20}, Variant{Compression::kLz4, 0}}) {
    SCOPED_TRACE(std::string(CompressionName(variant.compression)) + " cache " +
                 std::to_string(variant.block_cache_bytes));
    Options o = SmallOptions();
    o.columnar_cache_bytes = 0;  // every full scan reads the tiers
    o.compaction_trigger = 0;
    o.compression = variant.compression;
    o.block_cache_bytes = variant.block_cache_bytes;
    db_.reset();
    ASSERT_TRUE(DB::Open(o, dir_.Sub("db" + std::to_string(run++)), &db_).ok());
    auto key = [](int i) {
      if (i % 50 == 0) return "s" + std::to_string(i / 50 % 10);  // short keys
      if (i % 50 == 1) return std::string(70, 'L') + Key(i);      // long keys
      return Key(i);
    };
    std::map<std::string, std::string> model;
    WriteBatch b;
    auto commit = [&] {
      ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
      b.Clear();
    };
    for (int i = 0; i < 1500; ++i) {
      b.Put(key(i), Value(i));
      model[key(i)] = Value(i);
      if (b.Count() == 100) commit();
    }
    commit();
    const Snapshot* s1 = db_->GetSnapshot();
    const std::map<std::string, std::string> at_s1 = model;
    for (int i = 0; i < 1500; ++i) {
      if (i % 3 == 0) {
        b.Put(key(i), "second_" + std::to_string(i));
        model[key(i)] = "second_" + std::to_string(i);
      }
      if (i % 5 == 0) {
        b.Delete(key(i));
        model.erase(key(i));
      }
      if (b.Count() >= 100) commit();
    }
    commit();
    const Snapshot* s2 = db_->GetSnapshot();
    const std::map<std::string, std::string> at_s2 = model;
    for (int i = 0; i < 1500; i += 7) {
      b.Put(key(i), "third_" + std::to_string(i));
      model[key(i)] = "third_" + std::to_string(i);
      if (i % 2 == 0) {
        b.Delete(key(i + 1));
        model.erase(key(i + 1));
      }
    }
    for (int i = 1500; i < 1600; ++i) {
      b.Put(key(i), "new");
      model[key(i)] = "new";
    }
    commit();
    ASSERT_TRUE(db_->Compact().ok());
    DbStats st = db_->GetStats();
    ASSERT_EQ(st.segments, 1u);
    ASSERT_EQ(st.delta_entries + st.wos_entries + st.frozen_deltas + st.frozen_wos, 0u);
    ASSERT_GT(st.segment_entries, model.size() + 300);  // older versions and tombstones are kept

    const std::vector<std::string> bounds = {
        "", "L", "key_00000500", "key_00000500a", "key_00000999", "s", "s5", "zzz", std::string(70, 'L') + Key(701)};
    for (const auto& [snap, want] : std::vector<std::pair<const Snapshot*, const std::map<std::string, std::string>*>>{
             {s1, &at_s1}, {s2, &at_s2}, {nullptr, &model}}) {
      ReadOptions ro;
      ro.snapshot = snap;
      for (const std::string& start : bounds) {
        for (const std::string& end : bounds) {
          for (uint64_t limit : {0ull, 1ull, 7ull, 1024ull, 1025ull}) {
            std::vector<std::pair<std::string, std::string>> got;
            ASSERT_TRUE(db_->Scan(ro, start, end, limit,
                                  [&](std::string_view k, std::string_view v) {
                                    got.emplace_back(k, v);
                                    return true;
                                  })
                            .ok());
            ASSERT_EQ(got, Expected(*want, start, end, limit)) << "snapshot "
                                                               << (snap == s1   ? "s1"
                                                                   : snap == s2 ? "s2"
                                                                                : "latest")
                                                               << " [" << start << ", " << end << ") limit " << limit;
          }
        }
      }
      // A visitor that stops is called no more.
      for (size_t stop_after : {1u, 13u, 500u}) {
        std::vector<std::string> got;
        ASSERT_TRUE(db_->Scan(ro, {}, {}, 0,
                              [&](std::string_view k, std::string_view) {
                                got.emplace_back(k);
                                return got.size() < stop_after;
                              })
                        .ok());
        ASSERT_EQ(got.size(), std::min(stop_after, want->size()));
        auto it = want->begin();
        for (size_t i = 0; i < got.size(); ++i, ++it) ASSERT_EQ(got[i], it->first);
      }
      uint64_t n = 0;
      ASSERT_TRUE(db_->Count(ro, &n).ok());
      EXPECT_EQ(n, want->size());
    }
    db_->ReleaseSnapshot(s1);
    db_->ReleaseSnapshot(s2);
  }
}

// Writes that commit while a scan of a settled DB runs (and the flush and compaction they lead to,
// which replace its segment) are not seen by it: it reads the state as of its start, as the merged
// scan does. The next scan sees them.
TEST_P(DBTest, OneSegmentScanDoesNotSeeWritesCommittedDuringIt) {
  Options o = SmallOptions();
  o.columnar_cache_bytes = 0;
  o.compaction_trigger = 0;
  Open(o);
  std::map<std::string, std::string> before;
  WriteBatch b;
  for (int i = 0; i < 2000; i += 2) {
    b.Put(Key(i), Value(i));
    before[Key(i)] = Value(i);
  }
  ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  ASSERT_TRUE(db_->Compact().ok());
  ASSERT_EQ(db_->GetStats().segments, 1u);
  std::map<std::string, std::string> after = before;
  for (uint64_t limit : {0ull, 600ull}) {  // a full scan (snapshot registered) and a short one (epoch)
    SCOPED_TRACE(limit);
    std::vector<std::pair<std::string, std::string>> got;
    bool wrote = false;
    ASSERT_TRUE(db_->Scan(ReadOptions(), {}, {}, limit,
                          [&](std::string_view k, std::string_view v) {
                            got.emplace_back(k, v);
                            if (got.size() == 100) {
                              // Another thread changes rows ahead of the scan, behind it and new
                              // ones, then flushes and compacts, while the scan waits.
                              std::thread writer([&] {
                                WriteBatch w;
                                for (int i = 0; i < 2000; i += 10) {
                                  w.Put(Key(i), "changed");
                                  after[Key(i)] = "changed";
                                  w.Put(Key(i + 1), "inserted");
                                  after[Key(i + 1)] = "inserted";
                                  w.Delete(Key(i + 4));
                                  after.erase(Key(i + 4));
                                }
                                wrote = db_->Write(WriteOptions(), w).ok() && db_->Compact().ok();
                              });
                              writer.join();
                            }
                            return true;
                          })
                    .ok());
    ASSERT_TRUE(wrote);
    EXPECT_EQ(got, Expected(before, {}, {}, limit));
    EXPECT_EQ(ScanAll(), after);
    ASSERT_EQ(db_->GetStats().segments, 1u);
    before = after;
  }
}

// One segment with rows in the write tiers too (the WOS alone, then the active delta as well) is
// not scanned as a settled DB: the scan merges, and sees every tier.
TEST_P(DBTest, ScanOfOneSegmentAndNonEmptyWriteTiersSeesThemAll) {
  Options o = SmallOptions();
  o.columnar_cache_bytes = 0;
  o.compaction_trigger = 0;
  o.wos_flush_bytes = 64 << 20;  // the WOS is written out by Flush only
  Open(o);
  std::map<std::string, std::string> model;
  WriteBatch b;
  for (int i = 0; i < 1000; i += 2) {
    b.Put(Key(i), Value(i));
    model[Key(i)] = Value(i);
  }
  ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  ASSERT_TRUE(db_->Compact().ok());
  ASSERT_EQ(db_->GetStats().segments, 1u);
  // More entries than delta_flush_entries in one commit: the delta is frozen and merged into the
  // WOS, which stays below wos_flush_bytes.
  b.Clear();
  for (int i = 0; i < 1000; i += 7) {
    b.Put(Key(i + 1), "wos");
    model[Key(i + 1)] = "wos";
    b.Delete(Key(i + 3));
    model.erase(Key(i + 3));
  }
  ASSERT_TRUE(db_->Write(WriteOptions(), b).ok());
  ASSERT_TRUE(db_->WaitForIdle().ok());
  DbStats st = db_->GetStats();
  ASSERT_EQ(st.segments, 1u);
  ASSERT_EQ(st.delta_entries, 0u);
  ASSERT_GT(st.wos_entries, 0u);
  EXPECT_EQ(ScanAll(), model);
  ASSERT_TRUE(db_->Put(WriteOptions(), Key(2), "active").ok());
  model[Key(2)] = "active";
  ASSERT_TRUE(db_->Delete(WriteOptions(), Key(4)).ok());
  model.erase(Key(4));
  ASSERT_GT(db_->GetStats().delta_entries, 0u);
  EXPECT_EQ(ScanAll(), model);
  std::vector<std::pair<std::string, std::string>> got;
  ASSERT_TRUE(db_->Scan(ReadOptions(), Key(1), Key(30), 5,
                        [&](std::string_view k, std::string_view v) {
                          got.emplace_back(k, v);
                          return true;
                        })
                  .ok());
  EXPECT_EQ(got, Expected(model, Key(1), Key(30), 5));
}

INSTANTIATE_TEST_SUITE_P(Durabilities, DBTest,
                         ::testing::Values(Durability::kNone, Durability::kNormal, Durability::kFull),
                         [](const auto& info) { return std::string(DurabilityName(info.param)); });

}  // namespace
}  // namespace dbx
