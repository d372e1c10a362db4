// "SQLite or PostgreSQL?": the sqlite-vps study's question — when does an in-process database stop being
// enough? — answered from capacity searches (`run --suite sqlite-vps --sla ...`). Per phase, every engine's
// capacity at the SLA under each measured condition (cached or disk-bound, durability normal or full,
// concurrent writers or readers), then a verdict whose every sentence is computed from those rows. Works on
// any set of engines: SQLite and PostgreSQL are named when present, every engine is listed.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// One condition a phase was searched under, and each engine's record there.
struct StudyRow {
  std::string sla;         ///< "p99<=1ms"
  std::string phase;       ///< "select-pk"
  std::string dataset;     ///< "cached", "disk-bound"
  std::string durability;  ///< "normal", "full", ...
  uint32_t threads = 0;
  std::string records;                                                 ///< rows in the data set
  std::vector<std::pair<std::string, const CapacityResult*>> engines;  ///< in order of first appearance
};

/// The rows of every sqlite-vps capacity record of `runs` that did not fail (the first record of each
/// engine and condition wins), in order of first appearance. The durability is the record's
/// "sweep.durability" parameter, else its run's configured durability.
std::vector<StudyRow> StudyRows(const std::vector<const RunResults*>& runs);

/// "## SQLite or PostgreSQL?": per SLA and phase a table (one row per condition, one column per engine,
/// the capacity or "none" when no rate met the SLA), a verdict per row, then "In short": where SQLite
/// holds the SLA at a higher rate than PostgreSQL, where PostgreSQL does, where neither does, and how
/// each engine's capacity moves from cached to disk-bound, from normal to full, and as threads grow.
/// Nothing when there are no rows.
void WriteSqliteOrPostgres(const std::vector<const RunResults*>& runs, std::ostream& out);

}  // namespace dbxb
