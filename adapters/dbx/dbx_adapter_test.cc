// The DBX adapter's settle moves the write tiers into a segment before it waits for background work: at
// durability none (no WAL) the segment files alone then hold every row written before the settle, as a
// copy of the directory opened by the engine itself shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "adapters/adapter.h"
#include "adapters/adapter_test_dir.h"
#include "dbx/db.h"

namespace dbxb {
namespace {

constexpr int kRows = 3000;

std::string Key(int i) { return "settle" + std::to_string(100000 + i); }
std::string Value(int i) { return std::string(100, static_cast<char>('a' + i % 26)); }

class DbxAdapterTest : public AdapterTest {
 protected:
  void SetUp() override {
    AdapterTest::SetUp();
    AdapterOptions options;
    options.durability = Durability::kNone;
    options.cache_bytes = 64ull << 20;  // write tiers of 8 MiB (WOS) and 4 MiB (delta): the rows stay in them
    OpenAdapter("dbx", options);
  }

  void Load() {
    auto session = adapter_->NewSession();
    ASSERT_TRUE(session.ok());
    Session& s = **session;
    for (int i = 0; i < kRows; i += 100) {
      ASSERT_TRUE(s.Begin().ok());
      for (int j = i; j < i + 100; ++j) ASSERT_TRUE(s.Put(Key(j), Value(j)).ok());
      ASSERT_TRUE(s.Commit().ok());
    }
  }

  // Copies the database directory as it is now (the adapter still open) and opens the copy.
  std::unique_ptr<dbx::DB> OpenCopy() {
    const std::filesystem::path copy = dir_ / "copy";
    std::filesystem::copy(dir_ / "db", copy, std::filesystem::copy_options::recursive);
    dbx::Options o;
    o.durability = dbx::Durability::kNone;
    std::unique_ptr<dbx::DB> db;
    dbx::Status st = dbx::DB::Open(o, copy.string(), &db);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return db;
  }
};

TEST_F(DbxAdapterTest, SettleWritesTheWriteTiersIntoASegment) {
  Load();
  ASSERT_TRUE(adapter_->Settle().ok());
  std::unique_ptr<dbx::DB> copy = OpenCopy();
  ASSERT_NE(copy, nullptr);
  const dbx::DbStats stats = copy->GetStats();
  EXPECT_GE(stats.segments, 1u);
  EXPECT_EQ(stats.segment_entries, static_cast<uint64_t>(kRows)) << "every row is in a segment file";
  std::string value;
  for (int i = 0; i < kRows; ++i) {
    ASSERT_TRUE(copy->Get(dbx::ReadOptions(), Key(i), &value).ok()) << Key(i);
    EXPECT_EQ(value, Value(i));
  }
  EXPECT_TRUE(copy->Close().ok());

  // The live database reads the same rows, and still takes writes.
  auto session = adapter_->NewSession();
  ASSERT_TRUE(session.ok());
  for (int i = 0; i < kRows; i += 7) {
    ASSERT_TRUE((*session)->Get(Key(i), &value).ok()) << Key(i);
    EXPECT_EQ(value, Value(i));
  }
  ASSERT_TRUE((*session)->Put("after", "settle").ok());
  ASSERT_TRUE((*session)->Get("after", &value).ok());
  EXPECT_EQ(value, "settle");

  bool reported = false;
  for (const auto& [key, setting] : adapter_->NativeSettings())
    reported = reported || (key == "settle" && setting.find("DB::Flush") != std::string::npos);
  EXPECT_TRUE(reported) << "the native settings say the settle flushes";
}

// Two loads, each settled: the second settle's flush writes a second segment, which the size-tiered
// policy would leave beside the first (two segments are below compaction_trigger); the settle merges them.
TEST_F(DbxAdapterTest, SettleLeavesOneSegment) {
  Load();
  ASSERT_TRUE(adapter_->Settle().ok());
  auto session = adapter_->NewSession();
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*session)->Begin().ok());
  for (int i = kRows; i < kRows + 500; ++i) ASSERT_TRUE((*session)->Put(Key(i), Value(i)).ok());
  ASSERT_TRUE((*session)->Commit().ok());
  ASSERT_TRUE(adapter_->Settle().ok());
  std::unique_ptr<dbx::DB> copy = OpenCopy();
  ASSERT_NE(copy, nullptr);
  const dbx::DbStats stats = copy->GetStats();
  EXPECT_EQ(stats.segments, 1u) << "the settle merges what the compaction policy left side by side";
  EXPECT_EQ(stats.segment_entries, static_cast<uint64_t>(kRows + 500));
  std::string value;
  for (int i = 0; i < kRows + 500; i += 11) {
    ASSERT_TRUE(copy->Get(dbx::ReadOptions(), Key(i), &value).ok()) << Key(i);
    EXPECT_EQ(value, Value(i));
  }
  EXPECT_TRUE(copy->Close().ok());
}

// Without a settle the rows are still only in memory (the test above would pass without the flush if
// these tiers wrote themselves out).
TEST_F(DbxAdapterTest, WithoutASettleTheRowsAreStillInTheWriteTiers) {
  Load();
  std::unique_ptr<dbx::DB> copy = OpenCopy();
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->GetStats().segment_entries, 0u);
  std::string value;
  EXPECT_TRUE(copy->Get(dbx::ReadOptions(), Key(0), &value).IsNotFound());
  EXPECT_TRUE(copy->Close().ok());
}

}  // namespace
}  // namespace dbxb
