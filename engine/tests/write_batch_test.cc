// WriteBatch: its encoding through growth (inline, heap, pooled pages), copies and moves, and the
// engine-side access (SetContents, Append) the WAL and transactions use.
#include "dbx/write_batch.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "src/buffer_pool.h"
#include "src/write_batch_internal.h"

namespace dbx {
namespace {

struct Entry {
  bool put;
  std::string key, value;
  bool operator==(const Entry& o) const { return put == o.put && key == o.key && value == o.value; }
};

std::vector<Entry> Entries(const WriteBatch& b) {
  struct Collect : WriteBatch::Handler {
    std::vector<Entry> out;
    void Put(std::string_view k, std::string_view v) override { out.push_back({true, std::string(k), std::string(v)}); }
    void Delete(std::string_view k) override { out.push_back({false, std::string(k), ""}); }
  } c;
  EXPECT_TRUE(b.Iterate(&c).ok());
  return c.out;
}

// n entries: Puts of growing values with a Delete every 7th, from small through pooled sizes.
std::vector<Entry> Fill(WriteBatch* b, int n) {
  std::vector<Entry> want;
  for (int i = 0; i < n; ++i) {
    std::string k = "k" + std::to_string(i);
    if (i % 7 == 3) {
      b->Delete(k);
      want.push_back({false, k, ""});
    } else {
      std::string v(static_cast<size_t>(i % 300), static_cast<char>('a' + i % 26));
      b->Put(k, v);
      want.push_back({true, k, v});
    }
  }
  return want;
}

TEST(WriteBatch, EntriesSurviveGrowthFromInlineToPooledPages) {
  for (int n : {0, 1, 3, 40, 2000, 40000}) {  // up to ~6 MiB: every class and beyond
    WriteBatch b;
    std::vector<Entry> want = Fill(&b, n);
    EXPECT_EQ(b.Count(), static_cast<uint32_t>(n));
    EXPECT_EQ(Entries(b), want) << n;
    b.Clear();
    EXPECT_EQ(b.Count(), 0u);
    EXPECT_EQ(b.ByteSize(), WriteBatchInternal::kHeader);
    std::vector<Entry> again = Fill(&b, n / 2);  // reuses the buffer it kept
    EXPECT_EQ(Entries(b), again) << n;
  }
}

TEST(WriteBatch, CopiesAndMovesOfEverySize) {
  for (int n : {1, 40, 2000, 40000}) {
    WriteBatch b;
    std::vector<Entry> want = Fill(&b, n);
    WriteBatch copy(b);
    EXPECT_EQ(Entries(copy), want);
    WriteBatch assigned;
    assigned.Put("x", "y");
    assigned = b;
    EXPECT_EQ(Entries(assigned), want);
    WriteBatch moved(std::move(copy));
    EXPECT_EQ(Entries(moved), want);
    EXPECT_EQ(copy.Count(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from batch is empty
    EXPECT_TRUE(Entries(copy).empty());
    WriteBatch move_assigned;
    Fill(&move_assigned, 3000);
    move_assigned = std::move(moved);
    EXPECT_EQ(Entries(move_assigned), want);
    copy.Put("again", "usable");
    EXPECT_EQ(copy.Count(), 1u);
    EXPECT_EQ(WriteBatchInternal::Contents(b), WriteBatchInternal::Contents(assigned));
  }
}

TEST(WriteBatch, SetContentsAndAppendIncludingItself) {
  WriteBatch b;
  std::vector<Entry> want = Fill(&b, 500);
  WriteBatchInternal::SetSequence(&b, 77);
  WriteBatch c;
  ASSERT_TRUE(WriteBatchInternal::SetContents(&c, WriteBatchInternal::Contents(b)).ok());
  EXPECT_EQ(WriteBatchInternal::Sequence(c), 77u);
  EXPECT_EQ(Entries(c), want);
  EXPECT_FALSE(WriteBatchInternal::SetContents(&c, "short").ok());

  WriteBatchInternal::Append(&c, c);  // the buffer may move while it is read
  std::vector<Entry> twice = want;
  twice.insert(twice.end(), want.begin(), want.end());
  EXPECT_EQ(c.Count(), 1000u);
  EXPECT_EQ(Entries(c), twice);
}

TEST(WriteBatch, LargeBatchesReuseThePoolsPages) {
  // A bulk load's batch past 4 KiB grows in buffer_pool classes: the pages one batch gave back are
  // the next one's, so a loop of batches stops faulting in fresh memory.
  const void* first = nullptr;
  for (int round = 0; round < 2; ++round) {
    WriteBatch b;
    Fill(&b, 2000);  // ~300 KiB: the 512 KiB class
    const void* data = WriteBatchInternal::Contents(b).data();
    if (round == 0)
      first = data;
    else
      EXPECT_EQ(data, first);
  }
}

}  // namespace
}  // namespace dbx
