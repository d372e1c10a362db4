// The null adapter answers as a perfect store would, and by position (no search) for keys that are
// views into its reference data, so that what it measures is the harness.
#include "adapters/null/null_adapter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "adapters/null/null_faults.h"

namespace dbxb {
namespace {

// Sorted rows "k000".."k099"; counts the searches the adapter asks for.
class CountingReference final : public ReferenceData {
 public:
  CountingReference() {
    for (int i = 0; i < 100; ++i) {
      char key[8];
      std::snprintf(key, sizeof(key), "k%03d", i);
      keys_.emplace_back(key);
      values_.push_back("value" + std::to_string(i));
    }
  }
  uint64_t size() const override { return keys_.size(); }
  uint64_t LowerBound(std::string_view key) const override {
    ++searches;
    return static_cast<uint64_t>(std::lower_bound(keys_.begin(), keys_.end(), key) - keys_.begin());
  }
  std::string_view key(uint64_t i) const override { return keys_[i]; }
  std::string_view value(uint64_t i) const override { return values_[i]; }
  bool Locate(std::string_view key, uint64_t* index) const override {
    for (uint64_t i = 0; i < keys_.size(); ++i)
      if (key.data() == keys_[i].data() && key.size() == keys_[i].size()) {
        *index = i;
        return true;
      }
    return false;
  }
  mutable int searches = 0;

 private:
  std::vector<std::string> keys_, values_;
};

class NullAdapterTest : public testing::Test {
 protected:
  void SetUp() override {
    AdapterOptions options;
    options.reference = ref_;
    auto adapter = NullAdapterFactory().open(options);
    ASSERT_TRUE(adapter.ok());
    adapter_ = std::move(adapter.value());
    auto session = adapter_->NewSession();
    ASSERT_TRUE(session.ok());
    session_ = std::move(session.value());
  }
  std::shared_ptr<CountingReference> ref_ = std::make_shared<CountingReference>();
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
};

TEST_F(NullAdapterTest, AKeyViewIntoTheReferenceIsAnsweredByPositionWithoutASearch) {
  std::string value;
  for (uint64_t i : {0u, 42u, 99u}) {
    ASSERT_TRUE(session_->Get(ref_->key(i), &value).ok());
    EXPECT_EQ(value, ref_->value(i));
  }
  EXPECT_EQ(ref_->searches, 0);
}

TEST_F(NullAdapterTest, OtherKeysAreSearchedAndAbsentOnesAreNotFound) {
  std::string value;
  ASSERT_TRUE(session_->Get(std::string("k042"), &value).ok());
  EXPECT_EQ(value, "value42");
  EXPECT_TRUE(session_->Get("k0425", &value).IsNotFound());
  EXPECT_TRUE(session_->Get("zzz", &value).IsNotFound());
  EXPECT_EQ(ref_->searches, 3);
}

TEST_F(NullAdapterTest, ScanStartsAtThePositionOfAReferenceKeyOrItsLowerBound) {
  std::vector<std::string> seen;
  auto collect = [&](std::string_view k, std::string_view) {
    seen.emplace_back(k);
    return true;
  };
  ASSERT_TRUE(session_->Scan(ref_->key(97), 0, collect).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"k097", "k098", "k099"}));
  EXPECT_EQ(ref_->searches, 0);
  seen.clear();
  ASSERT_TRUE(session_->Scan("k0975", 2, collect).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"k098", "k099"}));
  uint64_t n = 0;
  ASSERT_TRUE(session_->Count(&n).ok());
  EXPECT_EQ(n, 100u);
}

// The test-only faults (null_faults.h): parsed strictly, reported in the native settings, and the syncs
// really reach a file in the database directory.
TEST(NullFaultsTest, ParsedStrictlyAndReported) {
  auto faults = [](std::vector<std::pair<std::string, std::string>> given, NullFaults* out) {
    AdapterOptions options;
    options.native_options = std::move(given);
    return NullFaults::Parse(options, out);
  };
  NullFaults f;
  ASSERT_TRUE(faults({{"null.spin", "20"},
                      {"null.stall", "1000/50"},
                      {"null.pause", "30000000/200000000"},
                      {"null.syncs_per_commit", "2"},
                      {"sqlite.page_size", "x"}},
                     &f)
                  .ok());
  EXPECT_EQ(f.spin, 20u);
  EXPECT_EQ(f.stall_ns, 1000u);
  EXPECT_EQ(f.stall_every, 50u);
  EXPECT_EQ(f.pause_ns, 30000000u);
  EXPECT_EQ(f.pause_period_ns, 200000000u);
  EXPECT_EQ(f.syncs_per_commit, 2u);
  const Settings described = f.Describe();
  ASSERT_EQ(described.size(), 4u);
  EXPECT_EQ(described[1], (std::pair<std::string, std::string>{"test_fault_stall", "1000 ns every 50 operations"}));
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{{"null.spin", "fast"},
                                                                          {"null.spin", "-1"},
                                                                          {"null.stall", "1000"},
                                                                          {"null.stall", "1000/0"},
                                                                          {"null.pause", "/5"},
                                                                          {"null.syncs_per_commit", "1001"}}) {
    const Status st = faults({bad}, &f);
    EXPECT_TRUE(st.IsInvalidArgument()) << bad.first << "=" << bad.second;
    EXPECT_EQ(st.message().rfind(bad.first, 0), 0u) << st.message();
  }
  ASSERT_TRUE(faults({}, &f).ok());
  EXPECT_FALSE(f.any());
  EXPECT_TRUE(f.Describe().empty());
}

TEST(NullFaultsTest, SyncsPerCommitWriteAndSyncAFileInTheDatabaseDirectory) {
  const std::string dir = testing::TempDir() + "/dbxb-null-faults";
  std::filesystem::create_directories(dir);
  AdapterOptions options;
  options.dir = dir;
  options.native_options = {{"null.syncs_per_commit", "3"}};
  auto adapter = NullAdapterFactory().open(options);
  ASSERT_TRUE(adapter.ok()) << adapter.status().ToString();
  auto session = adapter.value()->NewSession();
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE(session.value()->Begin().ok());
  ASSERT_TRUE(session.value()->Put("k", "v").ok());
  ASSERT_TRUE(session.value()->Commit().ok());
  EXPECT_TRUE(std::filesystem::exists(dir + "/null-test-fault.sync"));
  bool reported = false;
  for (const auto& [key, value] : adapter.value()->NativeSettings())
    reported |= key == "test_fault_syncs_per_commit" && value == "3";
  EXPECT_TRUE(reported);
  session.value().reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dbxb
