#include "common/prng.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

namespace dbxb {
namespace {

// Known answers from an independent Python implementation (arbitrary-precision integers masked to
// 64 bits, written from the algorithms' descriptions, not from this header):
//
//   M = (1 << 64) - 1
//   def splitmix(state):
//       while True:
//           state = (state + 0x9E3779B97F4A7C15) & M
//           z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & M
//           z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
//           yield z ^ (z >> 31)
//   def rotl(x, k): return ((x << k) | (x >> (64 - k))) & M
//   def xoshiro(seed):
//       sm = splitmix(seed); s = [next(sm) for _ in range(4)]
//       while True:
//           r = (rotl((s[1] * 5) & M, 7) * 9) & M
//           t = (s[1] << 17) & M
//           s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45)
//           yield r
//   def below(g, n):
//       m = next(g) * n
//       if (m & M) < n:
//           t = (1 << 64) % n
//           while (m & M) < t: m = next(g) * n
//       return m >> 64
//   double: ((next(g) >> 11) * 2.0**-53).hex()

TEST(PrngTest, SplitMix64MatchesTheReference) {
  SplitMix64 sm(0);
  EXPECT_EQ(sm.Next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(sm.Next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(sm.Next(), 0x06c45d188009454full);
}

TEST(PrngTest, Xoshiro256MatchesTheReference) {
  Xoshiro256 rng(42);
  EXPECT_EQ(rng.Next(), 0x15780b2e0c2ec716ull);
  EXPECT_EQ(rng.Next(), 0x6104d9866d113a7eull);
  EXPECT_EQ(rng.Next(), 0xae17533239e499a1ull);
}

TEST(PrngTest, BelowMatchesTheReference) {
  Xoshiro256 by_ten(7);
  for (uint64_t e : {7, 2, 8, 9, 9, 8, 0, 1, 4, 1, 5, 7}) EXPECT_EQ(by_ten.Below(10), e);
  Xoshiro256 by_three(7);
  for (uint64_t e : {2, 0, 2, 2, 2, 2, 0, 0, 1, 0, 1, 2}) EXPECT_EQ(by_three.Below(3), e);
  // n = 2^63 + 1 rejects about half the draws (6 of the first 12 of seed 1): the rejection loop.
  Xoshiro256 big(1);
  for (uint64_t e : {0x429daacb239b2675ull, 0x497c4bab0415228aull, 0x32170e3de13351d3ull, 0x30caa6e623d8f44eull,
                     0x469e6dc61d52d8e8ull, 0x7a861ff8f3ebf453ull})
    EXPECT_EQ(big.Below((1ull << 63) + 1), e);
}

TEST(PrngTest, NextDoubleMatchesTheReference) {
  Xoshiro256 rng(42);
  EXPECT_EQ(rng.NextDouble(), 0x1.5780b2e0c2ec0p-4);
  EXPECT_EQ(rng.NextDouble(), 0x1.84136619b444ep-2);
  EXPECT_EQ(rng.NextDouble(), 0x1.5c2ea66473c93p-1);
}

TEST(PrngTest, BelowCoversTheRangeEvenly) {
  Xoshiro256 rng(1);
  std::vector<int> hits(7);
  for (int i = 0; i < 70000; ++i) {
    const uint64_t k = rng.Below(7);
    ASSERT_LT(k, 7u);
    ++hits[k];
  }
  for (int h : hits) EXPECT_NEAR(h, 10000, 500);  // about 5 standard deviations
  for (int i = 0; i < 1000; ++i) {
    const double u = rng.NextDouble();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  EXPECT_EQ(rng.Below(1), 0u);
}

}  // namespace
}  // namespace dbxb
