#include "workloads/distributions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace dbxb {
namespace {

constexpr uint64_t kItems = 1000;
constexpr uint64_t kSamples = 1'000'000;

std::vector<uint64_t> Histogram(KeyChooser& c, uint64_t samples) {
  std::vector<uint64_t> counts(c.item_count(), 0);
  for (uint64_t i = 0; i < samples; ++i) {
    const uint64_t k = c.Next();
    if (k >= counts.size()) {
      ADD_FAILURE() << c.name() << " returned " << k << " for " << counts.size() << " items";
      break;
    }
    ++counts[k];
  }
  return counts;
}

// |observed - expected| within 5 binomial standard deviations.
void ExpectBinomial(uint64_t observed, double p, uint64_t n, const std::string& what) {
  const double mean = p * static_cast<double>(n);
  const double sigma = std::sqrt(static_cast<double>(n) * p * (1 - p));
  EXPECT_LE(std::fabs(static_cast<double>(observed) - mean), 5 * sigma + 1e-9)
      << what << ": observed " << observed << ", expected " << mean << " +- " << sigma;
}

// Pearson's chi-square against `probs`, checked to lie within 5 standard deviations of its mean
// (df = cells - 1, variance 2 df).
void ExpectChiSquareFits(const std::vector<uint64_t>& counts, const std::vector<double>& probs, uint64_t n) {
  double chi2 = 0;
  size_t cells = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const double expected = probs[i] * static_cast<double>(n);
    if (expected == 0) {
      EXPECT_EQ(counts[i], 0u) << "cell " << i << " has probability 0";
      continue;
    }
    const double d = static_cast<double>(counts[i]) - expected;
    chi2 += d * d / expected;
    ++cells;
  }
  const double df = static_cast<double>(cells - 1);
  EXPECT_LT(std::fabs(chi2 - df), 5 * std::sqrt(2 * df)) << "chi-square " << chi2 << " with " << df << " df";
}

std::unique_ptr<KeyChooser> Make(std::string_view name, uint64_t items = kItems, uint64_t seed = 1) {
  KeyChooserOptions o;
  o.item_count = items;
  o.seed = seed;
  auto r = MakeKeyChooser(name, o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r).value();
}

TEST(KeyChooserTest, SequentialCountsAndWraps) {
  auto c = Make("sequential", 5);
  std::vector<uint64_t> got;
  for (int i = 0; i < 12; ++i) got.push_back(c->Next());
  EXPECT_EQ(got, (std::vector<uint64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}));
  c->SetItemCount(7);  // growth continues the count
  got.clear();
  for (int i = 0; i < 8; ++i) got.push_back(c->Next());
  EXPECT_EQ(got, (std::vector<uint64_t>{2, 3, 4, 5, 6, 0, 1, 2}));
}

TEST(KeyChooserTest, UniformPassesChiSquare) {
  auto c = Make("uniform");
  const auto counts = Histogram(*c, kSamples);
  ExpectChiSquareFits(counts, std::vector<double>(kItems, 1.0 / kItems), kSamples);
}

TEST(KeyChooserTest, UniformOverAHugeRangeStaysInRangeAndUnbiased) {
  const uint64_t n = 3ull << 62;  // beyond 2^63: exercises the full 128-bit product
  auto c = Make("uniform", n);
  uint64_t upper_third = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t k = c->Next();
    ASSERT_LT(k, n);
    upper_third += k >= (1ull << 63);
  }
  ExpectBinomial(upper_third, 1.0 / 3, 100000, "draws in [2^63, 3 * 2^62)");
}

TEST(KeyChooserTest, ZipfianRankFrequenciesMatchTheGenerator) {
  auto c = Make("zipfian");
  const auto counts = Histogram(*c, kSamples);
  ZipfianRanks z(kItems);
  std::vector<double> probs(kItems);
  for (uint64_t r = 0; r < kItems; ++r) probs[r] = z.RankProbability(r);
  for (uint64_t r = 0; r < 50; ++r) ExpectBinomial(counts[r], probs[r], kSamples, "rank " + std::to_string(r));
  ExpectChiSquareFits(counts, probs, kSamples);
  // The two hottest ranks follow the zipfian law 1 / (i^theta zeta(n)) exactly.
  const double zeta = Zeta(kItems, 0.99);
  ExpectBinomial(counts[0], 1.0 / zeta, kSamples, "rank 0 vs zipf");
  ExpectBinomial(counts[1], std::pow(2.0, -0.99) / zeta, kSamples, "rank 1 vs zipf");
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], counts[2]);
  EXPECT_GT(counts[2], counts[10]);
}

TEST(KeyChooserTest, ZipfianFollowsAGrowingItemCount) {
  ZipfianChooser c(kItems, 9);
  for (uint64_t n = kItems + 1; n <= 2 * kItems; ++n) c.SetItemCount(n);  // one insert at a time
  ASSERT_EQ(c.item_count(), 2 * kItems);
  const auto counts = Histogram(c, kSamples);
  ZipfianRanks z(2 * kItems);
  std::vector<double> probs(2 * kItems);
  for (uint64_t r = 0; r < 2 * kItems; ++r) probs[r] = z.RankProbability(r);
  for (uint64_t r = 0; r < 20; ++r) ExpectBinomial(counts[r], probs[r], kSamples, "rank " + std::to_string(r));
  ExpectChiSquareFits(counts, probs, kSamples);
  EXPECT_GT(std::count_if(counts.begin() + kItems, counts.end(), [](uint64_t n) { return n > 0; }), 900);
}

// The probability of each item under scrambled zipfian: the mass of every rank that hashes to it.
// Ranks below kExactRanks are summed exactly; the remaining mass (ranks spread over 10^10) is taken
// as uniform, an approximation whose per-item error is far below the sampling noise tested here.
std::vector<double> ScrambledProbabilities(const ZipfianRanks& z, uint64_t items) {
  constexpr uint64_t kExactRanks = 1'000'000;
  std::vector<double> probs(items, 0);
  double exact_mass = 0;
  for (uint64_t r = 0; r < kExactRanks; ++r) {
    const double p = z.RankProbability(r);
    probs[YcsbFnvHash64(r) % items] += p;
    exact_mass += p;
  }
  for (double& p : probs) p += (1 - exact_mass) / static_cast<double>(items);
  return probs;
}

TEST(KeyChooserTest, ScrambledZipfianMatchesHashedRanks) {
  ScrambledZipfianChooser c(kItems, 5);
  const auto counts = Histogram(c, kSamples);
  const auto probs = ScrambledProbabilities(c.ranks(), kItems);
  ExpectChiSquareFits(counts, probs, kSamples);
  // Sorted, the counts have the profile of the sorted probabilities (the zipfian head on a floor).
  auto sorted_counts = counts;
  auto sorted_probs = probs;
  std::sort(sorted_counts.rbegin(), sorted_counts.rend());
  std::sort(sorted_probs.rbegin(), sorted_probs.rend());
  for (int i = 0; i < 20; ++i)
    ExpectBinomial(sorted_counts[i], sorted_probs[i], kSamples, "sorted " + std::to_string(i));
  // The hottest item is the hash of rank 0, with about 1/zeta(10^10) = 3.8 % of the draws.
  const uint64_t hottest = std::max_element(counts.begin(), counts.end()) - counts.begin();
  EXPECT_EQ(hottest, YcsbFnvHash64(0) % kItems);
  EXPECT_GT(probs[hottest], 1 / ScrambledZipfianChooser::kYcsbZeta);
  // Hot items are scattered, not clustered at the front like plain zipfian.
  std::vector<uint64_t> order(kItems);
  for (uint64_t i = 0; i < kItems; ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + 10, order.end(),
                    [&](uint64_t a, uint64_t b) { return counts[a] > counts[b]; });
  EXPECT_GT(*std::max_element(order.begin(), order.begin() + 10), 100u);
  // Every item receives traffic.
  EXPECT_EQ(std::count(counts.begin(), counts.end(), 0u), 0);
}

TEST(KeyChooserTest, LatestFavoursTheNewestItems) {
  LatestChooser c(kItems, 3);
  auto counts = Histogram(c, kSamples);
  ZipfianRanks z(kItems);
  for (uint64_t r = 0; r < 20; ++r)
    ExpectBinomial(counts[kItems - 1 - r], z.RankProbability(r), kSamples, "age " + std::to_string(r));
  EXPECT_EQ(std::max_element(counts.begin(), counts.end()) - counts.begin(), static_cast<long>(kItems - 1));
  // After inserts the newest item takes over.
  for (uint64_t n = kItems + 1; n <= kItems + 500; ++n) c.SetItemCount(n);
  counts = Histogram(c, kSamples);
  ZipfianRanks grown(kItems + 500);
  EXPECT_EQ(std::max_element(counts.begin(), counts.end()) - counts.begin(), static_cast<long>(kItems + 499));
  for (uint64_t r = 0; r < 20; ++r)
    ExpectBinomial(counts[kItems + 499 - r], grown.RankProbability(r), kSamples, "grown age " + std::to_string(r));
  EXPECT_LT(counts[kItems - 1], counts[kItems + 499] / 50);  // the former newest is now old
}

TEST(KeyChooserTest, HotspotSendsTheHotFractionToTheHotSet) {
  KeyChooserOptions o;
  o.item_count = kItems;
  o.seed = 4;
  o.hotspot_data_fraction = 0.1;
  o.hotspot_op_fraction = 0.9;
  auto c = std::move(MakeKeyChooser("hotspot", o)).value();
  const auto counts = Histogram(*c, kSamples);
  std::vector<double> probs(kItems);
  for (uint64_t i = 0; i < kItems; ++i) probs[i] = i < 100 ? 0.9 / 100 : 0.1 / 900;
  uint64_t hot = 0;
  for (uint64_t i = 0; i < 100; ++i) hot += counts[i];
  ExpectBinomial(hot, 0.9, kSamples, "hot set share");
  ExpectChiSquareFits(counts, probs, kSamples);
  EXPECT_EQ(static_cast<HotspotChooser&>(*c).hot_items(), 100u);
}

TEST(KeyChooserTest, HotspotEdgeFractions) {
  HotspotChooser all_hot(10, 1, 1.0, 0.5);
  HotspotChooser tiny(3, 1, 0.01, 1.0);  // 3 * 0.01 truncates to 0: one hot item is kept
  EXPECT_EQ(all_hot.hot_items(), 10u);
  EXPECT_EQ(tiny.hot_items(), 1u);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_LT(all_hot.Next(), 10u);
    ASSERT_EQ(tiny.Next(), 0u);
  }
}

TEST(KeyChooserTest, SameSeedSameSequenceOtherSeedOtherSequence) {
  for (std::string_view name : KeyChooserNames()) {
    auto a = Make(name, 100000, 77), b = Make(name, 100000, 77), other = Make(name, 100000, 78);
    std::vector<uint64_t> va, vb, vo;
    for (int i = 0; i < 1000; ++i) {
      va.push_back(a->Next());
      vb.push_back(b->Next());
      vo.push_back(other->Next());
    }
    EXPECT_EQ(va, vb) << name;
    if (name != "sequential") {
      EXPECT_NE(va, vo) << name;
    }
    EXPECT_EQ(a->name(), name);
  }
}

// The zipfian family computes its keys kDrawAhead at a time; the sequence must be the one drawing one
// key per call gives (the formula applied to the stream's next uniform, for the item count of the
// moment), also when the item count changes between draws, at every position within a batch.
TEST(KeyChooserTest, DrawingAheadGivesTheOneByOneSequence) {
  constexpr uint64_t kStart = 1000;
  ZipfianChooser zipfian(kStart, 21);
  ScrambledZipfianChooser scrambled(kStart, 22);
  LatestChooser latest(kStart, 23);
  ZipfianRanks ranks(kStart), scrambled_ranks(ScrambledZipfianChooser::kRankSpace, ZipfianRanks::kDefaultTheta,
                                              ScrambledZipfianChooser::kYcsbZeta);
  Xoshiro256 zipfian_rng(21), scrambled_rng(22), latest_rng(23);
  ZipfianRanks latest_ranks(kStart);
  uint64_t items = kStart;
  Xoshiro256 when(99);
  for (int i = 0; i < 20000; ++i) {
    // Inserts one at a time, now and then a jump, and a shrink, at positions unrelated to the batches.
    if (when.Below(5) == 0) {
      items = i % 1000 == 999 ? items / 2 : items + 1 + (when.Below(10) == 0 ? when.Below(5000) : 0);
      ranks.Resize(items);
      latest_ranks.Resize(items);
      zipfian.SetItemCount(items);
      scrambled.SetItemCount(items);
      latest.SetItemCount(items);
    }
    ASSERT_EQ(zipfian.Next(), ranks.Rank(zipfian_rng.NextDouble())) << "zipfian draw " << i;
    ASSERT_EQ(scrambled.Next(), YcsbFnvHash64(scrambled_ranks.Rank(scrambled_rng.NextDouble())) % items)
        << "scrambled draw " << i;
    ASSERT_EQ(latest.Next(), items - 1 - latest_ranks.Rank(latest_rng.NextDouble())) << "latest draw " << i;
  }
}

TEST(KeyChooserTest, RemainderIsTheRemainder) {
  Xoshiro256 rng(8);
  for (uint64_t d : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{7}, uint64_t{1000}, uint64_t{10'000'000},
                     uint64_t{1000003}, (uint64_t{1} << 32) - 1, (uint64_t{1} << 32) + 1, uint64_t{10'000'000'000},
                     (uint64_t{1} << 62) + 3, (uint64_t{1} << 63) - 1, uint64_t{1} << 63}) {
    const Remainder r(d);
    EXPECT_EQ(r.divisor(), d);
    for (uint64_t x : {uint64_t{0}, uint64_t{1}, d - 1, d, d + 1, 2 * d - 1, uint64_t{1} << 63, (uint64_t{1} << 63) - 1,
                       ~uint64_t{0}, ~uint64_t{0} - d, ~uint64_t{0} / d * d, ~uint64_t{0} / d * d - 1}) {
      ASSERT_EQ(r.Of(x), x % d) << x << " % " << d;
    }
    for (int i = 0; i < 100000; ++i) {
      const uint64_t x = rng.Next() >> rng.Below(64);
      ASSERT_EQ(r.Of(x), x % d) << x << " % " << d;
    }
  }
}

TEST(KeyChooserTest, ZipfianFamilySequencesArePinned) {
  // The first draws of seed 1 at 10^7 items, as the one-by-one choosers gave them before drawing ahead.
  ZipfianChooser zipfian(10'000'000, 1);
  ScrambledZipfianChooser scrambled(10'000'000, 1);
  LatestChooser latest(10'000'000, 1);
  const std::vector<uint64_t> want_zipfian = {87153, 4215, 10372,   467,  79338,   5,
                                              1,     392,  1233073, 7130, 3475392, 5120784};
  const std::vector<uint64_t> want_scrambled = {2868663, 5855853, 235337,  4755535, 359303,  7460490,
                                                2198393, 1901302, 9234264, 9760579, 7135845, 3060782};
  const std::vector<uint64_t> want_latest = {9912846, 9995784, 9989627, 9999532, 9920661, 9999994,
                                             9999998, 9999607, 8766926, 9992869, 6524607, 4879215};
  std::vector<uint64_t> got_zipfian, got_scrambled, got_latest;
  for (size_t i = 0; i < want_zipfian.size(); ++i) {
    got_zipfian.push_back(zipfian.Next());
    got_scrambled.push_back(scrambled.Next());
    got_latest.push_back(latest.Next());
  }
  EXPECT_EQ(got_zipfian, want_zipfian);
  EXPECT_EQ(got_scrambled, want_scrambled);
  EXPECT_EQ(got_latest, want_latest);
}

TEST(KeyChooserTest, StreamIsPinned) {
  // The first draws of seed 1 and two FNV-1a hashes, computed independently from the published
  // algorithms, so that a change of the generators (which would silently change every workload) fails.
  Xoshiro256 rng(1);
  EXPECT_EQ(rng.Next(), 0xb3f2af6d0fc710c5ull);
  EXPECT_EQ(rng.Next(), 0x853b559647364ceaull);
  EXPECT_EQ(rng.Next(), 0x92f89756082a4514ull);
  EXPECT_EQ(Fnv1a64(0), 0xa8c7f832281a39c5ull);
  EXPECT_EQ(Fnv1a64(0x0102030405060708ull), 0x0c6d4496e17859d5ull);
}

TEST(KeyChooserTest, ScrambleIsYcsbsFnvHash64) {
  // YCSB's Utils.fnvhash64 is Math.abs of FNV-1a read as a signed long; ScrambledZipfianGenerator takes
  // it modulo the item count. The expected items were computed independently (Java's semantics) for
  // 1000 and 1000003 items: ranks 0-3 and 12345 hash to negative longs, 9999999999 to a positive one.
  const std::vector<std::pair<uint64_t, std::pair<uint64_t, uint64_t>>> known = {
      {0, {211, 358077}}, {1, {620, 817363}},     {2, {393, 439508}},
      {3, {802, 898794}}, {12345, {852, 772857}}, {9999999999ull, {474, 562124}}};
  for (const auto& [rank, items] : known) {
    EXPECT_EQ(YcsbFnvHash64(rank) % 1000, items.first) << rank;
    EXPECT_EQ(YcsbFnvHash64(rank) % 1000003, items.second) << rank;
  }
  // The shortcut for values below 2^40 is FNV-1a itself; above it, the full byte loop.
  Xoshiro256 rng(3);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = i % 2 == 0 ? rng.Below(uint64_t{1} << 40) : rng.Next();
    const int64_t h = static_cast<int64_t>(Fnv1a64(v));
    const uint64_t abs = h == INT64_MIN ? static_cast<uint64_t>(h) : static_cast<uint64_t>(h < 0 ? -h : h);
    ASSERT_EQ(YcsbFnvHash64(v), abs) << v;
  }
}

TEST(KeyChooserTest, ZipfianRankHeadAndTailAtTheirBoundaries) {
  // The branch-free Rank() selects rank 0 below u = 1/zeta, rank 1 below (1 + 2^-theta)/zeta, else the
  // closed form; checked on both sides of each boundary and at the ends of [0, 1).
  for (uint64_t n : {1ull, 2ull, 3ull, 1000ull, 10'000'000'000ull}) {
    ZipfianRanks z(n);
    EXPECT_EQ(z.Rank(0.0), 0u) << n;
    const double b0 = 1.0 / z.zeta(), b1 = (1.0 + std::pow(0.5, z.theta())) / z.zeta();
    if (b0 < 1) {
      EXPECT_EQ(z.Rank(std::nextafter(b0, 0.0)), 0u) << n;
      EXPECT_EQ(z.Rank(std::nextafter(b0, 1.0) * (1 + 1e-12)), 1u) << n;
    }
    if (b1 < 1) {
      EXPECT_EQ(z.Rank(std::nextafter(b1, 0.0) * (1 - 1e-12)), 1u) << n;
      EXPECT_GE(z.Rank(b1 * (1 + 1e-12)), 1u) << n;
    }
    EXPECT_EQ(z.Rank(std::nextafter(1.0, 0.0)), n - 1) << n;
  }
}

TEST(KeyChooserTest, FactoryRejectsBadInput) {
  KeyChooserOptions o;
  EXPECT_TRUE(MakeKeyChooser("gaussian", o).status().IsInvalidArgument());
  EXPECT_NE(MakeKeyChooser("gaussian", o).status().message().find("known: sequential"), std::string::npos);
  o.item_count = 0;
  EXPECT_TRUE(MakeKeyChooser("uniform", o).status().IsInvalidArgument());
  o.item_count = 10;
  o.zipfian_constant = 1.0;
  EXPECT_TRUE(MakeKeyChooser("zipfian", o).status().IsInvalidArgument());
  EXPECT_TRUE(MakeKeyChooser("latest", o).status().IsInvalidArgument());
  EXPECT_TRUE(MakeKeyChooser("uniform", o).ok());  // theta does not concern uniform
  o.zipfian_constant = 0.99;
  o.hotspot_data_fraction = 0;
  EXPECT_TRUE(MakeKeyChooser("hotspot", o).status().IsInvalidArgument());
  o.hotspot_data_fraction = 0.2;
  o.hotspot_op_fraction = 1.5;
  EXPECT_TRUE(MakeKeyChooser("hotspot", o).status().IsInvalidArgument());
}

}  // namespace
}  // namespace dbxb
