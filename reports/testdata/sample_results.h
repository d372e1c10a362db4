// A fixed, deterministic RunResults for the reporter tests: two workloads (insert, flat sampling;
// get, linear sampling) on four engines, one failed benchmark, a library built with assertions.
// The numbers are invented records, not statistics: reporters only format what they are given.
#pragma once

#include "reports/result.h"

namespace dbxb::testdata {

RunResults SampleRunResults();

/// A ResourceUsage from round hand-made counters; the ratios are computed from them (write amp =
/// written / logical, space amp = disk / live, fsyncs per commit), absent where the divisor is 0.
ResourceUsage SampleResources(uint64_t operations, uint64_t commits, uint64_t fsyncs, uint64_t written,
                              uint64_t logical, uint64_t disk, uint64_t live);

}  // namespace dbxb::testdata
