// The Debian variants (adapters/debian/debian_variants.h): registered beside their engines, running
// Debian's library and not the release, taking their engine's native options, and out of the default list.
#include "adapters/debian/debian_variants.h"

#include <gtest/gtest.h>

#include <string>

#include "adapters/adapter_test_dir.h"

namespace dbxb {
namespace {

const char* const kVariants[] = {"sqlite@debian", "lmdb@debian", "rocksdb@debian", "wiredtiger@debian"};

TEST(DebianVariants, TheModuleLoadedAndEveryVariantIsRegistered) {
  EXPECT_EQ(DebianVariantsProblem(), "");
  for (const char* name : kVariants) {
    const AdapterFactory* variant = BuiltinAdapters().Find(name);
    ASSERT_NE(variant, nullptr) << name;
    EXPECT_EQ(variant->name, std::string(variant->variant_of) + "@debian");
    EXPECT_NE(BuiltinAdapters().Find(variant->variant_of), nullptr) << name;
    EXPECT_FALSE(InDefaultEngines(*variant)) << name;
  }
}

// The calls of the module's adapters reach Debian's shared libraries, not the releases linked into the
// executable: the library reports its own version. (With an engine left out of DBXB_RELEASE_ENGINES
// both builds are Debian's and the versions agree, so the check needs the release.)
TEST(DebianVariants, EachRunsDebiansLibraryNotTheRelease) {
  for (const char* name : kVariants) {
    const AdapterFactory* variant = BuiltinAdapters().Find(name);
    ASSERT_NE(variant, nullptr) << name;
    const AdapterFactory* engine = BuiltinAdapters().Find(variant->variant_of);
    EXPECT_EQ(variant->library_source.rfind("Debian 12 package ", 0), 0u) << name << ": " << variant->library_source;
    EXPECT_NE(variant->library_build().find("debian-package"), std::string::npos) << name;
    if (engine->library_build().find("debian-package") == std::string::npos)
      EXPECT_NE(variant->library_version(), engine->library_version()) << name;
  }
  EXPECT_EQ(BuiltinAdapters().Find("sqlite@debian")->library_version(), "SQLite 3.40.1");
}

class DebianVariantOptions : public TempDirTest {};

// sqlite@debian applies sqlite.page_size, and reports it read back from Debian's SQLite.
TEST_F(DebianVariantOptions, AVariantTakesItsEnginesSettings) {
  AdapterOptions options;
  options.dir = (dir_ / "db").string();
  options.native_options = {{"sqlite.page_size", "8192"}};
  auto adapter = BuiltinAdapters().Find("sqlite@debian")->open(options);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  std::string page_size;
  for (const auto& [key, value] : (*adapter)->NativeSettings())
    if (key == "page_size") page_size = value;
  EXPECT_EQ(page_size, "8192");
  EXPECT_TRUE((*adapter)->Close().ok());
  options.native_options = {{"sqlite.no_such_setting", "1"}};
  EXPECT_TRUE(BuiltinAdapters().Find("sqlite@debian")->open(options).status().IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
