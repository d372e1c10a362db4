// Transactions: read-your-writes, snapshot reads, first-committer-wins conflicts, atomicity.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "dbx/db.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

class TransactionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options o;
    o.durability = Durability::kNone;
    o.delta_flush_entries = 50;
    ASSERT_TRUE(DB::Open(o, dir_.Sub("db"), &db_).ok());
  }
  std::string Get(const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), k, &v);
    return s.ok() ? v : s.IsNotFound() ? "NOT_FOUND" : s.ToString();
  }
  test::TempDir dir_;
  std::unique_ptr<DB> db_;
};

TEST_F(TransactionTest, ReadsItsOwnWritesAndItsSnapshot) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "a", "old").ok());
  auto t = db_->BeginTransaction(WriteOptions());
  ASSERT_TRUE(db_->Put(WriteOptions(), "b", "outside").ok());  // after the snapshot
  std::string v;
  ASSERT_TRUE(t->Get("a", &v).ok());
  EXPECT_EQ(v, "old");
  EXPECT_TRUE(t->Get("b", &v).IsNotFound());
  ASSERT_TRUE(t->Put("a", "new").ok());
  ASSERT_TRUE(t->Get("a", &v).ok());
  EXPECT_EQ(v, "new");
  ASSERT_TRUE(t->Delete("a").ok());
  EXPECT_TRUE(t->Get("a", &v).IsNotFound());
  ASSERT_TRUE(t->Put("c", "1").ok());
  EXPECT_EQ(Get("c"), "NOT_FOUND");  // invisible until commit
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("c"), "1");
  EXPECT_TRUE(t->Commit().IsInvalidArgument());
}

TEST_F(TransactionTest, FirstCommitterWins) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "x", "0").ok());
  auto t1 = db_->BeginTransaction(WriteOptions());
  auto t2 = db_->BeginTransaction(WriteOptions());
  ASSERT_TRUE(t1->Put("x", "t1").ok());
  ASSERT_TRUE(t1->Put("only1", "t1").ok());
  ASSERT_TRUE(t2->Put("x", "t2").ok());
  ASSERT_TRUE(t2->Put("only2", "t2").ok());
  ASSERT_TRUE(t1->Commit().ok());
  Status s = t2->Commit();
  EXPECT_TRUE(s.IsConflict()) << s.ToString();
  EXPECT_EQ(Get("x"), "t1");
  EXPECT_EQ(Get("only2"), "NOT_FOUND");  // nothing of the loser is applied
  uint64_t n;
  ASSERT_TRUE(db_->Count(ReadOptions(), &n).ok());
  EXPECT_EQ(n, 2u);
}

TEST_F(TransactionTest, PlainWritesAndDeletesAlsoConflict) {
  auto t = db_->BeginTransaction(WriteOptions());
  ASSERT_TRUE(t->Put("k", "txn").ok());
  ASSERT_TRUE(db_->Delete(WriteOptions(), "k").ok());  // a tombstone is a write too
  EXPECT_TRUE(t->Commit().IsConflict());
  auto t2 = db_->BeginTransaction(WriteOptions());
  ASSERT_TRUE(t2->Put("k", "txn").ok());
  // Disjoint keys never conflict, even after flushes move data to other tiers.
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(db_->Put(WriteOptions(), "other" + std::to_string(i), "v").ok());
  ASSERT_TRUE(db_->Flush().ok());
  ASSERT_TRUE(t2->Commit().ok());
  EXPECT_EQ(Get("k"), "txn");
}

TEST_F(TransactionTest, ConflictDetectedAgainstFlushedData) {
  auto t = db_->BeginTransaction(WriteOptions());
  ASSERT_TRUE(db_->Put(WriteOptions(), "k", "winner").ok());
  ASSERT_TRUE(db_->Flush().ok());
  ASSERT_TRUE(db_->Compact().ok());  // the winning version now lives in a segment only
  ASSERT_TRUE(t->Put("k", "loser").ok());
  EXPECT_TRUE(t->Commit().IsConflict());
  EXPECT_EQ(Get("k"), "winner");
}

TEST_F(TransactionTest, AbortAndDestructorDiscard) {
  {
    auto t = db_->BeginTransaction(WriteOptions());
    ASSERT_TRUE(t->Put("a", "1").ok());
    ASSERT_TRUE(t->Abort().ok());
  }
  {
    auto t = db_->BeginTransaction(WriteOptions());
    ASSERT_TRUE(t->Put("b", "1").ok());
  }
  EXPECT_EQ(Get("a"), "NOT_FOUND");
  EXPECT_EQ(Get("b"), "NOT_FOUND");
}

TEST_F(TransactionTest, ConcurrentIncrementsNeverLoseUpdates) {
  ASSERT_TRUE(db_->Put(WriteOptions(), "counter", "0").ok());
  std::atomic<int> committed{0};
  auto worker = [&] {
    for (int i = 0; i < 300; ++i) {
      for (;;) {
        auto t = db_->BeginTransaction(WriteOptions());
        std::string v;
        ASSERT_TRUE(t->Get("counter", &v).ok());
        ASSERT_TRUE(t->Put("counter", std::to_string(std::stoi(v) + 1)).ok());
        Status s = t->Commit();
        if (s.ok()) break;
        ASSERT_TRUE(s.IsConflict()) << s.ToString();
      }
      committed++;
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  EXPECT_EQ(Get("counter"), std::to_string(committed.load()));
  EXPECT_EQ(committed.load(), 600);
}

}  // namespace
}  // namespace dbx
