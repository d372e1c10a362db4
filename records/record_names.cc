#include "records/record_names.h"

#include <algorithm>

namespace dbxb {

std::string BenchmarkName(const BenchmarkResult& b) { return b.suite + "/" + b.workload + "/" + b.engine; }

std::string PhaseName(const PhaseResult& p) {
  return JoinNonEmpty({p.suite, p.workload, p.dataset, p.phase, p.engine}, "/");
}

const char* SamplingModeName(SamplingMode mode) { return mode == SamplingMode::kLinear ? "linear" : "flat"; }

std::string JoinDifferingKeyValues(const KeyValues& kvs, const std::vector<const KeyValues*>& others) {
  auto holds = [](const KeyValues& in, const std::pair<std::string, std::string>& kv) {
    return std::find(in.begin(), in.end(), kv) != in.end();
  };
  const std::string prefix = kSweepParameterPrefix;
  std::string out;
  for (const auto& kv : kvs) {
    const bool differs = std::any_of(others.begin(), others.end(), [&](const KeyValues* o) { return !holds(*o, kv); });
    if (!differs) continue;
    std::string key = kv.first;
    if (key.rfind(prefix, 0) == 0) {
      key = key.substr(prefix.size());
      if (holds(kvs, {key, kv.second})) continue;  // the record says it itself
    }
    out += (out.empty() ? "" : ", ") + key + "=" + kv.second;
  }
  return out;
}

std::string JoinKeyValues(const KeyValues& kvs) {
  std::string out;
  for (const auto& [key, value] : kvs) {
    if (!out.empty()) out += ", ";
    out += key + "=" + value;
  }
  return out;
}

std::string JoinNonEmpty(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& s : parts) {
    if (s.empty()) continue;
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

}  // namespace dbxb
