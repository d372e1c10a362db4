#include "harness/runner.h"

namespace dbxb {

// Being written: the sampler, statistics and reporters land first.
Status ExecutePlan(const RunPlan&, const RunEnvironment&, RunResults*) { return Status::NotSupported("run: not built yet"); }
Status WriteOutputs(const RunPlan&, const RunResults&) { return Status::NotSupported("run: not built yet"); }

}  // namespace dbxb
