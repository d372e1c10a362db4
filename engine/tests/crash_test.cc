// Crash recovery: a forked child commits numbered transactions with durability `full` and reports
// each acknowledged commit through a pipe; the parent SIGKILLs it at a random moment (often in the
// middle of a WAL write, a flush or a compaction), reopens the database and checks that every
// acknowledged commit is fully present and no transaction is partially applied.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "dbx/db.h"
#include "src/random.h"
#include "tests/test_util.h"

namespace dbx {
namespace {

constexpr int kKeysPerTxn = 4;

std::string TxnKey(uint64_t n, int j) { return "txn" + std::to_string(n) + "_" + std::to_string(j); }
std::string TxnValue(uint64_t n, int j) { return "value-" + std::to_string(n) + "-" + std::to_string(j); }

Options CrashOptions(Durability d) {
  Options o;
  o.durability = d;
  o.delta_flush_entries = 120;  // small tiers: crashes land in merges, flushes and compactions too
  o.wos_flush_bytes = 16 << 10;
  o.block_size = 512;
  o.compaction_trigger = 3;
  return o;
}

// The child: commits transaction first, first+1, ... until killed. Never returns.
[[noreturn]] void RunWriter(const std::string& dir, Durability d, uint64_t first, int fd) {
  std::unique_ptr<DB> db;
  if (!DB::Open(CrashOptions(d), dir, &db).ok()) _exit(2);
  for (uint64_t n = first;; ++n) {
    Status s;
    if (n % 2 == 0) {
      auto t = db->BeginTransaction(WriteOptions());
      for (int j = 0; j < kKeysPerTxn; ++j) (void)t->Put(TxnKey(n, j), TxnValue(n, j));
      (void)t->Put("last", std::to_string(n));
      if (n >= 3) (void)t->Delete(TxnKey(n - 3, 0) + "_tmp");
      s = t->Commit();
    } else {
      WriteBatch b;
      for (int j = 0; j < kKeysPerTxn; ++j) b.Put(TxnKey(n, j), TxnValue(n, j));
      b.Put("last", std::to_string(n));
      b.Put(TxnKey(n, 0) + "_tmp", "x");
      s = db->Write(WriteOptions(), b);
    }
    if (!s.ok()) _exit(3);
    if (write(fd, &n, sizeof(n)) != sizeof(n)) _exit(4);
  }
}

class CrashTest : public ::testing::TestWithParam<Durability> {};

TEST_P(CrashTest, AcknowledgedCommitsSurviveSigkill) {
  test::TempDir tmp;
  const std::string dir = tmp.Sub("db");
  Random rnd(static_cast<uint64_t>(::getpid()) * 7919 + static_cast<uint64_t>(GetParam()));
  uint64_t next = 1;
  for (int round = 0; round < 6; ++round) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      RunWriter(dir, GetParam(), next, fds[1]);
    }
    ::close(fds[1]);
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rnd.Uniform(150)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "writer exited early with status " << WEXITSTATUS(status);
    uint64_t acked = 0, n = 0;
    while (::read(fds[0], &n, sizeof(n)) == static_cast<ssize_t>(sizeof(n))) acked = n;
    ::close(fds[0]);

    std::unique_ptr<DB> db;
    Status s = DB::Open(CrashOptions(GetParam()), dir, &db);
    ASSERT_TRUE(s.ok()) << "round " << round << ": " << s.ToString();
    std::string v;
    ASSERT_TRUE(db->Get(ReadOptions(), "last", &v).ok()) << "round " << round;
    uint64_t last = std::stoull(v);
    EXPECT_GE(last, acked) << "an acknowledged commit was lost (round " << round << ")";
    // Commits are sequential: everything up to `last` is whole, nothing after it exists.
    for (uint64_t t = 1; t <= last + 2; ++t) {
      for (int j = 0; j < kKeysPerTxn; ++j) {
        Status g = db->Get(ReadOptions(), TxnKey(t, j), &v);
        if (t <= last) {
          ASSERT_TRUE(g.ok()) << "txn " << t << " key " << j << " missing, last " << last << " acked " << acked;
          ASSERT_EQ(v, TxnValue(t, j));
        } else {
          ASSERT_TRUE(g.IsNotFound()) << "txn " << t << " partially present after last " << last;
        }
      }
    }
    uint64_t count = 0;
    ASSERT_TRUE(db->Count(ReadOptions(), &count).ok());
    uint64_t tmp_keys = 0;  // odd transactions add a _tmp key that the even one 3 later deletes
    for (uint64_t t = 1; t <= last; t += 2) tmp_keys += (t + 3 > last);
    EXPECT_EQ(count, last * kKeysPerTxn + 1 + tmp_keys) << "round " << round;
    next = last + 1;
    ASSERT_TRUE(db->Close().ok());
  }
  EXPECT_GT(next, 10u) << "the writer made too little progress to test anything";
}

INSTANTIATE_TEST_SUITE_P(Durabilities, CrashTest, ::testing::Values(Durability::kFull, Durability::kNormal),
                         [](const auto& info) { return std::string(DurabilityName(info.param)); });

}  // namespace
}  // namespace dbx
