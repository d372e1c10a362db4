// The fixture of the adapter contract tests (conformance_test.cc, conformance_concurrency_test.cc): every
// registered engine, each at every durability it accepts (AdapterFactory::refused_durabilities), against
// real files in a fresh temporary directory. An engine joins by registering; what it must report is what
// its registration declares.
//
// The null adapter stores nothing, so it cannot pass a store-then-read contract and is not a case.
#ifndef DBXB_ADAPTERS_CONFORMANCE_FIXTURE_H_
#define DBXB_ADAPTERS_CONFORMANCE_FIXTURE_H_

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "adapters/adapter.h"
#include "adapters/adapter_test_dir.h"

namespace dbxb {

// Test names and failure messages show "none", not a byte dump. Found by ADL.
inline void PrintTo(Durability d, std::ostream* os) { *os << DurabilityName(d); }

namespace conformance {

// One case of the suite: a registered engine, or a variant of one opened with native options. What an
// engine is expected to report comes from its registration (AdapterFactory::durability, settle,
// allows_empty_key), so every registered engine is a case without a line here.
struct EngineCase {
  std::string name;
  /// Native options the engine is opened with, and the case's name when they make it a variant.
  std::vector<std::pair<std::string, std::string>> native_options = {};
  std::string label = {};
  /// Native settings the variant's options must show, at every level.
  Settings variant_settings = {};
};

// The variants: a native option that changes how an engine stores its rows, tested as a case of its own.
inline std::vector<EngineCase> Variants() {
  return {
      {"sqlite", {{"sqlite.layout", "rowid"}}, "sqlite_rowid", {{"layout", "rowid"}}},
      {"sqlite", {{"sqlite.layout", "without-rowid"}}, "sqlite_without_rowid", {{"layout", "without-rowid"}}},
  };
}

// Every (engine, durability) this build registers and the engine accepts, then the variants'. The null
// adapter stores nothing, so it is not a case.
inline std::vector<std::tuple<EngineCase, Durability>> RegisteredCases() {
  std::vector<EngineCase> engines;
  for (const AdapterFactory& factory : BuiltinAdapters().factories())
    if (factory.name != "null") engines.push_back({factory.name});
  for (EngineCase& variant : Variants())
    if (BuiltinAdapters().Find(variant.name) != nullptr) engines.push_back(std::move(variant));
  std::vector<std::tuple<EngineCase, Durability>> cases;
  for (const EngineCase& engine : engines) {
    const AdapterFactory& factory = *BuiltinAdapters().Find(engine.name);
    for (Durability d : {Durability::kNone, Durability::kNormal, Durability::kFull})
      if (RefusedDurability(factory, d) == nullptr) cases.emplace_back(engine, d);
  }
  return cases;
}

inline void PrintTo(const EngineCase& engine, std::ostream* os) {
  *os << (engine.label.empty() ? engine.name : engine.label);
}

// The case's name in test names: its label, or its engine's name with '-' as '_' (GoogleTest's names
// are letters, digits and underscores).
inline std::string CaseLabel(const EngineCase& engine) {
  return GTestName(engine.label.empty() ? engine.name : engine.label);
}

constexpr uint64_t kTestCacheBytes = 8ull << 20;
// Small enough that LMDB's map (2 x cache_bytes, at least 1 MiB) must grow several times under LargeLoad.
constexpr uint64_t kTinyCacheBytes = 64ull << 10;

using Row = std::pair<std::string, std::string>;
using Rows = std::vector<Row>;

// prefix + std::to_string(i), built by appending (GCC 12 warns falsely on operator+ here: -Wrestrict).
inline std::string Numbered(std::string_view prefix, int i) {
  std::string s(prefix);
  s += std::to_string(i);
  return s;
}

inline std::string ValueFor(const std::string& key, int version) {
  std::string v = "value(";
  v += key;
  v += ")#";
  v += std::to_string(version);
  return v;
}

inline std::string RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

class ConformanceTest : public testing::TestWithParam<std::tuple<EngineCase, Durability>> {
 protected:
  const EngineCase& engine() const { return std::get<0>(GetParam()); }
  Durability durability() const { return std::get<1>(GetParam()); }

  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-conformance-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    // Searchable by all (not readable): postgres's server runs as another account when the test is root.
    ASSERT_EQ(chmod(tmpl.c_str(), 0711), 0);
    dir_ = tmpl;
    factory_ = BuiltinAdapters().Find(engine().name);
    ASSERT_NE(factory_, nullptr) << engine().name << " is not registered";
    Open(kTestCacheBytes);
  }

  void TearDown() override {
    session_.reset();
    if (adapter_ != nullptr) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
    adapter_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  void Open(uint64_t cache_bytes) {
    AdapterOptions options;
    options.dir = (dir_ / "db").string();
    options.durability = durability();
    options.cache_bytes = cache_bytes;
    options.native_options = engine().native_options;
    auto adapter = factory_->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    adapter_ = std::move(adapter.value());
    session_ = NewSession();
  }

  void CloseAndReopen(uint64_t cache_bytes = kTestCacheBytes) {
    session_.reset();
    Status closed = adapter_->Close();
    ASSERT_TRUE(closed.ok()) << closed.ToString();
    adapter_.reset();
    Open(cache_bytes);
  }

  std::unique_ptr<Session> NewSession() {
    auto session = adapter_->NewSession();
    EXPECT_TRUE(session.ok()) << session.status().ToString();
    return session.ok() ? std::move(session.value()) : nullptr;
  }

  static void Put(Session* s, const std::string& key, const std::string& value) {
    Status st = s->Put(key, value);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }

  // The value of key, or "<NotFound>".
  static std::string Get(Session* s, const std::string& key) {
    std::string value = "<stale>";
    Status st = s->Get(key, &value);
    if (st.IsNotFound()) return "<NotFound>";
    EXPECT_TRUE(st.ok()) << st.ToString();
    return value;
  }

  static Rows Scan(Session* s, const std::string& start, uint64_t limit = 0) {
    Rows rows;
    Status st = s->Scan(start, limit, [&](std::string_view k, std::string_view v) {
      rows.emplace_back(std::string(k), std::string(v));
      return true;
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return rows;
  }

  static uint64_t Count(Session* s) {
    uint64_t n = ~uint64_t{0};
    Status st = s->Count(&n);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return n;
  }

  std::string NativeSetting(const std::string& key) {
    for (const auto& [k, v] : adapter_->NativeSettings())
      if (k == key) return v;
    return "<absent>";
  }

  std::filesystem::path dir_;
  const AdapterFactory* factory_ = nullptr;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
};

}  // namespace conformance
}  // namespace dbxb

#endif  // DBXB_ADAPTERS_CONFORMANCE_FIXTURE_H_
