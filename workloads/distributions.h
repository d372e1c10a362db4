// Key choosers: seeded generators of item indices in [0, item_count()), the request distributions of
// YCSB's core workload.
//
//   sequential         0, 1, 2, ..., n-1, 0, 1, ... (a counter that wraps)
//   uniform            every item equally likely
//   zipfian            item i has rank i under YCSB's zipfian generator (zipfian.h): item 0 hottest
//   scrambled_zipfian  YCSB's ScrambledZipfianGenerator: a zipfian rank over a fixed space of 10^10
//                      ranks, hashed with YCSB's fnvhash64 (FNV-1a, then Math.abs) and taken modulo n, so that the hot
//                      items are scattered over the key space and every item gets some traffic. (This is what YCSB's
//                      requestdistribution=zipfian uses.)
//   latest             YCSB's SkewedLatestGenerator: item n-1-r for a zipfian rank r over n items, so
//                      the most recently inserted items are the most popular
//   hotspot            YCSB's HotspotIntegerGenerator: the first hot_data_fraction of the items (the hot
//                      set) receives hot_op_fraction of the operations, uniformly within each set
//
// Inserts grow the item space: call SetItemCount() with the new count (zipfian and latest update zeta
// incrementally; scrambled_zipfian changes its modulus, so which items are hot changes too, as in YCSB).
// Each chooser owns its xoshiro256** stream: the same seed gives the same sequence on every platform
// with the same libm (zipfian ranks go through pow()). Not thread-safe: one chooser per thread, seeded
// e.g. base_seed + thread_index.
//
// The zipfian family draws ahead (DrawAhead): every kDrawAhead-th call computes the next kDrawAhead keys
// together, so that their arithmetic overlaps instead of each call waiting for one long dependent chain;
// the other calls return a computed key. The sequence is exactly the one drawing one key per call gives:
// the uniform draws are taken from the stream in the same order, and SetItemCount() recomputes the keys
// not yet returned for the new count.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "workloads/prng.h"
#include "workloads/zipfian.h"

namespace dbxb {

class KeyChooser {
 public:
  virtual ~KeyChooser() = default;
  /// The next item index, in [0, item_count()).
  virtual uint64_t Next() = 0;
  /// Sets the number of items (e.g. after inserts). REQUIRES: n >= 1.
  virtual void SetItemCount(uint64_t n) = 0;
  virtual uint64_t item_count() const = 0;
  /// The name the factory knows this chooser by.
  virtual std::string_view name() const = 0;
};

class SequentialChooser final : public KeyChooser {
 public:
  explicit SequentialChooser(uint64_t items) : items_(items) {}
  uint64_t Next() override {
    const uint64_t v = next_;
    next_ = next_ + 1 >= items_ ? 0 : next_ + 1;
    return v;
  }
  void SetItemCount(uint64_t n) override;
  uint64_t item_count() const override { return items_; }
  std::string_view name() const override { return "sequential"; }

 private:
  uint64_t items_;
  uint64_t next_ = 0;
};

class UniformChooser final : public KeyChooser {
 public:
  UniformChooser(uint64_t items, uint64_t seed) : items_(items), rng_(seed) {}
  uint64_t Next() override { return rng_.Below(items_); }
  void SetItemCount(uint64_t n) override { items_ = n; }
  uint64_t item_count() const override { return items_; }
  std::string_view name() const override { return "uniform"; }

 private:
  uint64_t items_;
  Xoshiro256 rng_;
};

/// The draws of the next kSize keys and the keys computed from them, handed out in order. `Drawn` is
/// what was drawn before the item count applies (a uniform double, or a hashed rank). The owner calls
/// Refill() when empty(), and Recompute() after a change of the item count.
template <typename Drawn>
class DrawAhead {
 public:
  static constexpr uint32_t kSize = 8;
  using Draws = Drawn[kSize];
  using Keys = uint64_t[kSize];

  bool empty() const { return next_ == kSize; }
  /// REQUIRES: !empty().
  uint64_t Take() { return keys_[next_++]; }

  /// draw(Draws&) fills the draws in stream order; keys_of(const Draws&, Keys&) computes their keys.
  template <typename Draw, typename KeysOf>
  void Refill(Draw draw, KeysOf keys_of) {
    draw(drawn_);
    next_ = 0;
    keys_of(drawn_, keys_);
  }
  /// Recomputes the keys (those already taken too, which are not handed out again).
  template <typename KeysOf>
  void Recompute(KeysOf keys_of) {
    keys_of(drawn_, keys_);
  }

 private:
  uint32_t next_ = kSize;
  Draws drawn_;
  Keys keys_;
};

/// How many keys the zipfian family computes at once (see DrawAhead).
inline constexpr uint32_t kDrawAhead = DrawAhead<double>::kSize;

class ZipfianChooser final : public KeyChooser {
 public:
  ZipfianChooser(uint64_t items, uint64_t seed, double theta = ZipfianRanks::kDefaultTheta)
      : ranks_(items, theta), rng_(seed) {}
  uint64_t Next() override {
    if (ahead_.empty()) [[unlikely]]
      Refill();
    return ahead_.Take();
  }
  void SetItemCount(uint64_t n) override;
  uint64_t item_count() const override { return ranks_.items(); }
  std::string_view name() const override { return "zipfian"; }
  const ZipfianRanks& ranks() const { return ranks_; }

 private:
  void Refill();
  void KeysOf(const DrawAhead<double>::Draws& u, DrawAhead<double>::Keys& keys) const { ranks_.RankEach(u, keys); }

  ZipfianRanks ranks_;
  Xoshiro256 rng_;
  DrawAhead<double> ahead_;  // uniform draws
};

class ScrambledZipfianChooser final : public KeyChooser {
 public:
  /// The rank space YCSB draws from before hashing, and zeta(10^10, 0.99) as YCSB hard-codes it.
  static constexpr uint64_t kRankSpace = 10'000'000'000ull;
  static constexpr double kYcsbZeta = 26.46902820178302;

  ScrambledZipfianChooser(uint64_t items, uint64_t seed, double theta = ZipfianRanks::kDefaultTheta);
  uint64_t Next() override {
    if (ahead_.empty()) [[unlikely]]
      Refill();
    return ahead_.Take();
  }
  void SetItemCount(uint64_t n) override;
  uint64_t item_count() const override { return items_.divisor(); }
  std::string_view name() const override { return "scrambled_zipfian"; }
  const ZipfianRanks& ranks() const { return ranks_; }

 private:
  void Refill();
  void KeysOf(const DrawAhead<uint64_t>::Draws& hashes, DrawAhead<uint64_t>::Keys& keys) const {
    for (uint32_t i = 0; i < kDrawAhead; ++i) keys[i] = items_.Of(hashes[i]);
  }

  Remainder items_;  // the modulus: the item count
  ZipfianRanks ranks_;
  Xoshiro256 rng_;
  DrawAhead<uint64_t> ahead_;  // hashed ranks: the item count only changes their modulus
};

class LatestChooser final : public KeyChooser {
 public:
  LatestChooser(uint64_t items, uint64_t seed, double theta = ZipfianRanks::kDefaultTheta)
      : ranks_(items, theta), rng_(seed) {}
  uint64_t Next() override {
    if (ahead_.empty()) [[unlikely]]
      Refill();
    return ahead_.Take();
  }
  void SetItemCount(uint64_t n) override;
  uint64_t item_count() const override { return ranks_.items(); }
  std::string_view name() const override { return "latest"; }

 private:
  void Refill();
  void KeysOf(const DrawAhead<double>::Draws& u, DrawAhead<double>::Keys& keys) const {
    ranks_.RankEach(u, keys);
    for (uint64_t& k : keys) k = ranks_.items() - 1 - k;
  }

  ZipfianRanks ranks_;
  Xoshiro256 rng_;
  DrawAhead<double> ahead_;  // uniform draws
};

class HotspotChooser final : public KeyChooser {
 public:
  /// REQUIRES: 0 < hot_data_fraction <= 1; 0 <= hot_op_fraction <= 1.
  HotspotChooser(uint64_t items, uint64_t seed, double hot_data_fraction, double hot_op_fraction);
  uint64_t Next() override {
    const bool hot = rng_.NextDouble() < hot_op_fraction_;
    return hot || cold_items_ == 0 ? rng_.Below(hot_items_) : hot_items_ + rng_.Below(cold_items_);
  }
  void SetItemCount(uint64_t n) override;
  uint64_t item_count() const override { return hot_items_ + cold_items_; }
  std::string_view name() const override { return "hotspot"; }
  /// The hot set is [0, hot_items()).
  uint64_t hot_items() const { return hot_items_; }

 private:
  double hot_data_fraction_;
  double hot_op_fraction_;
  uint64_t hot_items_ = 0;
  uint64_t cold_items_ = 0;
  Xoshiro256 rng_;
};

struct KeyChooserOptions {
  uint64_t item_count = 1000;  ///< initial number of items; at least 1
  uint64_t seed = 1;
  double zipfian_constant = ZipfianRanks::kDefaultTheta;  ///< theta of zipfian, scrambled_zipfian, latest
  double hotspot_data_fraction = 0.2;                     ///< YCSB's hotspotdatafraction default
  double hotspot_op_fraction = 0.8;                       ///< YCSB's hotspotopnfraction default
};

/// "sequential", "uniform", "zipfian", "scrambled_zipfian", "latest", "hotspot".
const std::vector<std::string_view>& KeyChooserNames();

/// The chooser called `name` (one of KeyChooserNames()). InvalidArgument for an unknown name or bad
/// options (item_count 0, zipfian_constant outside (0, 1), fractions outside their ranges), naming
/// the problem.
Result<std::unique_ptr<KeyChooser>> MakeKeyChooser(std::string_view name, const KeyChooserOptions& options);

}  // namespace dbxb
