// The adapter contract (adapters/adapter.h) for one session: reads, writes, scans, counts, batches,
// reopening, odd keys and values, native settings. Every registered engine is a case (conformance_fixture.h).
#include <algorithm>
#include <string>
#include <vector>

#include "adapters/adapter_test_dir.h"
#include "adapters/conformance_fixture.h"

namespace dbxb {
namespace conformance {
namespace {

TEST_P(ConformanceTest, PutGetOverwriteDelete) {
  Session* s = session_.get();
  Put(s, "apple", "red");
  EXPECT_EQ(Get(s, "apple"), "red");
  Put(s, "apple", "green");
  EXPECT_EQ(Get(s, "apple"), "green");
  ASSERT_TRUE(s->Delete("apple").ok());
  EXPECT_EQ(Get(s, "apple"), "<NotFound>");
  EXPECT_TRUE(s->Delete("apple").ok()) << "deleting an absent key is OK";
  EXPECT_TRUE(s->Delete("never-written").ok());
}

TEST_P(ConformanceTest, GetOfAbsentKeyIsNotFound) {
  Session* s = session_.get();
  std::string value = "untouched";
  EXPECT_TRUE(s->Get("k", &value).IsNotFound());
  Put(s, "a", "1");
  Put(s, "c", "3");
  EXPECT_TRUE(s->Get("b", &value).IsNotFound());
  EXPECT_TRUE(s->Get("a\x01", &value).IsNotFound());
  EXPECT_TRUE(s->Get("cc", &value).IsNotFound());
}

TEST_P(ConformanceTest, ScanReturnsEveryRowInBytewiseOrder) {
  Session* s = session_.get();
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(Numbered("key", i * 7919 % 1000));
  // Bytes above 0x7f sort after ASCII (unsigned comparison); a prefix sorts before its extensions.
  for (const char* k : {"\x80", "\xff\xfe", "\x01", "key", "key1\x7f", "key1\x80"}) keys.emplace_back(k);
  std::shuffle(keys.begin(), keys.end(), std::mt19937(42));
  std::map<std::string, std::string> expected;
  for (const auto& k : keys) {
    Put(s, k, ValueFor(k, 1));
    expected[k] = ValueFor(k, 1);
  }
  EXPECT_EQ(Scan(s, ""), Rows(expected.begin(), expected.end()));
}

TEST_P(ConformanceTest, ScanStartsAtExactOrNextKey) {
  Session* s = session_.get();
  for (const char* k : {"k10", "k20", "k30"}) Put(s, k, std::string("v") + k);
  Rows from20 = {{"k20", "vk20"}, {"k30", "vk30"}};
  EXPECT_EQ(Scan(s, "k20"), from20) << "exact start";
  EXPECT_EQ(Scan(s, "k15"), from20) << "start between keys";
  EXPECT_EQ(Scan(s, std::string("k20\0", 4)), (Rows{{"k30", "vk30"}})) << "start just after a key";
  EXPECT_EQ(Scan(s, "k").size(), 3u);
  EXPECT_EQ(Scan(s, "").size(), 3u);
  EXPECT_TRUE(Scan(s, "k31").empty()) << "start after the last key";
  EXPECT_TRUE(Scan(s, std::string(600, 'z')).empty()) << "start longer than any key";
}

TEST_P(ConformanceTest, ScanLimit) {
  Session* s = session_.get();
  for (int i = 0; i < 10; ++i) Put(s, Numbered("k", i), "v");
  EXPECT_EQ(Scan(s, "", 3), (Rows{{"k0", "v"}, {"k1", "v"}, {"k2", "v"}}));
  EXPECT_EQ(Scan(s, "k5", 2), (Rows{{"k5", "v"}, {"k6", "v"}}));
  EXPECT_EQ(Scan(s, "", 0).size(), 10u) << "0 = no limit";
  EXPECT_EQ(Scan(s, "", 1000).size(), 10u);
  EXPECT_EQ(Scan(s, "k8", 5).size(), 2u);
}

TEST_P(ConformanceTest, ScanStopsWhenVisitorReturnsFalse) {
  Session* s = session_.get();
  for (int i = 0; i < 10; ++i) Put(s, Numbered("k", i), "v");
  std::vector<std::string> seen;
  Status st = s->Scan("k2", 0, [&](std::string_view k, std::string_view) {
    seen.emplace_back(k);
    return seen.size() < 3;
  });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"k2", "k3", "k4"}));
}

TEST_P(ConformanceTest, CountIsExact) {
  Session* s = session_.get();
  EXPECT_EQ(Count(s), 0u);
  for (int i = 0; i < 100; ++i) Put(s, Numbered("k", i), "v1");
  EXPECT_EQ(Count(s), 100u);
  for (int i = 0; i < 30; ++i) Put(s, Numbered("k", i), "v2");
  EXPECT_EQ(Count(s), 100u) << "overwrites do not add keys";
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(s->Delete(Numbered("k", i)).ok());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s->Delete(Numbered("absent", i)).ok());
  EXPECT_EQ(Count(s), 75u);
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 90; i < 110; ++i) Put(s, Numbered("k", i), "v3");  // 10 overwrites, 10 new
  ASSERT_TRUE(s->Delete("k50").ok());
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Count(s), 84u);
}

TEST_P(ConformanceTest, BatchIsVisibleToOthersOnlyAfterCommit) {
  Session* s = session_.get();
  std::unique_ptr<Session> other = NewSession();
  ASSERT_NE(other, nullptr);
  Put(s, "d1", "old");
  Put(s, "d2", "old");
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 0; i < 10; ++i) Put(s, Numbered("b", i), ValueFor("b", i));
  ASSERT_TRUE(s->Delete("d1").ok());
  Put(s, "d2", "new");
  EXPECT_EQ(Get(other.get(), "b0"), "<NotFound>");
  EXPECT_EQ(Get(other.get(), "d1"), "old");
  EXPECT_EQ(Get(other.get(), "d2"), "old");
  EXPECT_EQ(Count(other.get()), 2u);
  Status st = s->Commit();
  ASSERT_TRUE(st.ok()) << st.ToString();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(Get(other.get(), Numbered("b", i)), ValueFor("b", i));
  EXPECT_EQ(Get(other.get(), "d1"), "<NotFound>");
  EXPECT_EQ(Get(other.get(), "d2"), "new");
  EXPECT_EQ(Count(other.get()), 11u);
  EXPECT_EQ(Count(s), 11u);
}

TEST_P(ConformanceTest, AbortedBatchLeavesNoTrace) {
  Session* s = session_.get();
  std::unique_ptr<Session> other = NewSession();
  ASSERT_NE(other, nullptr);
  Put(s, "keep", "old");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "new", "x");
  Put(s, "keep", "changed");
  ASSERT_TRUE(s->Delete("keep").ok());
  ASSERT_TRUE(s->Abort().ok());
  for (Session* reader : {s, other.get()}) {
    EXPECT_EQ(Get(reader, "keep"), "old");
    EXPECT_EQ(Get(reader, "new"), "<NotFound>");
    EXPECT_EQ(Scan(reader, ""), (Rows{{"keep", "old"}}));
    EXPECT_EQ(Count(reader), 1u);
  }
  // The session is usable again, for single writes and for batches.
  Put(s, "after", "1");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "batched", "2");
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Get(other.get(), "after"), "1");
  EXPECT_EQ(Get(other.get(), "batched"), "2");
}

TEST_P(ConformanceTest, BatchMisuseIsInvalidArgument) {
  Session* s = session_.get();
  EXPECT_TRUE(s->Commit().IsInvalidArgument());
  EXPECT_TRUE(s->Abort().IsInvalidArgument());
  ASSERT_TRUE(s->Begin().ok());
  EXPECT_TRUE(s->Begin().IsInvalidArgument());
  EXPECT_TRUE(s->Abort().ok());
  EXPECT_TRUE(s->Abort().IsInvalidArgument());
}

TEST_P(ConformanceTest, DataSurvivesCloseAndReopen) {
  Session* s = session_.get();
  for (int i = 0; i < 50; ++i) Put(s, Numbered("single", i), ValueFor("single", i));
  ASSERT_TRUE(s->Begin().ok());
  for (int i = 0; i < 50; ++i) Put(s, Numbered("batch", i), ValueFor("batch", i));
  ASSERT_TRUE(s->Commit().ok());
  ASSERT_TRUE(s->Delete("single7").ok());
  Rows before = Scan(s, "");
  ASSERT_EQ(before.size(), 99u);

  ASSERT_NO_FATAL_FAILURE(CloseAndReopen());
  s = session_.get();
  EXPECT_EQ(Scan(s, ""), before);
  EXPECT_EQ(Count(s), 99u);
  EXPECT_EQ(Get(s, "batch49"), ValueFor("batch", 49));
  EXPECT_EQ(Get(s, "single7"), "<NotFound>");
  Put(s, "after-reopen", "yes");  // still writable
  EXPECT_EQ(Count(s), 100u);
}

TEST_P(ConformanceTest, NulBytesInKeysAndValues) {
  Session* s = session_.get();
  const std::string k1("a\0b", 3), k2("a\0", 2), k3("a", 1), k4("\0", 1), k5("a\0\0", 3);
  const std::string v("\0x\0y\0", 5);
  for (const std::string& k : {k1, k2, k3, k4, k5}) Put(s, k, v + k);
  for (const std::string& k : {k1, k2, k3, k4, k5}) EXPECT_EQ(Get(s, k), v + k);
  EXPECT_EQ(Get(s, std::string("a\0c", 3)), "<NotFound>");
  Rows expected = {{k4, v + k4}, {k3, v + k3}, {k2, v + k2}, {k5, v + k5}, {k1, v + k1}};
  EXPECT_EQ(Scan(s, ""), expected);
  EXPECT_EQ(Scan(s, k2).size(), 3u);
  ASSERT_TRUE(s->Delete(k2).ok());
  EXPECT_EQ(Get(s, k2), "<NotFound>");
  EXPECT_EQ(Get(s, k3), v + k3) << "deleting \"a\\0\" must not touch \"a\"";
  EXPECT_EQ(Count(s), 4u);
}

TEST_P(ConformanceTest, EmptyValues) {
  Session* s = session_.get();
  Put(s, "empty", "");
  Put(s, "full", "x");
  std::string value = "stale";
  ASSERT_TRUE(s->Get("empty", &value).ok());
  EXPECT_EQ(value, "");
  EXPECT_EQ(Scan(s, ""), (Rows{{"empty", ""}, {"full", "x"}}));
  EXPECT_EQ(Count(s), 2u);
  Put(s, "full", "");
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "batched-empty", "");
  ASSERT_TRUE(s->Commit().ok());
  EXPECT_EQ(Get(s, "full"), "");
  EXPECT_EQ(Get(s, "batched-empty"), "");
}

TEST_P(ConformanceTest, EmptyKeyIsStoredOrRejected) {
  Session* s = session_.get();
  Put(s, "a", "1");
  Status put = s->Put("", "empty-key");
  if (factory_->allows_empty_key) {
    ASSERT_TRUE(put.ok()) << put.ToString();
    EXPECT_EQ(Get(s, ""), "empty-key");
    EXPECT_EQ(Scan(s, ""), (Rows{{"", "empty-key"}, {"a", "1"}}));
    EXPECT_EQ(Count(s), 2u);
    ASSERT_TRUE(s->Delete("").ok());
  } else {
    EXPECT_TRUE(put.IsInvalidArgument()) << put.ToString();
    EXPECT_TRUE(s->Delete("").ok());
  }
  EXPECT_EQ(Get(s, ""), "<NotFound>");
  EXPECT_EQ(Count(s), 1u);
}

TEST_P(ConformanceTest, OneMebibyteValues) {
  Session* s = session_.get();
  const size_t kMiB = size_t{1} << 20;
  std::vector<std::string> values = {RandomBytes(kMiB, 1), RandomBytes(kMiB, 2), RandomBytes(kMiB + 7, 3)};
  Put(s, "big0", values[0]);
  ASSERT_TRUE(s->Begin().ok());
  Put(s, "big1", values[1]);
  Put(s, "big2", values[2]);
  ASSERT_TRUE(s->Commit().ok());
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(Get(s, Numbered("big", i)) == values[i]) << i;
  Rows rows = Scan(s, "");
  ASSERT_EQ(rows.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(rows[i].second == values[i]) << i;
  Put(s, "big0", values[2]);
  EXPECT_TRUE(Get(s, "big0") == values[2]);
}

TEST_P(ConformanceTest, ReportsNativeDurabilityMappingAndLibrary) {
  Settings settings = adapter_->NativeSettings();
  ASSERT_FALSE(settings.empty());
  std::vector<std::string> keys;
  for (const auto& [k, v] : settings) {
    EXPECT_FALSE(k.empty());
    EXPECT_FALSE(v.empty()) << k;
    EXPECT_EQ(v.find("error"), std::string::npos) << k << " = " << v;
    keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end()) << "a setting is reported twice";
  const DurabilityMapping& declared = factory_->durability[DurabilityIndex(durability())];
  EXPECT_FALSE(declared.meaning.empty()) << "the registration declares no durability " << DurabilityName(durability());
  EXPECT_FALSE(declared.settings.empty()) << "the registration names no setting that shows the durability";
  for (const auto& [key, want] : declared.settings) EXPECT_EQ(NativeSetting(key), want) << key;
  for (const auto& [key, want] : engine().variant_settings) EXPECT_EQ(NativeSetting(key), want) << key;
  EXPECT_EQ(NativeSetting("settle"), factory_->settle) << "the registration's settle is not what the engine reports";
  EXPECT_FALSE(factory_->library_version().empty());
  EXPECT_FALSE(factory_->library_build().empty());
  EXPECT_FALSE(factory_->description.empty());
}

std::string CaseName(const testing::TestParamInfo<std::tuple<EngineCase, Durability>>& info) {
  return CaseLabel(std::get<0>(info.param)) + "_" + std::string(DurabilityName(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(AllEngines, ConformanceTest, testing::ValuesIn(RegisteredCases()), CaseName);

// Every registered engine is a case; a variant names an engine that must exist.
TEST(ConformanceCases, EveryRegisteredEngineAndVariantIsACase) {
  const auto cases = RegisteredCases();
  auto has_case = [&](const std::string& label) {
    return std::any_of(cases.begin(), cases.end(), [&](const auto& c) { return CaseLabel(std::get<0>(c)) == label; });
  };
  for (const std::string& engine : RegisteredEnginesAndVariants()) {
    EXPECT_TRUE(has_case(TestName(engine))) << engine << " is registered but is not a case";
  }
  for (const EngineCase& variant : Variants()) {
    if (BuiltinAdapters().Find(variant.name) == nullptr) continue;
    EXPECT_TRUE(has_case(variant.label)) << variant.label;
  }
}

}  // namespace
}  // namespace conformance
}  // namespace dbxb
