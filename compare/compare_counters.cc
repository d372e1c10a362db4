#include "compare/compare_counters.h"

#include <cmath>
#include <limits>

namespace dbxb {
namespace {

template <class Record>
const Record* FindByKey(const std::vector<Record>& records, const BenchmarkKey& key) {
  for (const Record& r : records)
    if (BenchmarkKey::Of(r) == key) return &r;
  return nullptr;
}

template <class Record>
void CompareRecords(const std::vector<Record>& base_records, const std::vector<Record>& cur_records,
                    const CompareOptions& options, std::vector<MetricComparison>* rows) {
  for (const Record& cur : cur_records) {
    const BenchmarkKey key = BenchmarkKey::Of(cur);
    const Record* base = FindByKey(base_records, key);
    if (base == nullptr || base->error_occurred || cur.error_occurred || !base->resources || !cur.resources) continue;
    const auto base_counters = GatedCounters(*base->resources);
    for (const auto& [metric, value] : GatedCounters(*cur.resources)) {
      for (const auto& [base_metric, base_value] : base_counters) {
        if (base_metric != metric) continue;
        MetricComparison row;
        row.key = key;
        row.metric = metric;
        row.direction = Direction::kLowerIsBetter;
        CompareCounter(base_value, value, options, &row);
        rows->push_back(std::move(row));
      }
    }
  }
}

}  // namespace

std::vector<std::pair<std::string, double>> GatedCounters(const ResourceUsage& u) {
  std::vector<std::pair<std::string, double>> counters;
  if (u.fsyncs_per_commit && std::isfinite(*u.fsyncs_per_commit))
    counters.emplace_back("fsyncs_per_commit", *u.fsyncs_per_commit);
  if (u.operations > 0 && std::isfinite(u.io_write_bytes_per_op))
    counters.emplace_back("write_bytes_per_op", u.io_write_bytes_per_op);
  counters.emplace_back("disk_bytes", static_cast<double>(u.disk_bytes));
  return counters;
}

void CompareCounter(double baseline, double current, const CompareOptions& options, MetricComparison* row) {
  row->outcome = Outcome::kCompared;
  row->baseline_mean = row->baseline_median = baseline;
  row->current_mean = row->current_median = current;
  row->baseline_count = row->current_count = 1;
  double change = 0;
  if (baseline > 0)
    change = current / baseline - 1;
  else if (current > 0)
    change = std::numeric_limits<double>::infinity();
  row->mean_change = Interval{change, change, change, 0};
  row->median_change = row->mean_change;
  row->t = 0;
  row->p_value = current == baseline ? 1 : 0;
  row->verdict =
      Classify(row->p_value, row->mean_change, row->direction, options.significance, options.noise_threshold);
  row->over_threshold = ExceedsGate(row->verdict, row->mean_change, row->direction, options.max_regression);
}

void CompareResourceCounters(const RunResults& baseline, const RunResults& current, const CompareOptions& options,
                             std::vector<MetricComparison>* rows) {
  CompareRecords(baseline.benchmarks, current.benchmarks, options, rows);
  CompareRecords(baseline.phases, current.phases, options, rows);
}

Status ResourceCounterMatcher::Match(const RunSide& baseline, const RunSide& current, const CompareOptions& options,
                                     std::vector<MetricComparison>* rows) const {
  CompareResourceCounters(*baseline.results, *current.results, options, rows);
  return Status::Ok();
}

}  // namespace dbxb
