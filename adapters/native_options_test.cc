// AdapterOptions::native_options: checked by the registry for every engine, applied and read back by
// SQLite, LMDB and DBX (the engines that take any so far).
#include "adapters/native_options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/adapter_test_dir.h"

namespace dbxb {
namespace {

class NativeOptionsTest : public TempDirTest {
 protected:
  Result<std::unique_ptr<Adapter>> Open(const char* engine, std::vector<std::pair<std::string, std::string>> native,
                                        const char* sub = "db") {
    AdapterOptions options;
    std::filesystem::create_directories(dir_ / engine);  // some engines create only the last level
    options.dir = (dir_ / engine / sub).string();
    options.cache_bytes = 4ull << 20;
    options.native_options = std::move(native);
    return BuiltinAdapters().Find(engine)->open(options);
  }

  static std::string Setting(Adapter& adapter, const std::string& key) {
    for (const auto& [k, v] : adapter.NativeSettings())
      if (k == key) return v;
    return "<missing>";
  }
};

TEST_F(NativeOptionsTest, SqliteAppliesAndReportsItsSettings) {
  auto adapter = Open("sqlite", {{"sqlite.page_size", "8192"},
                                 {"sqlite.mmap_size", "268435456"},
                                 {"sqlite.temp_store", "memory"},
                                 {"sqlite.busy_timeout_ms", "5000"},
                                 {"lmdb.some_setting", "ignored: another engine's"}});
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  EXPECT_EQ(Setting(**adapter, "page_size"), "8192");
  EXPECT_EQ(Setting(**adapter, "mmap_size"), "268435456");
  EXPECT_EQ(Setting(**adapter, "temp_store"), "memory");
  EXPECT_EQ(Setting(**adapter, "busy_timeout_ms"), "5000");
  ASSERT_TRUE((*adapter)->Close().ok());
}

TEST_F(NativeOptionsTest, SqliteDefaultsAreUnchangedWithoutNativeOptions) {
  auto adapter = Open("sqlite", {});
  ASSERT_TRUE(adapter.ok());
  EXPECT_EQ(Setting(**adapter, "busy_timeout_ms"), "60000");
  EXPECT_EQ(Setting(**adapter, "temp_store"), "default");
  EXPECT_EQ(Setting(**adapter, "page_size"), "4096");
  ASSERT_TRUE((*adapter)->Close().ok());
}

TEST_F(NativeOptionsTest, SqliteRejectsBadValuesAndAPageSizeTheFileCannotHave) {
  EXPECT_TRUE(Open("sqlite", {{"sqlite.page_size", "1000"}}, "a").status().IsInvalidArgument());
  EXPECT_TRUE(Open("sqlite", {{"sqlite.page_size", "8k"}}, "b").status().IsInvalidArgument());
  EXPECT_TRUE(Open("sqlite", {{"sqlite.temp_store", "disk"}}, "c").status().IsInvalidArgument());
  EXPECT_TRUE(Open("sqlite", {{"sqlite.mmap_size", "-1"}}, "d").status().IsInvalidArgument());
  {
    auto created = Open("sqlite", {{"sqlite.page_size", "8192"}}, "e");
    ASSERT_TRUE(created.ok());
    ASSERT_TRUE((*created)->Close().ok());
  }
  auto reopened = Open("sqlite", {{"sqlite.page_size", "4096"}}, "e");
  EXPECT_TRUE(reopened.status().IsInvalidArgument()) << reopened.status().ToString();
}

// SQLite's guidance: WITHOUT ROWID for rows below about 1/20 of a page, an ordinary rowid table above.
TEST_F(NativeOptionsTest, SqliteLayoutFollowsTheRowSizeUnlessForced) {
  struct Case {
    uint64_t row_bytes;
    std::vector<std::pair<std::string, std::string>> native;
    const char* layout;
    const char* table_has;
  };
  const Case cases[] = {
      {31, {}, "without-rowid", "WITHOUT ROWID"},                               // dbx-micro: 12 + 19 bytes
      {203, {}, "without-rowid", "WITHOUT ROWID"},                              // just under 4096 / 20
      {204, {}, "rowid", "PRIMARY KEY NOT NULL"},                               // at the threshold
      {1047, {}, "rowid", "PRIMARY KEY NOT NULL"},                              // a YCSB record
      {0, {}, "rowid", "PRIMARY KEY NOT NULL"},                                 // unknown: SQLite's ordinary table
      {300, {{"sqlite.page_size", "8192"}}, "without-rowid", "WITHOUT ROWID"},  // 8192 / 20 = 409
      {1047, {{"sqlite.layout", "without-rowid"}}, "without-rowid", "WITHOUT ROWID"},
      {31, {{"sqlite.layout", "rowid"}}, "rowid", "PRIMARY KEY NOT NULL"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.row_bytes) + " bytes, case " + std::to_string(n));
    AdapterOptions options;
    options.dir = (dir_ / ("layout" + std::to_string(n++))).string();
    options.row_bytes_hint = c.row_bytes;
    options.native_options = c.native;
    auto adapter = BuiltinAdapters().Find("sqlite")->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "layout"), c.layout);
    EXPECT_NE(Setting(**adapter, "table").find(c.table_has), std::string::npos) << Setting(**adapter, "table");
    EXPECT_NE(Setting(**adapter, "layout_reason"), "<missing>");
    ASSERT_TRUE((*adapter)->Close().ok());
  }
}

TEST_F(NativeOptionsTest, SqliteLayoutIsFixedAtCreation) {
  EXPECT_TRUE(Open("sqlite", {{"sqlite.layout", "clustered"}}, "bad").status().IsInvalidArgument());
  {
    auto created = Open("sqlite", {{"sqlite.layout", "without-rowid"}}, "fixed");
    ASSERT_TRUE(created.ok());
    auto session = (*created)->NewSession();
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE((*session)->Put("k", "v").ok());
    session->reset();
    ASSERT_TRUE((*created)->Close().ok());
  }
  auto forced = Open("sqlite", {{"sqlite.layout", "rowid"}}, "fixed");
  EXPECT_TRUE(forced.status().IsInvalidArgument()) << forced.status().ToString();
  auto reopened = Open("sqlite", {}, "fixed");  // no hint (rowid for a new table): keeps the table's own
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ(Setting(**reopened, "layout"), "without-rowid");
  auto session = (*reopened)->NewSession();
  ASSERT_TRUE(session.ok());
  std::string value;
  ASSERT_TRUE((*session)->Get("k", &value).ok());
  EXPECT_EQ(value, "v");
  session->reset();
  ASSERT_TRUE((*reopened)->Close().ok());
}

TEST_F(NativeOptionsTest, LmdbReadaheadOffSetsNordahead) {
  {
    auto adapter = Open("lmdb", {{"lmdb.readahead", "off"}}, "off");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "readahead"), "off");
    EXPECT_NE(Setting(**adapter, "env_flags").find("MDB_NORDAHEAD"), std::string::npos);
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  for (auto native : {std::vector<std::pair<std::string, std::string>>{{"lmdb.readahead", "on"}},
                      std::vector<std::pair<std::string, std::string>>{}}) {
    auto adapter = Open("lmdb", native, native.empty() ? "default" : "on");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "readahead"), "on");
    EXPECT_EQ(Setting(**adapter, "env_flags").find("MDB_NORDAHEAD"), std::string::npos);
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  EXPECT_TRUE(Open("lmdb", {{"lmdb.readahead", "yes"}}, "bad").status().IsInvalidArgument());
}

// dbx.block_size reaches the engine (its settings are read back from the running DB); the default stays.
TEST_F(NativeOptionsTest, DbxBlockSizeSetsTheSegmentBlockSize) {
  {
    auto adapter = Open("dbx", {{"dbx.block_size", "8192"}}, "set");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "block_size"), "8192");
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  {
    auto adapter = Open("dbx", {}, "default");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "block_size"), "4096");  // the engine's default
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  for (const char* bad : {"8k", "", "511", "1048577", "-4096", "4096 "}) {
    auto adapter = Open("dbx", {{"dbx.block_size", bad}}, "bad");
    ASSERT_FALSE(adapter.ok()) << "'" << bad << "'";
    EXPECT_TRUE(adapter.status().IsInvalidArgument()) << adapter.status().ToString();
    EXPECT_NE(adapter.status().message().find("dbx.block_size"), std::string::npos) << adapter.status().ToString();
  }
}

TEST_F(NativeOptionsTest, DbxReleaseFreedMemoryIsOnUnlessTurnedOff) {
  for (const char* value : {"off", "on", ""}) {
    std::vector<std::pair<std::string, std::string>> native;
    if (*value != '\0') native.emplace_back("dbx.release_freed_memory", value);
    auto adapter = Open("dbx", native, *value != '\0' ? value : "default");
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    EXPECT_EQ(Setting(**adapter, "release_freed_memory"),
              std::string(value) == "off" ? "off" : "malloc_trim after each flush and compaction")
        << value;
    ASSERT_TRUE((*adapter)->Close().ok());
  }
  EXPECT_TRUE(Open("dbx", {{"dbx.release_freed_memory", "no"}}, "bad").status().IsInvalidArgument());
}

// Every engine that takes native options checks their values without opening anything, as its open()
// would: a run refuses a bad value before it starts.
TEST_F(NativeOptionsTest, CheckNativeValuesAgreesWithOpen) {
  const std::vector<std::tuple<const char*, const char*, const char*, bool>> cases = {
      {"dbx", "dbx.release_freed_memory", "off", true},
      {"dbx", "dbx.release_freed_memory", "1", false},
      {"sqlite", "sqlite.layout", "rowid", true},
      {"sqlite", "sqlite.page_size", "1000", false},
      {"lmdb", "lmdb.map_size", "1048576", true},
      {"lmdb", "lmdb.map_size", "1024", false},
      {"postgres", "postgres.start_timeout_s", "5", true},
      {"postgres", "postgres.start_timeout_s", "-1", false},
      {"dbx", "dbx.block_size", "8192", true},
      {"dbx", "dbx.block_size", "8k", false},
      {"rocksdb", "rocksdb.compression", "none", true},
      {"rocksdb", "rocksdb.compression", "snapy", false},
  };
  for (const auto& [engine, key, value, ok] : cases) {
    const AdapterFactory* f = BuiltinAdapters().Find(engine);
    ASSERT_NE(f, nullptr);
    ASSERT_TRUE(f->check_native_values) << engine;
    AdapterOptions options;
    options.native_options = {{key, value}};
    EXPECT_EQ(f->check_native_values(options).ok(), ok) << key << "=" << value;
  }
}

TEST_F(NativeOptionsTest, RegistryRejectsUnknownKeysOfTheEngineAndKeysWithoutPrefix) {
  for (const AdapterFactory& f : BuiltinAdapters().factories()) {
    SCOPED_TRACE(f.name);
    EXPECT_TRUE(Open(f.name.c_str(), {{OptionPrefix(f) + ".no_such_setting", "1"}}, "x").status().IsInvalidArgument());
    EXPECT_TRUE(Open(f.name.c_str(), {{"page_size", "8192"}}, "y").status().IsInvalidArgument());
    // Another engine's settings are ignored, so one list can serve every engine of a run.
    std::string other = f.name == "sqlite" ? "lmdb.page_size" : "sqlite.page_size";
    auto ok = Open(f.name.c_str(), {{other, "8192"}}, "z");
    ASSERT_TRUE(ok.ok()) << ok.status().ToString();
    ASSERT_TRUE((*ok)->Close().ok());
  }
}

TEST_F(NativeOptionsTest, CheckNativeOptionsAcceptsListedKeys) {
  AdapterFactory f;
  f.name = "eng";
  f.native_options = {{"eng.x", "anything", "none"}};
  AdapterOptions o;
  o.native_options = {{"eng.x", "1"}, {"other.y", "2"}};
  EXPECT_TRUE(CheckNativeOptions(f, o).ok());
  o.native_options = {{"eng.y", "1"}};
  EXPECT_TRUE(CheckNativeOptions(f, o).IsInvalidArgument());
  o.native_options = {{".x", "1"}};
  EXPECT_TRUE(CheckNativeOptions(f, o).IsInvalidArgument());
}

// The one parser of every adapter's numeric and on/off values: whole text only, bounds inclusive, the
// message names the key, the accepted range and the text, and a refused value leaves the output alone.
TEST(NativeOptionValues, NumbersAreWholeAndWithinTheirBounds) {
  int64_t v = 7;
  EXPECT_TRUE(ParseNativeNumber<int64_t>("e.n", "512", "an integer", 512, 65536, &v).ok());
  EXPECT_EQ(v, 512);
  EXPECT_TRUE(ParseNativeNumber<int64_t>("e.n", "65536", "an integer", 512, 65536, &v).ok());
  EXPECT_EQ(v, 65536);
  for (const char* bad : {"511", "65537", "", " 600", "600 ", "6e2", "-1", "0x200", "99999999999999999999"}) {
    Status st = ParseNativeNumber<int64_t>("e.n", bad, "an integer", 512, 65536, &v);
    EXPECT_TRUE(st.IsInvalidArgument()) << bad;
    EXPECT_EQ(st.message(), std::string("e.n: expected an integer in [512, 65536], got '") + bad + "'");
    EXPECT_EQ(v, 65536) << bad;
  }
  size_t bytes = 0;
  Status open_ended = ParseNativeNumber(std::string_view("e.map"), "1023", "a byte count", size_t{1024},
                                        std::numeric_limits<size_t>::max(), &bytes);
  EXPECT_EQ(open_ended.message(), "e.map: expected a byte count of at least 1024, got '1023'");
}

TEST(NativeOptionValues, SwitchesAreOnOrOff) {
  bool on = false;
  EXPECT_TRUE(ParseNativeSwitch("e.s", "on", &on).ok());
  EXPECT_TRUE(on);
  EXPECT_TRUE(ParseNativeSwitch("e.s", "off", &on).ok());
  EXPECT_FALSE(on);
  for (const char* bad : {"yes", "ON", "", "1", "off "}) {
    Status st = ParseNativeSwitch("e.s", bad, &on);
    EXPECT_EQ(st.message(), std::string("e.s: expected on or off, got '") + bad + "'");
  }
}

}  // namespace
}  // namespace dbxb
