#include "compare/run_records.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "records/record_names.h"

namespace dbxb {
namespace {

// OK when a successful benchmark's samples can be compared.
Status CheckSamples(const std::string& side, const BenchmarkResult& b) {
  if (b.samples.size() < 2) {
    return Status::InvalidArgument(fmt::format("{}: {}: {} sample{} (at least 2 are needed to compare)", side,
                                               BenchmarkName(b), b.samples.size(), b.samples.size() == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < b.samples.size(); ++i) {
    const Sample& s = b.samples[i];
    if (s.iterations == 0)
      return Status::InvalidArgument(fmt::format("{}: {}: samples[{}] has zero iterations", side, BenchmarkName(b), i));
    const double t = s.total_ns / static_cast<double>(s.iterations);
    if (!std::isfinite(t) || !(t > 0)) {
      return Status::InvalidArgument(fmt::format("{}: {}: samples[{}] has a time that is not finite and positive ({})",
                                                 side, BenchmarkName(b), i, s.total_ns));
    }
  }
  return Status::Ok();
}

Status Add(const std::string& side, RunRecord record, std::vector<RunRecord>* out) {
  if (FindRecord(*out, record.key) >= 0) {
    return Status::InvalidArgument(fmt::format("{}: {} appears twice with the same parameters ({})", side,
                                               record.key.Name(), JoinKeyValues(record.key.parameters)));
  }
  out->push_back(std::move(record));
  return Status::Ok();
}

int FamilyRank(const Metric& m) { return static_cast<int>(m.family); }

}  // namespace

std::optional<double> RunRecord::Estimate(const Metric& metric) const {
  if (failed) return std::nullopt;
  if (benchmark != nullptr) return metric.of_benchmark ? metric.of_benchmark(*benchmark) : std::nullopt;
  return metric.of_phase ? metric.of_phase(*phase) : std::nullopt;
}

std::string RunRecord::Unavailable(const Metric& metric) const {
  if (failed || benchmark == nullptr || metric.unavailable == nullptr) return "";
  return metric.unavailable(*benchmark);
}

CounterKind RunRecord::counter_kind() const {
  return phase != nullptr ? CounterKindOf(*phase) : CounterKind::kWorkDetermined;
}

Status RunRecordsOf(const RunResults& run, const std::string& side, std::vector<RunRecord>* out) {
  out->clear();
  // Refused rather than left out: a comparison that skipped them would pass the gate unseen.
  if (!run.capacity.empty()) {
    return Status::InvalidArgument(
        fmt::format("{}: holds {} capacity search{} (run --sla), which compare does not compare: a search brackets "
                    "its capacity between a passing and a failing rate, with no spread to test; read them side by "
                    "side with dbx-bench report",
                    side, run.capacity.size(), run.capacity.size() == 1 ? "" : "es"));
  }
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!b.error_occurred) DBXB_RETURN_IF_ERROR(CheckSamples(side, b));
    DBXB_RETURN_IF_ERROR(Add(side, {BenchmarkKey::Of(b), &b, nullptr, b.error_occurred, b.error_message}, out));
  }
  for (const PhaseResult& p : run.phases)
    DBXB_RETURN_IF_ERROR(Add(side, {BenchmarkKey::Of(p), nullptr, &p, p.error_occurred, p.error_message}, out));
  return Status::Ok();
}

long FindRecord(const std::vector<RunRecord>& records, const BenchmarkKey& key) {
  for (size_t i = 0; i < records.size(); ++i)
    if (records[i].key == key) return static_cast<long>(i);
  return -1;
}

MetricComparison RowOf(const BenchmarkKey& key, const Metric& metric, Outcome outcome) {
  MetricComparison row;
  row.key = key;
  row.metric = &metric;
  row.outcome = outcome;
  return row;
}

void SortRowsByFamily(std::vector<MetricComparison>* rows) {
  std::stable_sort(rows->begin(), rows->end(), [](const MetricComparison& a, const MetricComparison& b) {
    return FamilyRank(*a.metric) < FamilyRank(*b.metric);
  });
}

}  // namespace dbxb
