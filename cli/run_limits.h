// What is known about a run's size before it starts, checked against the machine: the data it loads
// must fit in the free space of --data-dir (the suite's plan says how much it loads at least).
#pragma once

#include "common/status.h"
#include "harness/run_plan.h"

namespace dbxb {

/// InvalidArgument naming the data set, the bytes it needs and the free space of the directory that
/// would hold it (--data-dir, or the system temp directory), when the plan's data_bytes exceed it.
[[nodiscard]] Status CheckRunFits(const RunPlan& plan);

}  // namespace dbxb
