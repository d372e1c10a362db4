// Seeded randomized model test: a std::map oracle against the engine across random puts, deletes,
// batches, transactions (committed, aborted, conflicting), snapshots, flushes, compactions and
// reopens. Small tier thresholds push data through every tier many times.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>

#include "dbx/db.h"
#include "src/random.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

using Model = std::map<std::string, std::string>;

uint64_t SeedFromEnv(uint64_t fallback) {
  const char* s = std::getenv("DBX_MODEL_SEED");
  return s != nullptr ? std::strtoull(s, nullptr, 10) : fallback;
}

class ModelTest : public ::testing::TestWithParam<std::tuple<Durability, uint64_t>> {
 protected:
  void SetUp() override {
    options_.durability = std::get<0>(GetParam());
    options_.delta_flush_entries = 64;
    options_.wos_flush_bytes = 24 << 10;
    options_.block_size = 256;
    options_.block_cache_bytes = 64 << 10;
    options_.compaction_trigger = 4;
    options_.wal_sync_interval_ms = 2;
    options_.compression = std::get<1>(GetParam()) % 2 == 0 ? Compression::kLz4 : Compression::kZstd;
    Reopen();
  }
  void Reopen() {
    for (auto& [snap, model] : snapshots_) db_->ReleaseSnapshot(snap);
    snapshots_.clear();
    if (db_ != nullptr) {
      ASSERT_TRUE(db_->Close().ok());
    }
    db_.reset();
    Status s = DB::Open(options_, dir_.Sub("db"), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::string RandomKey() { return "k" + std::to_string(rnd_->Uniform(rnd_->OneIn(10) ? 20 : 1500)); }
  std::string RandomValue() { return std::string(rnd_->Uniform(40), static_cast<char>('a' + rnd_->Uniform(26))); }

  void CheckGet(const std::string& k, const Model& m, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string v;
    Status s = db_->Get(ro, k, &v);
    auto it = m.find(k);
    if (it == m.end()) {
      ASSERT_TRUE(s.IsNotFound()) << k << ": " << s.ToString() << " value " << v;
    } else {
      ASSERT_TRUE(s.ok()) << k << ": " << s.ToString();
      ASSERT_EQ(v, it->second) << k;
    }
  }
  void CheckAll(const Model& m, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    auto it = m.begin();
    ASSERT_TRUE(db_->Scan(ro, {}, {}, 0,
                          [&](std::string_view k, std::string_view v) {
                            EXPECT_NE(it, m.end());
                            if (it == m.end()) return false;
                            EXPECT_EQ(k, it->first);
                            EXPECT_EQ(v, it->second);
                            ++it;
                            return true;
                          })
                    .ok());
    EXPECT_EQ(it, m.end());
    uint64_t n = 0;
    ASSERT_TRUE(db_->Count(ro, &n).ok());
    ASSERT_EQ(n, m.size());
    // A bounded scan from a random key agrees too.
    std::string start = RandomKey();
    auto mit = m.lower_bound(start);
    uint64_t limit = 1 + rnd_->Uniform(20);
    uint64_t seen = 0;
    ASSERT_TRUE(db_->Scan(ro, start, {}, limit,
                          [&](std::string_view k, std::string_view v) {
                            EXPECT_NE(mit, m.end());
                            if (mit == m.end()) return false;
                            EXPECT_EQ(k, mit->first);
                            EXPECT_EQ(v, mit->second);
                            ++mit;
                            ++seen;
                            return true;
                          })
                    .ok());
    EXPECT_EQ(seen, std::min<uint64_t>(limit, std::distance(m.lower_bound(start), m.end())));
  }

  Options options_;
  test::TempDir dir_;
  std::unique_ptr<DB> db_;
  std::optional<Random> rnd_;
  std::vector<std::pair<const Snapshot*, Model>> snapshots_;
};

TEST_P(ModelTest, RandomOperationsMatchAMap) {
  const uint64_t seed = SeedFromEnv(std::get<1>(GetParam()));
  SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with DBX_MODEL_SEED=" + std::to_string(seed) + ")");
  rnd_.emplace(seed);
  Model model;
  WriteOptions wo;
  const int kOps = 25000;
  for (int op = 0; op < kOps && !HasFatalFailure(); ++op) {
    uint64_t r = rnd_->Uniform(1000);
    if (r < 400) {
      std::string k = RandomKey(), v = RandomValue();
      ASSERT_TRUE(db_->Put(wo, k, v).ok());
      model[k] = v;
    } else if (r < 550) {
      std::string k = RandomKey();
      ASSERT_TRUE(db_->Delete(wo, k).ok());
      model.erase(k);
    } else if (r < 600) {
      WriteBatch b;
      Model next = model;
      for (uint64_t i = 0, n = 1 + rnd_->Uniform(30); i < n; ++i) {
        std::string k = RandomKey();
        if (rnd_->OneIn(4)) {
          b.Delete(k);
          next.erase(k);
        } else {
          std::string v = RandomValue();
          b.Put(k, v);
          next[k] = v;
        }
      }
      ASSERT_TRUE(db_->Write(wo, b).ok());
      model = std::move(next);
    } else if (r < 650) {
      auto t = db_->BeginTransaction(wo);
      Model mine = model;
      std::vector<std::string> written;
      for (uint64_t i = 0, n = 1 + rnd_->Uniform(8); i < n; ++i) {
        std::string k = RandomKey();
        written.push_back(k);
        if (rnd_->OneIn(3)) {
          ASSERT_TRUE(t->Delete(k).ok());
          mine.erase(k);
        } else {
          std::string v = RandomValue();
          ASSERT_TRUE(t->Put(k, v).ok());
          mine[k] = v;
        }
        std::string got;
        std::string probe = RandomKey();
        Status s = t->Get(probe, &got);
        auto it = mine.find(probe);
        ASSERT_EQ(s.ok(), it != mine.end()) << probe;
        if (s.ok()) {
          ASSERT_EQ(got, it->second);
        }
      }
      if (rnd_->OneIn(3)) {  // a plain write to a key the transaction wrote: the transaction must lose
        std::string hit = written[rnd_->Uniform(written.size())];
        std::string v = RandomValue();
        ASSERT_TRUE(db_->Put(wo, hit, v).ok());
        model[hit] = v;
        ASSERT_TRUE(t->Commit().IsConflict());
      } else if (rnd_->OneIn(5)) {
        ASSERT_TRUE(t->Abort().ok());
      } else {
        ASSERT_TRUE(t->Commit().ok());
        model = std::move(mine);
      }
    } else if (r < 850) {
      CheckGet(RandomKey(), model, nullptr);
    } else if (r < 860) {
      snapshots_.emplace_back(db_->GetSnapshot(), model);
      if (snapshots_.size() > 4) {
        db_->ReleaseSnapshot(snapshots_.front().first);
        snapshots_.erase(snapshots_.begin());
      }
    } else if (r < 900) {
      if (!snapshots_.empty()) {
        auto& [snap, m] = snapshots_[rnd_->Uniform(snapshots_.size())];
        CheckGet(RandomKey(), m, snap);
      }
    } else if (r < 905) {
      CheckAll(model, nullptr);
      if (!snapshots_.empty()) CheckAll(snapshots_.back().second, snapshots_.back().first);
    } else if (r < 910) {
      ASSERT_TRUE(db_->Flush().ok());
    } else if (r < 912) {
      ASSERT_TRUE(db_->Compact().ok());
    } else if (r < 914) {
      Reopen();
      CheckAll(model, nullptr);
    } else {
      CheckGet(RandomKey(), model, nullptr);
    }
  }
  CheckAll(model, nullptr);
  Reopen();
  CheckAll(model, nullptr);
  DbStats st = db_->GetStats();
  EXPECT_GE(st.segments, 1u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest,
                         ::testing::Values(std::make_tuple(Durability::kNone, uint64_t{1}),
                                           std::make_tuple(Durability::kNormal, uint64_t{2}),
                                           std::make_tuple(Durability::kNone, uint64_t{3})));

}  // namespace
}  // namespace dbx
