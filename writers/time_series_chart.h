// Per-second time series of every phase (PhaseResult::per_second): throughput and p99 second by second,
// one line per engine, so that stalls, flushes and compactions of long runs show as dips and spikes.
#pragma once

#include <string>
#include <vector>

#include "records/result.h"
#include "writers/line_chart.h"

namespace dbxb {

/// Two charts per phase group (records/grouping.h's GroupPhasesByPhase) with a series: operations per
/// second, and the service-time p99 of the operations completed in each second, against the second of
/// the measured time. Merged phases (no series) are left out. `host` heads each subtitle.
std::vector<NamedChart> TimeSeriesCharts(const RunResults& results, const std::string& host);

}  // namespace dbxb
