#include "workloads/dataset.h"

#include <gtest/gtest.h>

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

TEST(Dataset, LocateMapsItsOwnKeyViewsToTheirRowAndNothingElse) {
  auto d = Dataset::Make({1000, 16, 40});
  ASSERT_TRUE(d.ok());
  const Dataset& data = **d;
  uint64_t i = ~0ull;
  for (uint64_t row : {0u, 1u, 999u}) {
    ASSERT_TRUE(data.Locate(data.key(row), &i));
    EXPECT_EQ(i, row);
  }
  const std::string copy(data.key(7));
  EXPECT_FALSE(data.Locate(copy, &i));                   // equal bytes elsewhere: not a view
  EXPECT_FALSE(data.Locate(data.key(7).substr(1), &i));  // inside a key, not at its start
  EXPECT_FALSE(data.Locate(data.value(7).substr(0, 16), &i));
  EXPECT_FALSE(data.Locate("", &i));
}

TEST(Dataset, RejectsShapesThatCannotHoldUniqueKeys) {
  EXPECT_TRUE(Dataset::Make({0, 12, 19}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({10, 11, 19}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({10, 12, 18}).status().IsInvalidArgument());
  EXPECT_TRUE(Dataset::Make({100000001, 12, 19}).status().IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
