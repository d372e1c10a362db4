#include "records/record_names.h"

namespace dbxb {

std::string BenchmarkName(const BenchmarkResult& b) { return b.suite + "/" + b.workload + "/" + b.engine; }

std::string PhaseName(const PhaseResult& p) {
  return JoinNonEmpty({p.suite, p.workload, p.dataset, p.phase, p.engine}, "/");
}

const char* SamplingModeName(SamplingMode mode) { return mode == SamplingMode::kLinear ? "linear" : "flat"; }

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
