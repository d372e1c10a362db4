// Every engine's native calibration loop (adapters/native_loop.h) does the work of the harness's loop:
// it writes the data set, reads it back verified and scans it, and it notices a wrong value.
#include "adapters/native_loop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "adapters/adapter.h"

namespace dbxb {
namespace {

// Rows "key_%08d" -> "value_%08d_data", or with one value changed.
class Rows final : public ReferenceData {
 public:
  explicit Rows(uint64_t n, uint64_t changed = ~0ull) {
    for (uint64_t i = 0; i < n; ++i) {
      char k[16], v[24];
      std::snprintf(k, sizeof(k), "key_%08llu", static_cast<unsigned long long>(i));
      std::snprintf(v, sizeof(v), "value_%08llu_data", static_cast<unsigned long long>(i));
      keys_.emplace_back(k);
      values_.emplace_back(i == changed ? std::string("changed") : std::string(v));
    }
  }
  uint64_t size() const override { return keys_.size(); }
  uint64_t LowerBound(std::string_view) const override { return 0; }
  std::string_view key(uint64_t i) const override { return keys_[i]; }
  std::string_view value(uint64_t i) const override { return values_[i]; }

 private:
  std::vector<std::string> keys_, values_;
};

class NativeLoopTest : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-native-loop-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path dir_;
};

TEST_P(NativeLoopTest, WritesReadsBackAndScansTheDataSetAndCatchesAWrongValue) {
  AdapterOptions options;
  options.dir = (dir_ / "db").string();
  options.durability = Durability::kNone;
  options.cache_bytes = 8 << 20;
  options.row_bytes_hint = 31;
  auto adapter = BuiltinAdapters().Find(GetParam())->open(options);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  const Rows rows(3000);
  {
    auto loop = (*adapter)->NewNativeLoop();
    ASSERT_TRUE(loop.ok()) << loop.status().ToString();
    Status put = (*loop)->PutAll(rows);
    ASSERT_TRUE(put.ok()) << put.ToString();
    std::vector<uint64_t> order;
    for (uint64_t i = 0; i < rows.size(); ++i) order.push_back((i * 7919) % rows.size());
    Status got = (*loop)->GetAll(rows, order);
    EXPECT_TRUE(got.ok()) << got.ToString();
    EXPECT_TRUE((*loop)->GetAll(Rows(3000, 1234), order).IsCorruption());
    EXPECT_TRUE((*loop)->GetAll(Rows(3001), {3000}).IsCorruption()) << "a key that is not there";
    uint64_t n = 0, sum = 0, want_n = 0, want_sum = 0;
    ASSERT_TRUE((*loop)->ScanAll(&n, &sum).ok());
    for (uint64_t i = 0; i < rows.size(); ++i) AddScanRow(rows.key(i), rows.value(i), &want_n, &want_sum);
    EXPECT_EQ(n, want_n);
    EXPECT_EQ(sum, want_sum);
  }
  // What the native loop wrote is what a session reads.
  auto session = (*adapter)->NewSession();
  ASSERT_TRUE(session.ok());
  uint64_t count = 0;
  ASSERT_TRUE((*session)->Count(&count).ok());
  EXPECT_EQ(count, rows.size());
  session->reset();
  EXPECT_TRUE((*adapter)->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(AllEngines, NativeLoopTest, testing::Values("dbx", "sqlite", "lmdb", "rocksdb"),
                         [](const auto& info) { return std::string(info.param); });

TEST(NativeLoop, TheRegistryNamesExactlyTheEnginesWithOne) {
  const std::vector<std::string> with = {"dbx", "sqlite", "lmdb", "rocksdb"};
  for (const AdapterFactory& f : BuiltinAdapters().factories())
    EXPECT_EQ(f.native_loop, std::find(with.begin(), with.end(), OptionPrefix(f)) != with.end()) << f.name;
}

TEST(NativeLoop, TheNullEngineHasNone) {
  AdapterOptions options;
  auto adapter = BuiltinAdapters().Find("null")->open(options);
  ASSERT_TRUE(adapter.ok());
  EXPECT_TRUE((*adapter)->NewNativeLoop().status().IsNotSupported());
}

}  // namespace
}  // namespace dbxb
