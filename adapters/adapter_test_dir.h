// Test fixtures of one adapter's own tests: a fresh temporary directory per test, removed with all it
// holds afterwards, and (AdapterTest) one engine opened in it through the registry, closed after the test.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"

namespace dbxb {

/// The names of every engine this build registers, build variants included ("postgres@debian"), in
/// registration order, but "null" (it stores nothing) and the engines in `except` with their variants:
/// the engine list of a test that runs every engine, so that a new engine is tested without editing it. A
/// test that leaves an engine out says why beside its `except`.
inline std::vector<std::string> RegisteredEngines(std::initializer_list<std::string_view> except = {}) {
  std::vector<std::string> names;
  for (const AdapterFactory& f : BuiltinAdapters().factories())
    if (f.name != "null" && std::find(except.begin(), except.end(), OptionPrefix(f)) == except.end())
      names.push_back(f.name);
  return names;
}

/// `name` as GoogleTest takes it in a test's name (letters, digits, underscores): "dbx-core" is
/// "dbx_core", "postgres@debian" "postgres_debian".
inline std::string GTestName(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class TempDirTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dbxb-adapter-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    // Searchable by all (not readable): postgres's server runs as another account when the test is root.
    ASSERT_EQ(chmod(tmpl.c_str(), 0711), 0);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::filesystem::path dir_;
};

class AdapterTest : public TempDirTest {
 protected:
  /// Opens `engine` in dir_/db with `options` (their dir is replaced) into adapter_.
  void OpenAdapter(const char* engine, AdapterOptions options) {
    options.dir = (dir_ / "db").string();
    const AdapterFactory* factory = BuiltinAdapters().Find(engine);
    ASSERT_NE(factory, nullptr) << engine << " is not registered";
    auto adapter = factory->open(options);
    ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
    adapter_ = std::move(adapter).value();
  }
  void TearDown() override {
    if (adapter_ != nullptr) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
    adapter_.reset();
    TempDirTest::TearDown();
  }

  std::unique_ptr<Adapter> adapter_;
};

}  // namespace dbxb
