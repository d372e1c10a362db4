// A sweep in results.md and the report: per benchmark or phase, each engine's figure at every swept
// value side by side (Markdown), and the scaling charts (the figure against the swept value, one line
// per engine). Read from the records' "sweep.<name>" parameters and RunResults::sweep only.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"
#include "writers/line_chart.h"

namespace dbxb {

/// With a sweep: "## Sweep: threads = 1, 2, 4" (and the second dimension), a table of the points (values,
/// status, time, the first failure), then per benchmark workload or phase (and value of a second
/// dimension) a table with one row per engine and one column per swept value: throughput, and for
/// phases also p99 (service time); a capacity search's capacity at its SLA. Nothing without a sweep.
void WriteSweepTables(const RunResults& results, std::ostream& out);

/// The scaling charts of a sweep: per benchmark workload, phase or capacity search (and value of a second
/// dimension), throughput against the first dimension's values, one line per engine; for phases also
/// p99 against them. Empty without a sweep. `host` heads each subtitle.
std::vector<NamedChart> SweepCharts(const RunResults& results, const std::string& host);

}  // namespace dbxb
