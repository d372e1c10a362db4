// A fixed, deterministic RunResults for the reporter tests: two workloads (insert, flat sampling;
// get, linear sampling) on four engines, one failed benchmark, a library built with assertions.
// The numbers are invented records, not statistics: reporters only format what they are given.
#pragma once

#include "reports/result.h"

namespace dbxb::testdata {

RunResults SampleRunResults();

}  // namespace dbxb::testdata
