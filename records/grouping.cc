#include "records/grouping.h"

#include <algorithm>

namespace dbxb {
namespace {

template <typename Record, typename Same>
std::vector<RecordGroup<Record>> GroupBy(const std::vector<Record>& records, Same same) {
  std::vector<RecordGroup<Record>> groups;
  for (const Record& r : records) {
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const RecordGroup<Record>& g) { return same(g.first(), r); });
    if (it == groups.end())
      groups.push_back(RecordGroup<Record>{{&r}});
    else
      it->members.push_back(&r);
  }
  return groups;
}

void AddUnique(std::vector<std::string>* list, const std::string& value) {
  if (std::find(list->begin(), list->end(), value) == list->end()) list->push_back(value);
}

}  // namespace

std::vector<BenchmarkGroup> GroupBenchmarksByWorkload(const RunResults& results) {
  return GroupBy(results.benchmarks, [](const BenchmarkResult& a, const BenchmarkResult& b) {
    return a.suite == b.suite && a.workload == b.workload && a.parameters == b.parameters;
  });
}

std::vector<PhaseGroup> GroupPhasesByPhase(const RunResults& results) {
  return GroupBy(results.phases, [](const PhaseResult& a, const PhaseResult& b) {
    return a.suite == b.suite && a.workload == b.workload && a.dataset == b.dataset && a.phase == b.phase &&
           a.threads == b.threads && a.target_rate == b.target_rate && a.parameters == b.parameters;
  });
}

std::vector<PhaseGroup> GroupPhasesBySequence(const RunResults& results) {
  return GroupBy(results.phases, [](const PhaseResult& a, const PhaseResult& b) {
    return a.suite == b.suite && a.workload == b.workload && a.dataset == b.dataset && a.engine == b.engine;
  });
}

std::vector<std::string> EnginesOfBenchmarks(const RunResults& results) {
  std::vector<std::string> engines;
  for (const BenchmarkResult& b : results.benchmarks) AddUnique(&engines, b.engine);
  return engines;
}

std::vector<std::string> EnginesOfRun(const RunResults& results) {
  std::vector<std::string> engines = EnginesOfBenchmarks(results);
  for (const PhaseResult& p : results.phases) AddUnique(&engines, p.engine);
  return engines;
}

}  // namespace dbxb
