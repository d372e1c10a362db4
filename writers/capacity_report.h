// Capacity searches (`run --sla`, harness/capacity.h) in results.md and the report: a table per phase with
// each engine's capacity and the steps that bound it, and the throughput-latency curve (the "hockey
// stick") of every engine on one chart.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"
#include "writers/line_chart.h"

namespace dbxb {

/// The capacity records of one phase at one SLA and the same parameters, in run order.
struct CapacityGroup {
  std::string title;  ///< "sqlite-vps / cached / select-pk", with the parameters that tell groups apart
  std::vector<const CapacityResult*> members;
};

/// Groups `results.capacity` by suite, workload, data set, phase, SLA (and its latency) and parameters.
std::vector<CapacityGroup> GroupCapacity(const RunResults& results);

/// "## Capacity at p99<=1ms" and per group a table: Engine | Threads | Capacity | Passed (the step that
/// gives it: target, achieved, latency at the percentile, late and dropped) | Failed (the lowest failing
/// step above it, and why) | Closed loop | Steps | Search (measured and wall time); then how to read it.
/// Nothing without capacity records.
void WriteCapacityTables(const RunResults& results, std::ostream& out);

/// One chart per group: per engine, the latency at the SLA's percentile against the achieved throughput
/// of each open-loop step in order of target rate (the hockey stick), the capacity ringed, failing steps
/// hollow, the SLA's bound as a dashed line. `host` heads each subtitle.
std::vector<NamedChart> CapacityCharts(const RunResults& results, const std::string& host);

/// "p99 from the intended start" / "p99 service time": the latency an SLA judged.
std::string CapacityLatencyName(const CapacityResult& r);

}  // namespace dbxb
