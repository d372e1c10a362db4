#include "workloads/distributions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dbxb {

void SequentialChooser::SetItemCount(uint64_t n) {
  items_ = n;
  if (next_ >= items_) next_ = 0;
}

ScrambledZipfianChooser::ScrambledZipfianChooser(uint64_t items, uint64_t seed, double theta)
    : items_(items),
      // For YCSB's constant use YCSB's zeta, so that both draw the very same ranks; any other theta
      // gets zeta(10^10) from the Euler-Maclaurin sum (the two agree to 1e-12 for 0.99).
      ranks_(kRankSpace, theta, theta == ZipfianRanks::kDefaultTheta ? kYcsbZeta : Zeta(kRankSpace, theta)),
      rng_(seed) {}

namespace {
template <typename Draws>
void DrawUniforms(Xoshiro256& rng, Draws& u) {
  for (double& x : u) x = rng.NextDouble();
}
}  // namespace

void ZipfianChooser::Refill() {
  ahead_.Refill([this](auto& u) { DrawUniforms(rng_, u); }, [this](const auto& u, auto& keys) { KeysOf(u, keys); });
}

void ZipfianChooser::SetItemCount(uint64_t n) {
  if (n == ranks_.items()) return;
  ranks_.Resize(n);
  ahead_.Recompute([this](const auto& u, auto& keys) { KeysOf(u, keys); });
}

void ScrambledZipfianChooser::Refill() {
  ahead_.Refill(
      [this](auto& hashes) {
        DrawAhead<double>::Draws u;
        DrawUniforms(rng_, u);
        ranks_.RankEach(u, hashes);
        for (uint64_t& h : hashes) h = YcsbFnvHash64(h);
      },
      [this](const auto& hashes, auto& keys) { KeysOf(hashes, keys); });
}

void ScrambledZipfianChooser::SetItemCount(uint64_t n) {
  if (n == items_.divisor()) return;
  items_ = Remainder(n);
  ahead_.Recompute([this](const auto& hashes, auto& keys) { KeysOf(hashes, keys); });
}

void LatestChooser::Refill() {
  ahead_.Refill([this](auto& u) { DrawUniforms(rng_, u); }, [this](const auto& u, auto& keys) { KeysOf(u, keys); });
}

void LatestChooser::SetItemCount(uint64_t n) {
  if (n == ranks_.items()) return;
  ranks_.Resize(n);
  ahead_.Recompute([this](const auto& u, auto& keys) { KeysOf(u, keys); });
}

HotspotChooser::HotspotChooser(uint64_t items, uint64_t seed, double hot_data_fraction, double hot_op_fraction)
    : hot_data_fraction_(hot_data_fraction), hot_op_fraction_(hot_op_fraction), rng_(seed) {
  SetItemCount(items);
}

void HotspotChooser::SetItemCount(uint64_t n) {
  // YCSB truncates n * fraction; we keep at least one hot item so that hot operations have a target.
  const auto hot = static_cast<uint64_t>(static_cast<double>(n) * hot_data_fraction_);
  hot_items_ = std::clamp<uint64_t>(hot, 1, n);
  cold_items_ = n - hot_items_;
}

const std::vector<std::string_view>& KeyChooserNames() {
  static const std::vector<std::string_view> kNames = {"sequential",        "uniform", "zipfian",
                                                       "scrambled_zipfian", "latest",  "hotspot"};
  return kNames;
}

Result<std::unique_ptr<KeyChooser>> MakeKeyChooser(std::string_view name, const KeyChooserOptions& o) {
  if (o.item_count == 0)
    return Status::InvalidArgument(fmt::format("key distribution {}: item count must be at least 1", name));
  const bool uses_theta = name == "zipfian" || name == "scrambled_zipfian" || name == "latest";
  if (uses_theta && !(o.zipfian_constant > 0 && o.zipfian_constant < 1))
    return Status::InvalidArgument(
        fmt::format("key distribution {}: zipfian constant must be in (0, 1), got {}", name, o.zipfian_constant));
  if (name == "sequential") return std::unique_ptr<KeyChooser>(new SequentialChooser(o.item_count));
  if (name == "uniform") return std::unique_ptr<KeyChooser>(new UniformChooser(o.item_count, o.seed));
  if (name == "zipfian")
    return std::unique_ptr<KeyChooser>(new ZipfianChooser(o.item_count, o.seed, o.zipfian_constant));
  if (name == "scrambled_zipfian")
    return std::unique_ptr<KeyChooser>(new ScrambledZipfianChooser(o.item_count, o.seed, o.zipfian_constant));
  if (name == "latest") return std::unique_ptr<KeyChooser>(new LatestChooser(o.item_count, o.seed, o.zipfian_constant));
  if (name == "hotspot") {
    if (!(o.hotspot_data_fraction > 0 && o.hotspot_data_fraction <= 1))
      return Status::InvalidArgument(fmt::format(
          "key distribution hotspot: hot data fraction must be in (0, 1], got {}", o.hotspot_data_fraction));
    if (!(o.hotspot_op_fraction >= 0 && o.hotspot_op_fraction <= 1))
      return Status::InvalidArgument(fmt::format(
          "key distribution hotspot: hot operation fraction must be in [0, 1], got {}", o.hotspot_op_fraction));
    return std::unique_ptr<KeyChooser>(
        new HotspotChooser(o.item_count, o.seed, o.hotspot_data_fraction, o.hotspot_op_fraction));
  }
  return Status::InvalidArgument(
      fmt::format("unknown key distribution '{}' (known: {})", name, fmt::join(KeyChooserNames(), ", ")));
}

}  // namespace dbxb
