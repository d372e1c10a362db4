// What each engine spent (records/resource_usage.h), as tables for results.md, the console and the
// report page: one per benchmark workload and one per phase group.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// One row: an engine's benchmark, or an engine's phase.
struct ResourceRow {
  std::string phase;  ///< "" for a benchmark
  std::string engine;
  const ResourceUsage* usage = nullptr;  ///< null when none was recorded (e.g. it failed first)
  bool failed = false;
};

/// Records compared in one table: the benchmarks of one suite, workload and parameters, or the phases
/// of one suite, workload and data set (all engines), in order of first appearance.
struct ResourceTable {
  std::string title;     ///< "dbx-micro / insert", "sqlite-vps / cached"
  KeyValues parameters;  ///< the benchmarks' parameters (empty for phases)
  bool phases = false;
  std::vector<ResourceRow> rows;
};

/// The tables of `results` with at least one recorded usage.
std::vector<ResourceTable> ResourceTables(const RunResults& results);

/// One table as Markdown:
///
///   ## Resources: dbx-micro / insert
///
///   Parameters: records=10000, ...          (benchmarks with parameters)
///
///   | Engine | CPU/op | Max RSS | Anon RSS | Written/op | Write amp | Disk | Space amp | fsyncs/commit |
///   |:--|--:|--:|--:|--:|--:|--:|--:|--:|
///   | dbx | 342.9 ns | 14.2 MiB | 3.8 MiB | 52.5 B | 1.69× | 176 KiB | 0.58× | 5.00 |
///
/// (phase tables start with a Phase column). A ratio without a denominator reads "—"; fsyncs/commit
/// reads "not counted" when the executable did not count syncs; a failed row says FAILED.
void WriteResourceTable(const ResourceTable& table, std::ostream& out);

/// Every table of ResourceTables, then one paragraph saying what the columns measure. Nothing when
/// there is no table.
void WriteResourceTables(const RunResults& results, std::ostream& out);

/// The paragraph under the tables (also for the report page).
std::string ResourceLegend();

}  // namespace dbxb
