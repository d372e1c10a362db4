// The Rust bridge's own tests: no panic crosses it, the versions it reports are the ones Cargo.lock pins,
// and what the engines cannot do is shown, not hidden: dbx-core's own count is inexact, its batches
// become visible row by row, it refuses durability full and the values its scan would change; every
// engine meets a foreign or damaged file in its directory with an error, not a crash.
#include "adapters/rust/rust_adapter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "adapters/adapter_test_dir.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class RustAdapterTest : public TempDirTest {
 protected:
  Result<std::unique_ptr<Adapter>> Open(const std::string& engine, Durability durability = Durability::kNormal,
                                        const char* sub = "db") {
    AdapterOptions options;
    options.dir = (dir_ / sub).string();
    options.durability = durability;
    options.cache_bytes = 8ull << 20;
    const AdapterFactory* factory = BuiltinAdapters().Find(engine);
    if (factory == nullptr) return Status::NotSupported(engine + " is not registered");
    return factory->open(options);
  }

  static std::unique_ptr<Session> NewSession(Adapter& adapter) {
    auto s = adapter.NewSession();
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s.value()) : nullptr;
  }

  static std::string Key(const char* prefix, int i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s%08d", prefix, i);
    return buf;
  }

  static std::string ReadFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
};

// sled's file lock outlives the close of a Db by a moment (its background work ends after the drop):
// an open of the same path waits for the lock instead of failing. Here the first Db is still open when
// the second open starts and is closed 200 ms later; before the wait, that open failed at once with
// "could not acquire lock" (as a close followed by an open did, about 1 time in 50 under load).
TEST_F(RustAdapterTest, SledOpenWaitsForTheLockOfADbBeingClosed) {
  auto first = Open("sled");
  if (!first.ok() && first.status().IsNotSupported()) GTEST_SKIP() << first.status().ToString();
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  std::unique_ptr<Adapter> held = std::move(first.value());
  std::thread closer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_TRUE(held->Close().ok());
    held.reset();
  });
  auto second = Open("sled");
  closer.join();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_TRUE(second.value()->Close().ok());
}

TEST_F(RustAdapterTest, APanicInTheBridgeComesBackAsAStatus) {
  Status s = RustBridgePanicForTest();
  EXPECT_EQ(s.code(), Status::Code::kInternal) << s.ToString();
  EXPECT_NE(s.message().find("deliberate test panic"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("Rust panic"), std::string::npos) << s.ToString();
}

TEST_F(RustAdapterTest, LibraryVersionsAreTheOnesCargoLockPins) {
  // adapters/rust/Cargo.lock pins these (Cargo.toml asks for them with "=").
  const std::pair<const char*, const char*> expected[] = {
      {"sled", "sled 0.34.7"}, {"redb", "redb 2.6.4"}, {"dbx-core", "dbx-core 0.2.2"}};
  for (const auto& [engine, version] : expected) {
    const AdapterFactory* f = BuiltinAdapters().Find(engine);
    ASSERT_NE(f, nullptr) << engine;
    EXPECT_EQ(f->library_version(), version);
    EXPECT_NE(f->library_build().find("Cargo.lock"), std::string::npos);
  }
}

TEST_F(RustAdapterTest, DbxCoreRefusesDurabilityFull) {
  auto adapter = Open("dbx-core", Durability::kFull);
  ASSERT_FALSE(adapter.ok());
  EXPECT_TRUE(adapter.status().IsNotSupported()) << adapter.status().ToString();
  EXPECT_NE(adapter.status().message().find("background thread"), std::string::npos) << adapter.status().ToString();
  const AdapterFactory* f = BuiltinAdapters().Find("dbx-core");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(RefusedDurability(*f, Durability::kFull), nullptr);
  EXPECT_EQ(RefusedDurability(*f, Durability::kNormal), nullptr);
  EXPECT_FALSE(f->atomic_batches);
}

// Database::count adds the Delta's and the WOS's entry counts: a key in both tiers counts twice and a
// delete's MVCC tombstone counts too. Session::Count counts the rows of Database::scan: exact.
TEST_F(RustAdapterTest, DbxCoreOwnCountIsInexactAndSessionCountIsExact) {
  auto adapter = Open("dbx-core");
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto s = NewSession(**adapter);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(s->Put(Key("k", i), "v1").ok());
  ASSERT_TRUE((*adapter)->Settle().ok());                                   // Delta -> WOS
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(s->Put(Key("k", i), "v2").ok());  // now in both tiers
  ASSERT_TRUE(s->Delete(Key("k", 9)).ok());
  uint64_t exact = 0, native = 0;
  ASSERT_TRUE(s->Count(&exact).ok());
  ASSERT_TRUE(RustNativeCount(adapter->get(), &native).ok());
  EXPECT_EQ(exact, 9u);
  EXPECT_NE(native, exact) << "dbx-core's Database::count became exact: update the adapter's notes";
  std::string v;
  ASSERT_TRUE(s->Get(Key("k", 1), &v).ok());
  EXPECT_EQ(v, "v2");
  EXPECT_TRUE(s->Get(Key("k", 9), &v).IsNotFound());
}

// insert_batch logs the batch as one WAL record but puts its rows into the Delta one by one (in parallel
// from 1,000 rows), so a reader can see part of a batch while Commit runs.
TEST_F(RustAdapterTest, DbxCoreBatchBecomesVisibleRowByRow) {
  auto adapter = Open("dbx-core", Durability::kNone);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto writer = NewSession(**adapter);
  auto reader = NewSession(**adapter);
  constexpr int kRows = 8000;
  std::atomic<bool> stop{false};
  std::atomic<int> partial{0};
  std::atomic<int> batch{-1};
  std::thread t([&] {
    while (!stop.load()) {
      const int b = batch.load();
      if (b < 0) continue;
      std::string v;
      const bool first = reader->Get(Key(("b" + std::to_string(b) + "-").c_str(), 0), &v).ok();
      const bool last = reader->Get(Key(("b" + std::to_string(b) + "-").c_str(), kRows - 1), &v).ok();
      if (first != last && batch.load() == b) partial.fetch_add(1);
    }
  });
  for (int b = 0; b < 40 && partial.load() == 0; ++b) {
    ASSERT_TRUE(writer->Begin().ok());
    for (int i = 0; i < kRows; ++i) ASSERT_TRUE(writer->Put(Key(("b" + std::to_string(b) + "-").c_str(), i), "v").ok());
    batch.store(b);
    ASSERT_TRUE(writer->Commit().ok());
  }
  stop.store(true);
  t.join();
  EXPECT_GT(partial.load(), 0) << "no reader saw part of a batch in 40 tries: is dbx-core's batch atomic now?";
}

TEST_F(RustAdapterTest, DbxCoreRefusesWhatItsScanWouldChange) {
  auto adapter = Open("dbx-core");
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto s = NewSession(**adapter);
  EXPECT_TRUE(s->Put("k", std::string("\x00\x02tomb", 6)).IsInvalidArgument());
  EXPECT_TRUE(s->Put("k", std::string("\x00\x01head", 6)).IsInvalidArgument());
  EXPECT_TRUE(s->Put("0123456789\xDB\x58", "v").IsInvalidArgument());
  ASSERT_TRUE(s->Begin().ok());
  ASSERT_TRUE(s->Put("fine", "v").ok());
  ASSERT_TRUE(s->Put("k", std::string("\x00\x02", 2)).ok());  // buffered: refused at Commit
  EXPECT_TRUE(s->Commit().IsInvalidArgument());
  std::string v;
  EXPECT_TRUE(s->Get("fine", &v).IsNotFound()) << "a refused batch applies nothing";
  ASSERT_TRUE(s->Put("k", std::string("\x00\x03ok", 4)).ok());
  ASSERT_TRUE(s->Put("short\xDB\x58", "v").ok());  // under 10 bytes: not read as a versioned key
}

// A file that is not the engine's where the engine keeps its own: an error naming the problem, no crash,
// and the file left as it was. Where the error comes depends on the engine: redb and sled check at open
// (sled itself takes a directory without its `conf` for a new database and writes over a `db` file in it,
// so the adapter refuses that case first);
// dbx-core opens a table's WOS file at the table's first use, and reads its main WAL until the first
// record it cannot read, taking garbage for a torn tail (so it opens over a foreign wal.log, and records
// appended after the garbage could never be replayed: a limitation of dbx-core shown here).
TEST_F(RustAdapterTest, ForeignOrDamagedFilesAreAnErrorNotACrash) {
  struct Case {
    const char* engine;
    const char* file;    // relative to the database directory
    bool fails_at_open;  // else: the first read fails (or, with first_read_ok, succeeds)
    bool first_read_ok;
  };
  const Case cases[] = {
      {"redb", "data.redb", true, false},          {"sled", "conf", true, false},        {"sled", "db", true, false},
      {"dbx-core", "wos/bench.wos", false, false}, {"dbx-core", "wal.log", false, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.engine) + " " + c.file);
    const fs::path db = dir_ / (std::string("foreign-") + c.engine + "-" + fs::path(c.file).filename().string());
    fs::create_directories((db / c.file).parent_path());
    std::string garbage(4096, '\0');
    for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 2654435761u) >> 13);
    { std::ofstream(db / c.file, std::ios::binary) << garbage; }
    auto adapter = Open(c.engine, Durability::kNormal, db.filename().c_str());
    if (c.fails_at_open) {
      ASSERT_FALSE(adapter.ok()) << c.engine << " opened a directory holding a foreign " << c.file;
      EXPECT_FALSE(adapter.status().message().empty());
      EXPECT_EQ(adapter.status().message().find('\n'), std::string::npos) << adapter.status().ToString();
    } else {
      ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
      auto s = NewSession(**adapter);
      std::string v;
      Status read = s->Get("k", &v);
      if (c.first_read_ok) {
        EXPECT_TRUE(read.IsNotFound()) << read.ToString();
      } else {
        EXPECT_TRUE(read.IsCorruption()) << read.ToString();
        EXPECT_NE(read.message().find("footer"), std::string::npos) << read.ToString();
      }
      s.reset();
      (void)(*adapter)->Close();  // dbx-core's flush at close: nothing to write
    }
    EXPECT_TRUE(ReadFile(db / c.file) == garbage) << c.file << " was changed";
  }
}

}  // namespace
}  // namespace dbxb
