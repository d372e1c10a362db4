#include "common/digits.h"

#include <gtest/gtest.h>

#include <string>

namespace dbxb {
namespace {

std::string Put(uint64_t v, size_t digits) {
  std::string s(digits, '?');
  PutDigits(v, digits, s.data());
  return s;
}

TEST(Digits, PutWritesZeroPaddedLastDigits) {
  EXPECT_EQ(Put(0, 8), "00000000");
  EXPECT_EQ(Put(42, 8), "00000042");
  EXPECT_EQ(Put(99999999, 8), "99999999");
  EXPECT_EQ(Put(1234567, 4), "4567");  // only the last `digits` digits
  std::string narrow(4, '?');
  PutDigits(uint32_t{905}, 4, narrow.data());
  EXPECT_EQ(narrow, "0905");
  EXPECT_EQ(Put(7, 1), "7");
}

TEST(Digits, ParseReadsWhatPutWrote) {
  for (uint64_t v : {0ull, 1ull, 9ull, 10ull, 12345678ull, 99999999ull}) {
    uint64_t got = 1;
    ASSERT_TRUE(ParseDigits(Put(v, 8).data(), 8, &got)) << v;
    EXPECT_EQ(got, v);
  }
}

TEST(Digits, ParseRefusesANonDigitAndLeavesTheOutput) {
  uint64_t got = 77;
  EXPECT_FALSE(ParseDigits("12a45678", 8, &got));
  EXPECT_FALSE(ParseDigits("1234567/", 8, &got));
  EXPECT_FALSE(ParseDigits(":2345678", 8, &got));
  EXPECT_EQ(got, 77u);
  EXPECT_TRUE(ParseDigits("12a4", 2, &got));  // only the first `digits` bytes are read
  EXPECT_EQ(got, 12u);
}

}  // namespace
}  // namespace dbxb
