// The Methodology section of results.md and the warnings that change how a run's numbers read. Both
// are generated from the recorded context and benchmark records, never written by hand, so that the
// description of a run cannot drift from the run.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "records/record_names.h"
#include "records/result.h"

namespace dbxb {

/// One line per fact that changes how the numbers read, each starting with "⚠️ ": a library built
/// with assertions or as a debug build, dbx-bench itself not built optimised, uncommitted changes, CPU
/// frequency scaling, a busy machine at the start (1-minute load average >= half the cores), an
/// interrupted run, the sampling notes of each benchmark, failed benchmarks. Empty when there is nothing to warn about.
std::vector<std::string> ReadingWarnings(const RunResults& results);

/// "## Methodology" with sub-sections Engines (library version, build and exact native settings per
/// engine), Sampling, Data shape (the benchmark parameters), Machine, Harness overhead, Command line
/// and Configuration.
void WriteMethodology(const RunResults& results, std::ostream& out);

/// Text safe inside a Markdown table cell: '|' escaped, line breaks turned into spaces.
std::string EscapeTableCell(const std::string& text);

}  // namespace dbxb
