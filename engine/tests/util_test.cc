// Unit tests of the encodings, checksums, hash, key comparison, bloom filter and compression.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "src/bloom.h"
#include "src/coding.h"
#include "src/compression.h"
#include "src/crc32c.h"
#include "src/hash.h"
#include "src/key_compare.h"
#include "src/random.h"

namespace dbx {
namespace {

TEST(Coding, VarintRoundTripAndTruncation) {
  std::string s;
  std::vector<uint64_t> values = {0, 1, 127, 128, 300, 1ull << 32, ~0ull};
  for (uint64_t v : values) PutVarint64(&s, v);
  std::string_view in = s;
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(in.empty());
  std::string t;
  PutVarint64(&t, 1ull << 40);
  std::string_view cut(t.data(), t.size() - 1);
  uint64_t v;
  EXPECT_FALSE(GetVarint64(&cut, &v));
}

TEST(Crc32c, KnownValues) {
  // Standard CRC-32C check value and the iSCSI test vector of 32 zero bytes.
  EXPECT_EQ(crc32c::Value("123456789", 9), 0xe3069283u);
  std::string zeros(32, '\0');
  EXPECT_EQ(crc32c::Value(zeros.data(), zeros.size()), 0x8a9136aau);
  std::string data = "hello world, this is a longer string to cross the 8-byte path";
  uint32_t whole = crc32c::Value(data.data(), data.size());
  uint32_t parts = crc32c::Extend(crc32c::Value(data.data(), 10), data.data() + 10, data.size() - 10);
  EXPECT_EQ(whole, parts);
  EXPECT_EQ(crc32c::Unmask(crc32c::Mask(whole)), whole);
  EXPECT_NE(crc32c::Mask(whole), whole);
}

TEST(Hash, DistinguishesShortKeys) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 100000; ++i) seen.insert(Hash64("key_" + std::to_string(i)));
  EXPECT_EQ(seen.size(), 100000u);
  EXPECT_NE(Hash64(""), Hash64(std::string(1, '\0')));
  EXPECT_EQ(Hash64("abc"), Hash64(std::string("abc")));
}

// The scan's equality of neighbouring keys (last 8 bytes first) agrees with KeyEqual: keys of every
// length from 0 to 20 over a two-letter alphabet, so that many pairs share all but one byte.
TEST(KeyCompare, NeighbourKeyEqualIsKeyEqual) {
  std::vector<std::string> keys;
  for (size_t len = 0; len <= 20; ++len) {
    for (size_t flip = 0; flip <= len; ++flip) {
      std::string k(len, 'a');
      if (flip < len) k[flip] = 'b';
      keys.push_back(k);
    }
  }
  size_t equal = 0;
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      ASSERT_EQ(NeighbourKeyEqual(a, b), KeyEqual(a, b)) << "'" << a << "' vs '" << b << "'";
      ASSERT_EQ(KeyEqual(a, b), a == b);
      equal += a == b;
    }
  }
  EXPECT_EQ(equal, keys.size());
}

TEST(Bloom, NoFalseNegativesAndFewFalsePositives) {
  BloomBuilder b(10);
  for (int i = 0; i < 10000; ++i) b.AddHash(Hash64("key" + std::to_string(i)));
  BloomFilter f(b.Finish());
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(f.MayContain(Hash64("key" + std::to_string(i))));
  int fp = 0;
  for (int i = 0; i < 10000; ++i) fp += f.MayContain(Hash64("other" + std::to_string(i)));
  EXPECT_LT(fp, 300);                                   // ~1% expected at 10 bits per key
  BloomFilter garbage(std::string("\x01\x00", 2));      // zero probes: not a filter
  EXPECT_TRUE(garbage.MayContain(1));                   // malformed filters match everything, never crash
  BloomFilter torn(std::string(100, '\xff') + "\x86");  // blocked, but not whole 64-byte blocks
  EXPECT_TRUE(torn.MayContain(1));
}

TEST(Bloom, SizedUpFrontMatchesKeptHashes) {
  BloomBuilder up_front(10, 50000), kept(10);
  for (int i = 0; i < 50000; ++i) {
    up_front.AddHash(Hash64("key" + std::to_string(i)));
    kept.AddHash(Hash64("key" + std::to_string(i)));
  }
  EXPECT_EQ(up_front.Finish(), kept.Finish());
  BloomFilter f(kept.Finish());
  int fp = 0;
  for (int i = 0; i < 50000; ++i) {
    ASSERT_TRUE(f.MayContain(Hash64("key" + std::to_string(i))));
    fp += f.MayContain(Hash64("other" + std::to_string(i)));
  }
  EXPECT_LT(fp, 1000);  // ~1.1% expected of a cache-line blocked filter at 10 bits per key
  EXPECT_GT(fp, 0);
}

// Segments written before the blocked encoding keep their filters: probes spread over the whole array.
TEST(Bloom, ReadsTheUnblockedEncoding) {
  const uint32_t bits = 8 * 1250;
  std::string legacy(bits / 8, '\0');
  auto set = [&](uint64_t h) {
    uint32_t h1 = static_cast<uint32_t>(h), h2 = static_cast<uint32_t>(h >> 32) | 1;
    for (int i = 0; i < 6; ++i) {
      uint32_t pos = static_cast<uint32_t>((static_cast<uint64_t>(h1 + i * h2) * bits) >> 32);
      legacy[pos / 8] = static_cast<char>(legacy[pos / 8] | (1 << (pos % 8)));
    }
  };
  for (int i = 0; i < 1000; ++i) set(Hash64("key" + std::to_string(i)));
  legacy.push_back(6);
  BloomFilter f(legacy);
  int fp = 0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(f.MayContain(Hash64("key" + std::to_string(i))));
    fp += f.MayContain(Hash64("other" + std::to_string(i)));
  }
  EXPECT_LT(fp, 50);
}

TEST(Compression, RoundTripAndRejectsGarbage) {
  std::string raw;
  for (int i = 0; i < 500; ++i) raw += "key_" + std::to_string(i) + "value_value_value";
  for (Compression c : {Compression::kLz4, Compression::kZstd}) {
    std::string stored;
    ASSERT_TRUE(CompressBlock(c, raw, &stored)) << CompressionName(c);
    EXPECT_LT(stored.size(), raw.size());
    std::string back;
    ASSERT_TRUE(UncompressBlock(c, stored, &back).ok());
    EXPECT_EQ(back, raw);
    std::string bad = stored;
    bad[bad.size() / 2] ^= 0x55;
    bad.resize(bad.size() - 3);
    Status s = UncompressBlock(c, bad, &back);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  }
  std::string incompressible;
  Random rnd(7);
  for (int i = 0; i < 4096; ++i) incompressible.push_back(static_cast<char>(rnd.Next()));
  std::string stored;
  EXPECT_FALSE(CompressBlock(Compression::kLz4, incompressible, &stored));
}

}  // namespace
}  // namespace dbx
