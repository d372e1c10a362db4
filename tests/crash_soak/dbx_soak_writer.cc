// The two halves of the DBX crash soak (scripts/crash-soak.sh), one binary:
//
//   dbx_soak_writer write DIR DURABILITY
//     Opens the database in DIR and commits numbered transactions n = last+1, last+2, ... until it
//     is killed. Transaction n puts t<n>/0 .. t<n>/<kKeys-1> (value v<n>/<j> padded), sets "last" to
//     n, and moves the single "tmp/<n-1>" key to "tmp/<n>" (a delete and a put), so that a
//     half-applied transaction is visible in three ways. Even n commit through a Transaction, odd n
//     through a WriteBatch. The tiers are tiny, so flushes, WOS-to-segment writes and compactions
//     run all the time and a kill lands in them often. After each commit returns OK it writes one
//     line "n flushes compactions" to stdout with a single write(2): a line on stdout is an
//     acknowledged commit.
//
//   dbx_soak_writer check DIR DURABILITY ACKED
//     Reopens the database and checks that it opens cleanly and holds exactly the transactions
//     1..L for L = "last" (every key of each with the right value, nothing of any later one, exactly
//     one tmp key, tmp/L), i.e. a prefix of the committed sequence with no gaps and no partial
//     transaction. Prints "recovered L". With durability full, L >= ACKED is also required (every
//     acknowledged commit survived). Exit 0: all good; 1: a violation (described on stderr);
//     2: the database did not open.
//
//   dbx_soak_writer power-loss DURABILITY ITERATIONS SEED
//     The power-loss soak, in one process over the fault-injecting Env (engine/src/fault_env.h),
//     which keeps only what fsyncs covered. Each iteration opens the database (recovering from
//     the previous cut), checks it as `check` does, and commits the same numbered transactions
//     until the power is cut after a random number of file-system operations (so cuts land in WAL
//     writes and syncs, flushes, compactions, WAL rotations, manifest replacements and in
//     recovery itself); then every unsynced byte and directory entry is dropped. Beyond `check`:
//     an open fails only when the power was cut during it; at full, every acknowledged commit is
//     there; at normal, the recovered prefix ends no earlier than the last background WAL sync
//     before the cut (an empty database after synced commits is a loss). One line per 10
//     iterations and a summary line "power-loss: ..."; exit 0 when nothing was violated.
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "dbx/db.h"
#include "src/fault_env.h"

namespace {

constexpr int kKeys = 4;
constexpr size_t kValuePad = 96;

// Fixed-width numbers keep a transaction's keys adjacent and in commit order.
std::string TxnKey(uint64_t n, int j) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "t%010" PRIu64 "/%d", n, j);
  return buf;
}
std::string TmpKey(uint64_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "tmp/%010" PRIu64, n);
  return buf;
}
std::string TxnValue(uint64_t n, int j) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "v%" PRIu64 "/%d/", n, j);
  std::string v = buf;
  v.resize(kValuePad, 'x');
  return v;
}

bool ParseDurability(const char* text, dbx::Durability* d) {
  if (std::strcmp(text, "none") == 0)
    *d = dbx::Durability::kNone;
  else if (std::strcmp(text, "normal") == 0)
    *d = dbx::Durability::kNormal;
  else if (std::strcmp(text, "full") == 0)
    *d = dbx::Durability::kFull;
  else
    return false;
  return true;
}

dbx::Options SoakOptions(dbx::Durability d) {
  dbx::Options o;
  o.durability = d;
  o.delta_flush_entries = 64;   // a delta-store merge every ~12 transactions
  o.wos_flush_bytes = 8 << 10;  // a segment every few dozen transactions
  o.block_size = 512;
  o.compaction_trigger = 3;  // and a compaction every few segments
  o.columnar_cache_bytes = 0;
  return o;
}

uint64_t ReadLast(dbx::DB* db) {
  std::string v;
  dbx::Status s = db->Get(dbx::ReadOptions(), "last", &v);
  return s.ok() ? std::strtoull(v.c_str(), nullptr, 10) : 0;
}

// Commits transaction n (see the header comment).
dbx::Status CommitTxn(dbx::DB* db, uint64_t n) {
  dbx::Status s;
  if (n % 2 == 0) {
    auto t = db->BeginTransaction(dbx::WriteOptions());
    for (int j = 0; j < kKeys && s.ok(); ++j) s = t->Put(TxnKey(n, j), TxnValue(n, j));
    if (s.ok()) s = t->Put("last", std::to_string(n));
    if (s.ok() && n > 1) s = t->Delete(TmpKey(n - 1));
    if (s.ok()) s = t->Put(TmpKey(n), "x");
    if (s.ok()) s = t->Commit();
    return s;
  }
  dbx::WriteBatch b;
  for (int j = 0; j < kKeys; ++j) b.Put(TxnKey(n, j), TxnValue(n, j));
  b.Put("last", std::to_string(n));
  if (n > 1) b.Delete(TmpKey(n - 1));
  b.Put(TmpKey(n), "x");
  return db->Write(dbx::WriteOptions(), b);
}

int Write(const std::string& dir, dbx::Durability d) {
  std::unique_ptr<dbx::DB> db;
  dbx::Status s = dbx::DB::Open(SoakOptions(d), dir, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "dbx_soak_writer: open %s: %s\n", dir.c_str(), s.ToString().c_str());
    return 2;
  }
  for (uint64_t n = ReadLast(db.get()) + 1;; ++n) {
    s = CommitTxn(db.get(), n);
    if (!s.ok()) {
      std::fprintf(stderr, "dbx_soak_writer: commit %" PRIu64 ": %s\n", n, s.ToString().c_str());
      return 3;
    }
    dbx::DbStats st = db->GetStats();
    char line[96];
    int len = std::snprintf(line, sizeof line, "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n", n, st.flushes, st.compactions);
    if (::write(STDOUT_FILENO, line, static_cast<size_t>(len)) != len) return 4;
  }
}

int Violation(const std::string& what) {
  std::fprintf(stderr, "dbx_soak_writer: check: %s\n", what.c_str());
  return 1;
}

// Checks that db holds exactly the transactions 1..*last, each whole; returns the problem, or "".
std::string VerifyPrefix(dbx::DB* db, uint64_t* last_out) {
  const uint64_t last = ReadLast(db);
  *last_out = last;
  dbx::Status s;
  std::map<uint64_t, int> keys_of_txn;
  uint64_t tmp_keys = 0, other = 0;
  std::string problem;
  auto it = db->NewIterator(dbx::ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key(it->key()), value(it->value());
    if (key == "last") continue;
    if (key.size() == 13 && key[0] == 't' && key[11] == '/') {  // t<10 digits>/<j>
      uint64_t n = std::strtoull(key.c_str() + 1, nullptr, 10);
      int j = std::atoi(key.c_str() + 12);
      if (value != TxnValue(n, j) && problem.empty()) problem = "wrong value under " + key;
      ++keys_of_txn[n];
    } else if (key.rfind("tmp/", 0) == 0) {
      ++tmp_keys;
      if (key != TmpKey(last) && problem.empty()) problem = "stale " + key + " (last is " + std::to_string(last) + ")";
    } else {
      ++other;
    }
  }
  if (!it->status().ok()) return "iteration failed: " + it->status().ToString();
  it.reset();
  if (!problem.empty()) return problem;
  if (other != 0) return std::to_string(other) + " keys the writer never wrote";
  if (last > 0 && tmp_keys != 1) return std::to_string(tmp_keys) + " tmp keys instead of 1";
  // A prefix 1..last, each transaction complete, nothing later.
  if (keys_of_txn.size() != last)
    return "transactions present: " + std::to_string(keys_of_txn.size()) + ", last is " + std::to_string(last);
  for (const auto& [n, count] : keys_of_txn) {
    if (n < 1 || n > last)
      return "transaction " + std::to_string(n) + " is visible but last is " + std::to_string(last);
    if (count != kKeys)
      return "transaction " + std::to_string(n) + " is half visible: " + std::to_string(count) + " of " +
             std::to_string(kKeys) + " keys";
  }
  uint64_t count = 0;
  if (!(s = db->Count(dbx::ReadOptions(), &count)).ok()) return "Count: " + s.ToString();
  uint64_t expected = last == 0 ? 0 : last * kKeys + 2;
  if (count != expected) return "Count() says " + std::to_string(count) + ", the scan " + std::to_string(expected);
  return "";
}

int Check(const std::string& dir, dbx::Durability d, uint64_t acked) {
  std::unique_ptr<dbx::DB> db;
  dbx::Options o = SoakOptions(d);
  o.create_if_missing = false;
  dbx::Status s = dbx::DB::Open(o, dir, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "dbx_soak_writer: check: the database does not open: %s\n", s.ToString().c_str());
    return 2;
  }
  uint64_t last = 0;
  std::string problem = VerifyPrefix(db.get(), &last);
  if (!problem.empty()) return Violation(problem);
  if (d == dbx::Durability::kFull && last < acked)
    return Violation("acknowledged commits lost: acknowledged up to " + std::to_string(acked) + ", recovered up to " +
                     std::to_string(last));
  if (!(s = db->Close()).ok()) return Violation("Close: " + s.ToString());
  std::printf("recovered %" PRIu64 "\n", last);
  return 0;
}

// Where a power cut landed, by the file the stopped operation touched.
std::string CutPlace(const std::string& cut_at) {
  if (cut_at.empty()) return "none";
  std::string op = cut_at.substr(0, cut_at.find(' '));
  std::string file = cut_at.substr(cut_at.find(' ') + 1);
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".wal") == 0) return op + " wal";
  if (file.size() > 4 && file.compare(file.size() - 4, 4, ".seg") == 0) return op + " segment";
  if (file.rfind("MANIFEST", 0) == 0) return op + " manifest";
  return op + " " + file;  // a directory
}

int PowerLoss(dbx::Durability d, uint64_t iterations, uint64_t seed) {
  dbx::FaultEnv env;
  std::atomic<uint64_t> acked{0};  // the last acknowledged commit
  // The soak's "last background sync": the acknowledged commits a WAL sync made durable.
  env.SetSyncMarker(".wal", [&acked] { return acked.load(); });
  const std::string dir = "/power-loss/db";
  std::mt19937_64 rng(seed);
  uint64_t acked_total = 0, lost = 0, tail_lost = 0, prefix_violations = 0, broken_opens = 0;
  uint64_t cuts_in_open = 0, flushes = 0, compactions = 0, last = 0;
  std::map<std::string, uint64_t> cut_places;
  std::printf("power-loss: %" PRIu64 " iterations, durability %s, seed %" PRIu64 "\n", iterations,
              dbx::DurabilityName(d), seed);
  // Each iteration: open (recovering from the previous cut; the power may be cut here too), check,
  // commit until the cut. One more open at the end checks the last cut.
  for (uint64_t i = 1; i <= iterations + 1; ++i) {
    dbx::Options o = SoakOptions(d);
    o.env = &env;
    o.wal_sync_interval_ms = 2;
    const bool check_only = i > iterations;
    // Mostly anywhere in a run of a few hundred commits; one in six during open and recovery.
    if (!check_only) env.CutPowerAfter(rng() % 6 == 0 ? 1 + rng() % 12 : 1 + rng() % 2500);
    std::unique_ptr<dbx::DB> db;
    dbx::Status s = dbx::DB::Open(o, dir, &db);
    if (!s.ok() && env.power_cut()) {
      ++cuts_in_open;
      ++cut_places[CutPlace(env.cut_at())];
      env.PowerLoss();
      continue;
    }
    if (!s.ok()) {
      ++broken_opens;
      std::fprintf(stderr, "power-loss: iteration %" PRIu64 ": the database does not open: %s\n", i,
                   s.ToString().c_str());
      break;
    }
    std::string problem = VerifyPrefix(db.get(), &last);
    const uint64_t a = acked.load();
    if (problem.empty() && last > a + 1)
      problem =
          "transaction " + std::to_string(last) + " recovered, but the last one attempted was " + std::to_string(a + 1);
    const uint64_t promised = d == dbx::Durability::kFull ? a : env.DurableMark();
    if (last < promised) {
      lost += promised - last;
      if (problem.empty())
        problem = "recovered up to " + std::to_string(last) + ", but " + std::to_string(promised) +
                  (d == dbx::Durability::kFull ? " were acknowledged" : " were made durable by a WAL sync");
    }
    if (!problem.empty()) {
      ++prefix_violations;
      std::fprintf(stderr, "power-loss: iteration %" PRIu64 " (acknowledged %" PRIu64 "): %s\n", i, a, problem.c_str());
      break;
    }
    if (last < a) tail_lost += a - last;
    if (i % 10 == 1 && i > 1)
      std::printf("power-loss: iteration %" PRIu64 "/%" PRIu64 ": %" PRIu64 " transactions recovered, %" PRIu64
                  " acknowledged so far, %" PRIu64 " lost\n",
                  i - 1, iterations, last, acked_total, lost);
    if (check_only) {
      s = db->Close();
      if (!s.ok()) {
        std::fprintf(stderr, "power-loss: Close: %s\n", s.ToString().c_str());
        return 1;
      }
      break;
    }
    acked.store(last);
    for (uint64_t n = last + 1; s.ok(); ++n) {
      s = CommitTxn(db.get(), n);
      if (s.ok()) {
        acked.store(n);
        ++acked_total;
      } else if (!env.power_cut()) {
        std::fprintf(stderr, "power-loss: iteration %" PRIu64 ": commit %" PRIu64 " failed without a cut: %s\n", i, n,
                     s.ToString().c_str());
        return 1;
      }
    }
    dbx::DbStats st = db->GetStats();
    flushes += st.flushes;
    compactions += st.compactions;
    db.reset();  // the DB goes with the power: nothing it does now reaches the disk
    ++cut_places[CutPlace(env.cut_at())];
    env.PowerLoss();
  }
  std::string places;
  for (const auto& [place, n] : cut_places) places += (places.empty() ? "" : ", ") + place + " " + std::to_string(n);
  const bool passed = lost == 0 && prefix_violations == 0 && broken_opens == 0;
  std::printf("power-loss: %s: %" PRIu64 " iterations, durability %s, seed %" PRIu64 ": %" PRIu64
              " acknowledged commits, lost %" PRIu64 ", prefix violations %" PRIu64 ", broken opens %" PRIu64
              "; unsynced tail dropped %" PRIu64 " (allowed at normal); %" PRIu64 " flushes, %" PRIu64
              " compactions; cuts: %" PRIu64 " during open/recovery; by operation: %s\n",
              passed ? "PASSED" : "FAILED", iterations, dbx::DurabilityName(d), seed, acked_total, lost,
              prefix_violations, broken_opens, tail_lost, flushes, compactions, cuts_in_open, places.c_str());
  return passed ? 0 : 1;
}

int Usage() {
  std::fprintf(stderr,
               "usage: dbx_soak_writer write DIR none|normal|full\n"
               "       dbx_soak_writer check DIR none|normal|full ACKED\n"
               "       dbx_soak_writer power-loss normal|full ITERATIONS SEED\n");
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  dbx::Durability d;
  if (argc == 5 && std::strcmp(argv[1], "power-loss") == 0) {
    if (!ParseDurability(argv[2], &d) || d == dbx::Durability::kNone) return Usage();
    return PowerLoss(d, std::strtoull(argv[3], nullptr, 10), std::strtoull(argv[4], nullptr, 10));
  }
  if (argc < 4 || !ParseDurability(argv[3], &d)) return Usage();
  if (std::strcmp(argv[1], "write") == 0 && argc == 4) return Write(argv[2], d);
  if (std::strcmp(argv[1], "check") == 0 && argc == 5) return Check(argv[2], d, std::strtoull(argv[4], nullptr, 10));
  return Usage();
}
