// The sqlite-vps disk-bound data set under its memory limit (harness/memory_limit.h).
#pragma once

#include <cstdint>

#include "workloads/phase.h"

namespace dbxb {

/// `inner` with each of its disk-bound sequences run under `limit_bytes` by harness/memory_limit.h's
/// WithMemoryLimit (evicting under PhaseSuiteOptions::work_dir); cached sequences pass through. The
/// memory-limit method is probed once, on first use. `limit_bytes` 0 = nothing is limited.
PhaseSequencesFactory WithDiskBoundMemoryLimit(PhaseSequencesFactory inner, uint64_t limit_bytes);

}  // namespace dbxb
