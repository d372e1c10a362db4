#include "workloads/ycsb_suite.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "workloads/ycsb_records.h"

namespace dbxb {
namespace {

YcsbWorkload Parse(const std::string& text) {
  auto w = ParseYcsbWorkload(text, "test");
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  return w.ok() ? w.value() : YcsbWorkload{};
}

// --- keys and records ---

TEST(YcsbKey, HashedKeysAreYcsbs) {
  YcsbWorkload w;  // insertorder=hashed, zeropadding=1
  // Math.abs of FNV-1a 64 of the key number taken as a Java long (computed independently in Python).
  EXPECT_EQ(YcsbKey(0, w), "user6284781860667377211");
  EXPECT_EQ(YcsbKey(1, w), "user8517097267634966620");
  EXPECT_EQ(YcsbKey(2, w), "user1820151046732198393");
}

TEST(YcsbKey, OrderedKeysArePadded) {
  YcsbWorkload w;
  w.insert_order = YcsbWorkload::InsertOrder::kOrdered;
  EXPECT_EQ(YcsbKey(42, w), "user42");
  w.zero_padding = 6;
  EXPECT_EQ(YcsbKey(42, w), "user000042");
  EXPECT_EQ(YcsbKey(1234567, w), "user1234567") << "longer numbers are not cut";
  std::string reused = "a much longer previous key value";
  YcsbKey(7, w, &reused);
  EXPECT_EQ(reused, "user000007");
}

TEST(YcsbRecords, JavaStringHash) {
  EXPECT_EQ(JavaStringHash(""), 0);
  EXPECT_EQ(JavaStringHash("hello"), 99162322);  // "hello".hashCode() in Java
  EXPECT_EQ(JavaStringHash("user6284781860667377211:field0"), static_cast<int32_t>([] {
              uint32_t h = 0;
              for (char c : std::string("user6284781860667377211:field0")) h = h * 31 + static_cast<uint8_t>(c);
              return h;
            }()));
}

// The deterministic value, built the slow way: hash the whole text again each round.
std::string SlowDeterministic(const std::string& key, const std::string& field, size_t size) {
  std::string s = key + ":" + field;
  while (s.size() < size) {
    s += ":";
    s += std::to_string(JavaStringHash(s));
  }
  return s.substr(0, size);
}

TEST(YcsbRecords, DeterministicFieldMatchesTheDefinition) {
  for (size_t size : {1u, 10u, 28u, 100u, 1000u}) {
    std::string out = "prefix";
    AppendDeterministicField("user123", "field7", size, &out);
    EXPECT_EQ(out, "prefix" + SlowDeterministic("user123", "field7", size)) << size;
  }
}

TEST(YcsbRecords, ValuesRoundTripAndDamageIsCaught) {
  YcsbWorkload w;
  w.field_count = 4;
  w.field_length = 20;
  YcsbRecordCodec codec(w, 1);
  std::string v;
  codec.BuildValue("user1", &v);
  EXPECT_EQ(v.size(), 4 * (4 + 20u));
  EXPECT_TRUE(codec.Verify("user1", v).ok());
  for (char c : v.substr(4, 20)) EXPECT_TRUE(c >= ' ' && c <= '~');

  std::string updated;
  codec.UpdateValue("user1", v, 2, &updated);
  ASSERT_TRUE(codec.Verify("user1", updated).ok());
  EXPECT_EQ(updated.substr(0, 48), v.substr(0, 48)) << "fields 0 and 1 untouched";
  EXPECT_EQ(updated.substr(72), v.substr(72)) << "field 3 untouched";

  EXPECT_TRUE(codec.Verify("user1", v.substr(0, v.size() - 1)).IsCorruption());
  EXPECT_TRUE(codec.Verify("user1", v + "x").IsCorruption());
  EXPECT_TRUE(codec.Verify("user1", "").IsCorruption());
  std::string bad_length = v;
  bad_length[24] = 19;  // field 1 claims 19 bytes
  Status st = codec.Verify("user1", bad_length);
  EXPECT_TRUE(st.IsCorruption());
  EXPECT_NE(st.message().find("field1 has length 19"), std::string::npos) << st.ToString();
}

TEST(YcsbRecords, DataIntegrityChecksEveryByte) {
  YcsbWorkload w = Parse("recordcount=10\nfieldcount=3\nfieldlength=50\ndataintegrity=true\n");
  YcsbRecordCodec codec(w, 9);
  std::string v;
  codec.BuildValue("user5", &v);
  EXPECT_EQ(v.substr(4, 50), SlowDeterministic("user5", "field0", 50));
  EXPECT_TRUE(codec.Verify("user5", v).ok());
  EXPECT_TRUE(codec.Verify("user6", v).IsCorruption()) << "another key's record";
  v[100] ^= 1;
  EXPECT_TRUE(codec.Verify("user5", v).IsCorruption());
}

TEST(YcsbRecords, VariableFieldLengthsStayInRange) {
  YcsbWorkload w = Parse(
      "recordcount=10\nfieldcount=50\nfieldlength=30\nminfieldlength=5\n"
      "fieldlengthdistribution=uniform\n");
  YcsbRecordCodec codec(w, 3);
  std::set<size_t> sizes;
  for (int i = 0; i < 20; ++i) {
    std::string v;
    codec.BuildValue("k", &v);
    ASSERT_TRUE(codec.Verify("k", v).ok());
    sizes.insert(v.size());
  }
  EXPECT_GT(sizes.size(), 1u) << "lengths vary";
}

TEST(AcknowledgedCounter, LimitAdvancesOnlyOverContiguousAcknowledgements) {
  AcknowledgedCounter c(100);
  EXPECT_EQ(c.Next(), 100u);
  EXPECT_EQ(c.Next(), 101u);
  EXPECT_EQ(c.Next(), 102u);
  EXPECT_EQ(c.Limit(), 100u);
  c.Acknowledge(101);
  EXPECT_EQ(c.Limit(), 100u) << "100 is still in flight";
  c.Acknowledge(100);
  EXPECT_EQ(c.Limit(), 102u);
  c.Acknowledge(102);
  EXPECT_EQ(c.Limit(), 103u);
}

TEST(AcknowledgedCounter, ManyThreads) {
  AcknowledgedCounter c(0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) c.Acknowledge(c.Next());
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.Limit(), 40000u);
}

TEST(YcsbOverrides, RecordsAndOperations) {
  YcsbWorkload w = Parse("recordcount=1000\noperationcount=0\n");
  PhaseSuiteOptions o;
  auto r = ApplyYcsbOverrides(w, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("--operations or --duration"), std::string::npos) << r.status().ToString();
  o.records = 200;
  o.operations = 500;
  r = ApplyYcsbOverrides(w, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->record_count, 200u);
  EXPECT_EQ(r->insert_count, 200u) << "insertcount followed recordcount";
  EXPECT_EQ(r->operation_count, 500u);
  o.operations = 0;
  o.duration_seconds = 1;
  EXPECT_TRUE(ApplyYcsbOverrides(w, o).ok()) << "a duration bounds the run";

  YcsbWorkload part = Parse("recordcount=1000\ninsertstart=100\ninsertcount=800\n");
  o.records = 500;
  r = ApplyYcsbOverrides(part, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("exceed --records 500"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(YcsbWorkloadName("workloads/ycsb/workloada"), "workloada");
  EXPECT_EQ(YcsbWorkloadName("x/my.properties"), "my");
}

TEST(YcsbNull, InsertsNeedAnOperationCount) {
  YcsbWorkload w =
      Parse("recordcount=10\noperationcount=0\ninsertproportion=0.5\nreadproportion=0.5\nupdateproportion=0\n");
  PhaseSuiteOptions o;
  o.duration_seconds = 1;
  auto applied = ApplyYcsbOverrides(w, o);
  ASSERT_TRUE(applied.ok());
  auto seq = MakeYcsbSequence(applied.value(), "w", *BuiltinAdapters().Find("null"), o);
  EXPECT_FALSE(seq.ok());
}

}  // namespace
}  // namespace dbxb
