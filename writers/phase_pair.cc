#include "writers/phase_pair.h"

#include <algorithm>

#include "writers/format.h"

namespace dbxb {
namespace {

std::optional<double> ThroughputRatio(const PhaseResult& dividend, const PhaseResult& divisor) {
  if (dividend.error_occurred || divisor.error_occurred || !(divisor.throughput_ops_per_sec > 0)) return std::nullopt;
  return dividend.throughput_ops_per_sec / divisor.throughput_ops_per_sec;
}

std::string Throughput(const PhaseResult& p) {
  return p.error_occurred ? "FAILED" : FormatCount(p.throughput_ops_per_sec);
}

std::string Latency(const PhaseResult& p, double ns) {
  return p.error_occurred || p.service_time.count == 0 ? "—" : FormatDuration(ns, 3);
}

}  // namespace

std::vector<PhasePair> PairPhases(const std::vector<PhaseResult>& firsts, const std::vector<PhaseResult>& seconds,
                                  const PhaseMatch& match, PairRatio ratio) {
  std::vector<PhasePair> pairs;
  for (const PhaseResult& f : firsts) {
    auto s = std::find_if(seconds.begin(), seconds.end(), [&](const PhaseResult& p) { return match(f, p); });
    if (s == seconds.end()) continue;
    const std::optional<double> r =
        ratio == PairRatio::kFirstOverSecond ? ThroughputRatio(f, *s) : ThroughputRatio(*s, f);
    pairs.push_back(PhasePair{.suite = f.suite,
                              .workload = f.workload,
                              .dataset = f.dataset,
                              .phase = f.phase,
                              .engine = f.engine,
                              .first = &f,
                              .second = &*s,
                              .ratio = r});
  }
  return pairs;
}

std::vector<std::string> SuitesOf(const std::vector<PhasePair>& pairs) {
  std::vector<std::string> suites;
  for (const PhasePair& p : pairs)
    if (std::find(suites.begin(), suites.end(), p.suite) == suites.end()) suites.push_back(p.suite);
  return suites;
}

std::string PhaseLabel(const PhasePair& pair) {
  return pair.workload.empty() ? pair.phase : pair.workload + "/" + pair.phase;
}

std::string FormatRatio(const std::optional<double>& ratio) {
  return ratio.has_value() ? FormatCount(*ratio) + "×" : "—";
}

void WritePairTableHeader(std::string_view label1, std::string_view label2, std::string_view first,
                          std::string_view second, std::string_view ratio, std::ostream& out) {
  out << "| " << label1 << " | " << label2 << " | " << first << " (ops/s) | " << second << " (ops/s) | " << ratio
      << " | " << first << " p50 | " << second << " p50 | " << first << " p99 | " << second << " p99 |\n";
  out << "|:--|:--|--:|--:|--:|--:|--:|--:|--:|\n";
}

void WritePairRow(std::string_view label1, std::string_view label2, const PhasePair& pair, std::ostream& out) {
  const PhaseResult& a = *pair.first;
  const PhaseResult& b = *pair.second;
  out << "| " << label1 << " | " << label2 << " | " << Throughput(a) << " | " << Throughput(b) << " | "
      << FormatRatio(pair.ratio) << " | " << Latency(a, a.service_time.p50_ns) << " | "
      << Latency(b, b.service_time.p50_ns) << " | " << Latency(a, a.service_time.p99_ns) << " | "
      << Latency(b, b.service_time.p99_ns) << " |\n";
}

}  // namespace dbxb
