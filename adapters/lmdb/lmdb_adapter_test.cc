// The LMDB adapter's map: sized once to the filesystem (or to lmdb.map_size), a file that grows with the
// data only, and MDB_MAP_FULL as a clear error that loses nothing committed.
#include "adapters/lmdb/lmdb_adapter.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "adapters/adapter_test_dir.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

class LmdbAdapterTest : public TempDirTest {
 protected:
  Result<std::unique_ptr<Adapter>> Open(std::vector<std::pair<std::string, std::string>> native,
                                        const char* sub = "db") {
    AdapterOptions options;
    options.dir = (dir_ / sub).string();
    options.cache_bytes = 64ull << 10;  // LMDB does not use it: the map must not depend on it
    options.native_options = std::move(native);
    return LmdbAdapterFactory().open(options);
  }

  static std::string Setting(Adapter& adapter, const std::string& key) {
    for (const auto& [k, v] : adapter.NativeSettings())
      if (k == key) return v;
    return "<missing>";
  }

  static std::string Key(int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "row%08d", i);
    return buf;
  }
};

TEST_F(LmdbAdapterTest, MapIsTheFilesystemsSizeAndTheFileGrowsWithTheDataOnly) {
  auto adapter = Open({});
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  struct statvfs st;
  ASSERT_EQ(statvfs((dir_ / "db").c_str(), &st), 0);
  const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t fs_bytes = uint64_t{st.f_blocks} * st.f_frsize / page * page;
  const uint64_t map = std::stoull(Setting(**adapter, "map_size_bytes"));
  const std::string sizing = Setting(**adapter, "map_sizing");
  EXPECT_NE(sizing.find("filesystem"), std::string::npos) << sizing;
  if (sizing.find("halved") == std::string::npos) {
    EXPECT_EQ(map, fs_bytes);
  } else {  // a sanitizer build or a ulimit -v: smaller, never larger
    EXPECT_LT(map, fs_bytes);
    EXPECT_GE(map, uint64_t{1} << 20);
  }

  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  Session& s = **session;
  constexpr int kRows = 20'000;
  for (int i = 0; i < kRows; i += 1000) {
    ASSERT_TRUE(s.Begin().ok());
    for (int j = i; j < i + 1000; ++j) ASSERT_TRUE(s.Put(Key(j), std::string(100, 'v')).ok());
    ASSERT_TRUE(s.Commit().ok());
  }
  EXPECT_EQ(std::stoull(Setting(**adapter, "map_size_bytes")), map) << "the map is never resized";
  session->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
  // About 3 MB of B-tree pages; a file extended to the map (MDB_WRITEMAP) would be the map's size.
  const uintmax_t file = fs::file_size(dir_ / "db" / "data.mdb");
  EXPECT_LT(file, uintmax_t{64} << 20);
  EXPECT_LT(file, map);
}

// Bytes of address space the process has mapped (VmSize).
uint64_t MappedBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) << 10;  // in kB
  return 0;
}

// With less address space left than the filesystem's size (here a ulimit of 2 GiB above what the
// process maps already), the map is halved until it fits and once more, and the database works.
TEST_F(LmdbAdapterTest, MapShrinksToFitTheAddressSpace) {
  const uint64_t mapped = MappedBytes();
  ASSERT_GT(mapped, 0u);
  constexpr uint64_t kRoom = uint64_t{2} << 30;
  struct rlimit saved;
  ASSERT_EQ(getrlimit(RLIMIT_AS, &saved), 0);
  if (saved.rlim_cur != RLIM_INFINITY && saved.rlim_cur < mapped + kRoom) GTEST_SKIP() << "a lower ulimit -v is set";
  struct rlimit limited = saved;
  limited.rlim_cur = mapped + kRoom;
  ASSERT_EQ(setrlimit(RLIMIT_AS, &limited), 0);
  auto adapter = Open({});
  ASSERT_EQ(setrlimit(RLIMIT_AS, &saved), 0);  // before any assertion can return
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  const uint64_t map = std::stoull(Setting(**adapter, "map_size_bytes"));
  EXPECT_LE(map, kRoom / 2);
  EXPECT_GE(map, kRoom / 8);
  EXPECT_NE(Setting(**adapter, "map_sizing").find("halved"), std::string::npos) << Setting(**adapter, "map_sizing");
  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*session)->Put("k", "v").ok());
  std::string value;
  ASSERT_TRUE((*session)->Get("k", &value).ok());
  EXPECT_EQ(value, "v");
  session->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
}

TEST_F(LmdbAdapterTest, MapSizeOptionSetsTheMapAndRejectsBadValues) {
  {
    auto adapter = Open({{"lmdb.map_size", "8388608"}}, "ok");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "map_size_bytes"), "8388608");
    EXPECT_EQ(Setting(**adapter, "map_sizing").rfind("lmdb.map_size", 0), 0u) << Setting(**adapter, "map_sizing");
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  {
    auto adapter = Open({{"lmdb.map_size", "8MiB"}}, "units");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "map_size_bytes"), "8388608");
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  // 1 PiB: more than x86-64's 128 TiB of user address space, known before anything is opened.
  for (const char* bad : {"", "abc", "8XB", "-1", "1048575", "99999999999999999999999", "1PiB", "1125899906842624"}) {
    auto adapter = Open({{"lmdb.map_size", bad}}, "bad");
    ASSERT_FALSE(adapter.ok()) << bad;
    EXPECT_TRUE(adapter.status().IsInvalidArgument()) << bad << ": " << adapter.status().ToString();
    EXPECT_NE(adapter.status().message().find("lmdb.map_size"), std::string::npos) << adapter.status().ToString();
  }
}

// A full map fails the write that found it full, with a message naming MDB_MAP_FULL and the map's size;
// a batch fails as a whole; everything committed before stays, and a write that fits still succeeds.
TEST_F(LmdbAdapterTest, MapFullIsAClearErrorAndLosesNothingCommitted) {
  auto adapter = Open({{"lmdb.map_size", "1048576"}});
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  Session& s = **session;
  constexpr int kCommitted = 50;
  for (int i = 0; i < kCommitted; ++i) ASSERT_TRUE(s.Put(Key(i), "committed").ok());

  Status single = s.Put("huge", std::string(2 << 20, 'h'));
  ASSERT_FALSE(single.ok());
  EXPECT_TRUE(single.IsIOError()) << single.ToString();
  EXPECT_NE(single.message().find("MDB_MAP_FULL"), std::string::npos) << single.ToString();
  EXPECT_NE(single.message().find("1048576 bytes"), std::string::npos) << single.ToString();

  ASSERT_TRUE(s.Begin().ok());
  Status first_failure;
  int i = kCommitted;
  for (; i < kCommitted + 2000 && first_failure.ok(); ++i) first_failure = s.Put(Key(i), std::string(3000, 'b'));
  ASSERT_FALSE(first_failure.ok()) << "2000 values of 3 KB fit into a 1 MiB map";
  EXPECT_NE(first_failure.message().find("MDB_MAP_FULL"), std::string::npos) << first_failure.ToString();
  EXPECT_FALSE(s.Put(Key(i), "after the failure").ok()) << "the failed batch takes no more writes";
  Status commit = s.Commit();
  EXPECT_EQ(commit.ToString(), first_failure.ToString());

  uint64_t count = 0;
  ASSERT_TRUE(s.Count(&count).ok());
  EXPECT_EQ(count, uint64_t{kCommitted});
  std::string value;
  ASSERT_TRUE(s.Get(Key(kCommitted - 1), &value).ok());
  EXPECT_EQ(value, "committed");
  EXPECT_TRUE(s.Get(Key(kCommitted), &value).IsNotFound());
  EXPECT_TRUE(s.Get("huge", &value).IsNotFound());
  ASSERT_TRUE(s.Put("small", "fits").ok());
  session->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
}

// Get copies the value out of the map into the caller's string, in place when the string already holds
// as many bytes: every size after every other must come back exactly, with nothing of the previous
// value left, and each Get must see the latest commit, also the one another session made.
TEST_F(LmdbAdapterTest, GetReturnsExactlyTheLatestValueIntoAReusedString) {
  auto adapter = Open({{"lmdb.map_size", std::to_string(64 << 20)}});
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto reader = (*adapter)->NewSession();
  auto writer = (*adapter)->NewSession();
  ASSERT_TRUE(reader.ok() && writer.ok());
  const std::vector<size_t> sizes = {19, 19, 5, 0, 100, 19, 1, 4000, 4000, 18, 20};
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string v(sizes[i], static_cast<char>('a' + i));
    if (!v.empty()) v.back() = '!';
    ASSERT_TRUE((*writer)->Put(Key(static_cast<int>(i)), v).ok());
  }
  std::string value = "a previous value of 20";
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      std::string want(sizes[i], static_cast<char>('a' + i));
      if (!want.empty()) want.back() = '!';
      ASSERT_TRUE((*reader)->Get(Key(static_cast<int>(i)), &value).ok()) << i;
      EXPECT_EQ(value, want) << "row " << i << " after a value of " << (i == 0 ? 0 : sizes[i - 1]) << " bytes";
    }
  }
  // The reader's next Get sees the writer's overwrite (same size: the in-place copy) and delete.
  ASSERT_TRUE((*reader)->Get(Key(0), &value).ok());
  ASSERT_TRUE((*writer)->Put(Key(0), std::string(19, 'z')).ok());
  ASSERT_TRUE((*reader)->Get(Key(0), &value).ok());
  EXPECT_EQ(value, std::string(19, 'z'));
  ASSERT_TRUE((*writer)->Delete(Key(0)).ok());
  EXPECT_TRUE((*reader)->Get(Key(0), &value).IsNotFound());
  EXPECT_TRUE((*reader)->Get("", &value).IsNotFound());
  EXPECT_TRUE((*reader)->Get(std::string(600, 'k'), &value).IsNotFound());
  // Inside a batch, on the batch's transaction.
  ASSERT_TRUE((*reader)->Begin().ok());
  ASSERT_TRUE((*reader)->Put(Key(1), "in the batch").ok());
  ASSERT_TRUE((*reader)->Get(Key(1), &value).ok());
  EXPECT_EQ(value, "in the batch");
  ASSERT_TRUE((*reader)->Commit().ok());
  reader->reset();
  writer->reset();
  ASSERT_TRUE((*adapter)->Close().ok());
}

}  // namespace
}  // namespace dbxb
