// A fixed, deterministic RunResults with phases for the reporter tests: YCSB workloada load and run on
// three engines (one run in open loop, one failed), and one sqlite-vps phase on a disk-bound data set
// with a memory method. The numbers are invented records: reporters only format what they are given.
#pragma once

#include "reports/result.h"

namespace dbxb::testdata {

RunResults SamplePhaseResults();

}  // namespace dbxb::testdata
