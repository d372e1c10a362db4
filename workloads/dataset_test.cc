#include "workloads/dataset.h"

#include <gtest/gtest.h>

#include <string>

namespace dbxb {
namespace {

TEST(Dataset, KeysAndValuesFollowTheDbxPattern) {
  EXPECT_EQ(DatasetKey(42, 12), "key_00000042");
  EXPECT_EQ(DatasetValue(42, 19), "value_00000042_data");
  EXPECT_EQ(DatasetKey(7, 20), "key_00000007key_0000");  // padded with the same pattern
  EXPECT_EQ(DatasetValue(7, 25).size(), 25u);
  EXPECT_EQ(DatasetValue(7, 25).substr(19), "value_");
}

TEST(Dataset, RowsAreSortedAndLowerBoundFindsThem) {
  auto d = Dataset::Make({1000, 16, 40});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  const Dataset& data = **d;
  ASSERT_EQ(data.size(), 1000u);
  for (uint64_t i = 1; i < data.size(); ++i) ASSERT_LT(data.key(i - 1), data.key(i));
  for (uint64_t i : {0u, 1u, 500u, 999u}) {
    EXPECT_EQ(data.LowerBound(data.key(i)), i);
    EXPECT_EQ(data.value(i), DatasetValue(i, 40));
  }
  EXPECT_EQ(data.LowerBound(""), 0u);
  EXPECT_EQ(data.LowerBound("key_00000500z"), 501u);  // between two keys (row 500 is "key_00000500key_")
  EXPECT_EQ(data.LowerBound("zzz"), 1000u);
}

TEST(Dataset, LocateMapsExactlyTheDataSetsKeysToTheirRow) {
  for (uint64_t key_size : {12u, 16u, 24u, 25u, 40u}) {
    auto d = Dataset::Make({1000, key_size, 40});
    ASSERT_TRUE(d.ok());
    const Dataset& data = **d;
    uint64_t i = ~0ull;
    for (uint64_t row = 0; row < data.size(); ++row) {
      ASSERT_TRUE(data.Locate(data.key(row), &i)) << key_size << " " << row;
      ASSERT_EQ(i, row);
      const std::string copy(data.key(row));  // the same bytes elsewhere: the same row
      ASSERT_TRUE(data.Locate(copy, &i));
      ASSERT_EQ(i, row);
    }
    std::string k(data.key(7));
    for (size_t at = 0; at < k.size(); ++at) {  // any byte changed: not a key of this data set, or another row's
      for (unsigned char flip : {1, 0x10, 0x80}) {
        k[at] ^= flip;
        i = ~0ull;
        ASSERT_TRUE(!data.Locate(k, &i) || (i != 7 && data.key(i) == k)) << key_size << " byte " << at;
        k[at] ^= flip;
      }
    }
    EXPECT_FALSE(data.Locate(k.substr(1), &i));           // inside a key, not at its start
    EXPECT_FALSE(data.Locate(k + k[k.size() - 12], &i));  // one byte more of the pattern
    EXPECT_FALSE(data.Locate(data.value(7).substr(0, key_size), &i));
    EXPECT_FALSE(data.Locate(DatasetKey(1000, key_size), &i)) << "no row 1000";
    EXPECT_FALSE(data.Locate("", &i));
  }
}

// What the get loops pass to the store: key(i)'s bytes, built from i into a reused buffer.
TEST(Dataset, KeyIntoBuildsKeyIBytesIntoTheBuffer) {
  for (uint64_t key_size : {12u, 16u, 23u, 24u, 100u}) {
    auto d = Dataset::Make({20000, key_size, 19});
    ASSERT_TRUE(d.ok());
    const Dataset& data = **d;
    std::string buf = "left over from before, longer than any key here ............................................";
    for (uint64_t i : {0u, 1u, 9u, 10u, 9999u, 10000u, 12345u, 19999u}) {
      std::string_view k = data.KeyInto(i, &buf);
      ASSERT_EQ(k, data.key(i)) << key_size << " " << i;
      ASSERT_EQ(k.data(), buf.data()) << "built into the buffer, not a view of the stored key";
    }
    const ReferenceData& rows = data;  // through the interface, as the get loops call it
    for (uint64_t i = 0; i < data.size(); i += 7) ASSERT_EQ(rows.KeyInto(i, &buf), data.key(i));
  }
  EXPECT_EQ(DatasetKey(99999999, 12), "key_99999999");
  EXPECT_EQ(DatasetKey(12345678, 30), "key_12345678key_12345678key_12");
}

// The check every get makes (ReferenceData::ValueEquals), which rebuilds the value from the row number:
// it accepts exactly value(i), so a change of any byte, a length or another row's value is caught.
TEST(Dataset, ValueEqualsAcceptsExactlyTheRowsValue) {
  for (uint64_t value_size : {19u, 20u, 37u, 38u, 100u, 1000u}) {
    auto d = Dataset::Make({2000, 16, value_size});
    ASSERT_TRUE(d.ok());
    const Dataset& data = **d;
    for (uint64_t i = 0; i < data.size(); ++i)
      ASSERT_TRUE(data.ValueEquals(i, data.value(i))) << value_size << " " << i;
    for (uint64_t i : {0u, 7u, 1234u, 1999u}) {
      std::string v(data.value(i));
      for (size_t at = 0; at < v.size(); ++at) {
        for (unsigned char flip : {1, 0x10, 0x80}) {
          v[at] ^= flip;
          ASSERT_FALSE(data.ValueEquals(i, v)) << value_size << " row " << i << " byte " << at;
          v[at] ^= flip;
        }
      }
      EXPECT_FALSE(data.ValueEquals(i, v.substr(0, v.size() - 1)));
      EXPECT_FALSE(data.ValueEquals(i, v + v[v.size() - 19]));  // one more byte of the pattern
      EXPECT_FALSE(data.ValueEquals(i, ""));
      EXPECT_FALSE(data.ValueEquals(i, data.value(i == 0 ? 1 : i - 1)));
      EXPECT_FALSE(data.ValueEquals(i, data.value(i ^ 1024)));
    }
  }
  EXPECT_FALSE((*Dataset::Make({10, 12, 19}))->ValueEquals(10, DatasetValue(10, 19))) << "no row 10";
}

// Row numbers up to the largest data set's: all eight digits are compared.
TEST(Dataset, DatasetValueEqualsComparesEveryDigitOfTheRowNumber) {
  auto digits = [](uint64_t i) { return DatasetKey(i, 12).substr(4); };
  for (uint64_t i : {0u, 9u, 10u, 99999u, 1000000u, 10000000u, 12345678u, 99999999u}) {
    for (uint64_t size : {19u, 100u}) {
      EXPECT_TRUE(DatasetValueEquals(digits(i), size, DatasetValue(i, size))) << i;
      for (uint64_t other : {i + 1, i ^ 1, i + 10000000, i / 10}) {
        if (other != i && other < 100000000) {
          EXPECT_FALSE(DatasetValueEquals(digits(i), size, DatasetValue(other, size))) << i << " " << other;
        }
      }
    }
  }
  EXPECT_FALSE(DatasetValueEquals(digits(0), 19, "value_0000000O_data"));
  EXPECT_FALSE(DatasetValueEquals(digits(0), 20, DatasetValue(0, 19)));
  EXPECT_FALSE(DatasetValueEquals("0000000", 19, "value_0000000_data0"));
}

TEST(Dataset, RejectsShapesThatCannotHoldUniqueKeys) {
  EXPECT_TRUE(Dataset::Make({0, 12, 19}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({10, 11, 19}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({10, 12, 18}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({100000001, 12, 19}).status().IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
