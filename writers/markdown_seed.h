// The DBX team's comparison three ways, side by side, in `report`: the figures its report published
// (records/seed_published.h), the seed suite's replica of its code on this machine, and the fair
// dbx-micro on this machine (one batch per insert, the same durability for every engine, file-backed,
// every read verified); then the report's claims that its own tables contradict and each point where its
// stated fair conditions differ from its code.
#pragma once

#include <ostream>
#include <vector>

#include "records/result.h"

namespace dbxb {

/// Writes the section when `runs` hold benchmarks of the `seed` suite, and nothing otherwise; the fair
/// column comes from `dbx-micro` benchmarks of the same or another run ("—" when there are none). Per
/// workload (insert, get, scan) one table: engine | published | replica | fair dbx-micro, each time with
/// its rank in its column (failed benchmarks are left out).
void WriteSeedComparison(const std::vector<const RunResults*>& runs, std::ostream& out);

}  // namespace dbxb
