#include "writers/markdown_collapse.h"

#include <algorithm>
#include <string>

namespace dbxb {
namespace {

bool SamePhase(const PhaseResult& x, const PhaseResult& y) {
  return x.suite == y.suite && x.workload == y.workload && x.phase == y.phase && x.engine == y.engine;
}

}  // namespace

std::vector<PhasePair> CollapseTable(const std::vector<PhaseResult>& phases) {
  return PairPhases(
      phases, phases,
      [](const PhaseResult& c, const PhaseResult& d) {
        return c.dataset == "cached" && d.dataset == "disk-bound" && SamePhase(c, d);
      },
      PairRatio::kFirstOverSecond);
}

std::vector<PhasePair> CollapseTable(const std::vector<PhaseResult>& cached,
                                     const std::vector<PhaseResult>& disk_bound) {
  return PairPhases(cached, disk_bound, SamePhase, PairRatio::kFirstOverSecond);
}

void WriteCollapseTables(const std::vector<PhasePair>& rows, std::ostream& out) {
  for (const std::string& suite : SuitesOf(rows)) {
    out << "## Cached vs disk-bound: " << suite << "\n\n";
    WritePairTableHeader("Phase", "Engine", "Cached", "Disk-bound", "Collapse", out);
    std::vector<std::string> methods;
    for (const PhasePair& r : rows) {
      if (r.suite != suite) continue;
      WritePairRow(PhaseLabel(r), r.engine, r, out);
      const std::string& recorded = r.second->memory_method;
      const std::string method = recorded.empty() ? "not limited (none recorded)" : recorded;
      if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
    }
    out << "\nCollapse = cached throughput ÷ disk-bound throughput of the same phase and engine "
           "(higher = a harder fall when the data outgrows memory).\n";
    for (const std::string& m : methods) out << "Disk-bound memory: " << m << ".\n";
    out << "\n";
  }
}

void WriteCollapseTables(const RunResults& results, std::ostream& out) {
  WriteCollapseTables(CollapseTable(results.phases), out);
}

}  // namespace dbxb
