// Per-second time series of every phase (PhaseResult::per_second): throughput and p99 second by second,
// one line per engine, so that stalls, flushes and compactions of long runs show as dips and spikes.
#pragma once

#include <string>
#include <vector>

#include "records/grouping.h"
#include "records/result.h"
#include "writers/line_chart.h"

namespace dbxb {

/// The two charts of one phase group (records/grouping.h's GroupPhasesByPhase), titled `title`:
/// operations per second, and the service-time p99 of the operations completed in each second, against
/// the second of the measured time, one line per engine with a series. Empty when no member has a series
/// (merged phases). `host` heads each subtitle.
std::vector<NamedChart> TimeSeriesCharts(const PhaseGroup& group, const std::string& title, const std::string& host);

}  // namespace dbxb
