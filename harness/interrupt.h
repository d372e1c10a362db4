// Ctrl-C handling for long runs. The first SIGINT or SIGTERM asks the run to stop at the next
// operation boundary (the runner then writes what finished, marked incomplete, and removes its
// temporary data); a second one exits at once with status 130.
#pragma once

#include "common/interrupt.h"

namespace dbxb {

/// Installs the SIGINT/SIGTERM handlers, which set InterruptRequested() (common/interrupt.h). Call once,
/// from main, before any thread starts.
void InstallInterruptHandlers();

/// For tests: sets or clears the request as a signal would.
void SetInterruptRequestedForTesting(bool requested);

}  // namespace dbxb
