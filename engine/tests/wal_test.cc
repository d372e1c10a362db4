// The WAL format: round trips, torn tails, flipped bytes, random garbage (never a crash).
#include "src/wal.h"

#include <gtest/gtest.h>

#include <vector>

#include "src/random.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

std::vector<std::string> ReadAll(std::string_view data, WalReadResult* res) {
  std::vector<std::string> out;
  Status s = ReadWalRecords(
      data,
      [&](std::string_view p) {
        out.emplace_back(p);
        return Status::Ok();
      },
      res);
  EXPECT_TRUE(s.ok());
  return out;
}

TEST(Wal, RoundTripThroughAFile) {
  test::TempDir dir;
  std::string path = dir.path() + "/1.wal";
  std::unique_ptr<WalWriter> w;
  ASSERT_TRUE(WalWriter::Create(Env::Default(), path, 1, &w).ok());
  std::string framed;
  std::vector<std::string> payloads = {"first", std::string(100000, 'x'), "third"};
  for (const auto& p : payloads) AppendWalRecord(&framed, p);
  ASSERT_TRUE(w->AppendFramed(framed).ok());
  ASSERT_TRUE(w->Sync().ok());
  ASSERT_TRUE(w->Close().ok());
  std::vector<std::string> got;
  WalReadResult res;
  ASSERT_TRUE(ReadWalFile(
                  Env::Default(), path,
                  [&](std::string_view p) {
                    got.emplace_back(p);
                    return Status::Ok();
                  },
                  &res)
                  .ok());
  EXPECT_EQ(got, payloads);
  EXPECT_FALSE(res.torn);
  EXPECT_EQ(res.records, 3u);
}

TEST(Wal, TornTailIsCutAtTheLastGoodRecord) {
  std::string framed;
  AppendWalRecord(&framed, "one");
  AppendWalRecord(&framed, "two");
  size_t good = framed.size();
  AppendWalRecord(&framed, "three-is-longer");
  for (size_t cut = good; cut < framed.size(); ++cut) {
    WalReadResult res;
    auto got = ReadAll(std::string_view(framed).substr(0, cut), &res);
    ASSERT_EQ(got.size(), 2u) << "cut at " << cut;
    EXPECT_EQ(res.valid_bytes, good);
    EXPECT_EQ(res.torn, cut > good);
  }
}

TEST(Wal, FlippedByteStopsReplayAtThatRecord) {
  std::string framed;
  AppendWalRecord(&framed, "aaaa");
  size_t first = framed.size();
  AppendWalRecord(&framed, "bbbb");
  AppendWalRecord(&framed, "cccc");
  for (size_t i = first; i < first + kWalHeader + 4; ++i) {
    std::string bad = framed;
    bad[i] ^= 0x20;
    WalReadResult res;
    auto got = ReadAll(bad, &res);
    EXPECT_EQ(got.size(), 1u) << "flip at " << i;
    EXPECT_TRUE(res.torn);
  }
}

TEST(Wal, RandomGarbageNeverCrashes) {
  Random rnd(99);
  for (int round = 0; round < 2000; ++round) {
    std::string data;
    AppendWalRecord(&data, "valid-record");
    size_t n = rnd.Uniform(64);
    for (size_t i = 0; i < n; ++i) data.push_back(static_cast<char>(rnd.Next()));
    if (rnd.OneIn(2) && data.size() > 12) data[rnd.Uniform(data.size())] ^= 1;
    WalReadResult res;
    ReadAll(data, &res);
    EXPECT_LE(res.valid_bytes, data.size());
  }
}

}  // namespace
}  // namespace dbx
