// The null adapter stores nothing and answers as a perfect store holding AdapterOptions::reference
// would. Running a workload on it measures the harness's own cost per operation: a key that is a view
// into the reference data (ReferenceData::Locate) is answered by its position, without a search;
// other keys (YCSB builds its keys in a buffer) are found by ReferenceData::LowerBound.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory NullAdapterFactory();

}  // namespace dbxb
