// Fuzz target: the results.json reader (records/json_results.h) on the records byte mutations rarely
// reach intact, the sweep and capacity searches. A custom mutator edits the parsed document instead of
// its bytes (a value replaced by a hostile one, a member removed, an array element dropped or doubled),
// preferring the `sweep` and `capacity` members, so that the checks inside them are reached with the rest
// of the file still valid. Properties beyond "no crash": an error is InvalidArgument or Corruption with a
// message; an accepted file's capacities agree with their steps (the reader refuses the others), its
// sweep has dimensions with values, its throughputs are not negative, and write -> read -> write of it is
// stable. The replay build (fuzz/replay_main.cc) runs the same property over the seeds.
#include <cstdint>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "fuzz/results_round_trip.h"
#include "records/json_results.h"
#include "records/sweep_json.h"

namespace {

using Json = nlohmann::ordered_json;

void CheckAccepted(const dbxb::RunResults& r) {
  for (const dbxb::CapacityResult& c : r.capacity) {
    const int n = static_cast<int>(c.steps.size());
    FUZZ_CHECK(c.lower_step >= -1 && c.lower_step < n && c.upper_step >= -1 && c.upper_step < n, "step indices");
    FUZZ_CHECK(dbxb::CapacityContradiction(c).empty(), "an accepted capacity agrees with its steps");
  }
  if (r.sweep) {
    FUZZ_CHECK(!r.sweep->dimensions.empty(), "an accepted sweep has a dimension");
    for (const dbxb::SweepDimension& d : r.sweep->dimensions) FUZZ_CHECK(!d.values.empty(), "and values");
  }
  for (const dbxb::PhaseResult& p : r.phases) FUZZ_CHECK(!(p.throughput_ops_per_sec < 0), "throughput >= 0");
  for (const dbxb::BenchmarkResult& b : r.benchmarks) FUZZ_CHECK(!(b.throughput.point < 0), "throughput >= 0");
}

// Every node of `j` (pre-order), with those under "sweep" and "capacity" listed three times more.
void Collect(Json* j, bool preferred, std::vector<Json*>* out) {
  for (int k = 0; k < (preferred ? 4 : 1); ++k) out->push_back(j);
  if (j->is_object()) {
    for (auto& [key, value] : j->items()) Collect(&value, preferred || key == "sweep" || key == "capacity", out);
  } else if (j->is_array()) {
    for (Json& value : *j) Collect(&value, preferred, out);
  }
}

// A hostile replacement for a value: a sign, a scale, an index off by one, a non-finite string, a flipped
// bool, a type it does not have.
int OneOff(std::mt19937_64& rng) { return rng() % 2 == 0 ? 1 : -1; }

Json Hostile(const Json& v, std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0:
      return v.is_number() ? Json(-v.get<double>()) : Json(-1);
    case 1:
      return v.is_number() ? Json(v.get<double>() * 10) : Json(0);
    case 2:
    case 3: {
      if (!v.is_number_integer()) return Json(OneOff(rng));
      const int64_t x = v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>() >> 1) : v.get<int64_t>();
      return Json(x > INT64_MIN + 1 && x < INT64_MAX - 1 ? x + (rng() % 2 == 0 ? 1 : -1) : 0);
    }
    case 4:
      return Json(rng() % 2 == 0 ? "NaN" : "-Infinity");
    case 5:
      return v.is_boolean() ? Json(!v.get<bool>()) : Json(true);
    case 6:
      return Json(nullptr);
    default:
      return Json(static_cast<double>(rng() % 1000000));
  }
}

void MutateDocument(Json* doc, std::mt19937_64& rng) {
  std::vector<Json*> nodes;
  Collect(doc, false, &nodes);
  Json* node = nodes[rng() % nodes.size()];
  if (node->is_object() && !node->empty() && rng() % 3 == 0) {
    auto it = node->begin();
    std::advance(it, static_cast<long>(rng() % node->size()));
    node->erase(it.key());
  } else if (node->is_array() && !node->empty() && rng() % 2 == 0) {
    const size_t i = rng() % node->size();
    if (rng() % 2 == 0) {
      node->erase(i);
    } else {
      node->push_back((*node)[i]);
    }
  } else if (!node->is_object() && !node->is_array()) {
    *node = Hostile(*node, rng);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  dbxb::RunResults results;
  // CheckAccepted's properties hold for what was read; the round trip was checked on it first.
  if (dbxb::fuzz::ReadsBackStable(std::string_view(reinterpret_cast<const char*>(data), size), &results))
    CheckAccepted(results);
  return 0;
}
