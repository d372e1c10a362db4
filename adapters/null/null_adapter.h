// The null adapter stores nothing and answers as a perfect store holding AdapterOptions::reference
// would. Running a workload on it measures the harness's own cost per operation.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory NullAdapterFactory();

}  // namespace dbxb
