// The null adapter answers as a perfect store would, and by position (no search) for keys that are
// views into its reference data, so that what it measures is the harness.
#include "adapters/null/null_adapter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace dbxb
