// Ctrl-C handling for long runs. The first SIGINT, SIGTERM or SIGHUP (a closed terminal) asks the run to
// stop at the next operation boundary (the runner then writes what finished, marked incomplete, and
// removes its temporary data); a second one exits at once with status 130, after sending the servers the
// tool started their stop signal (common/kill_on_exit.h; their orphan guards remove their files). A
// SIGPIPE (stdout piped into `head`) asks the same once and is ignored after that.
#pragma once

#include "common/interrupt.h"

namespace dbxb {

/// Installs the SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers, which set InterruptRequested()
/// (common/interrupt.h). Call once, from main, before any thread starts.
void InstallInterruptHandlers();

/// Asks the run to stop as a first Ctrl-C does (e.g. when another client process of the run failed).
/// Thread-safe.
void RequestInterrupt();

/// `hook` runs inside the handler of the second signal, before it exits: it must be async-signal-safe
/// (ab kills the process group of its running round there). nullptr for none.
void SetSecondInterruptHook(void (*hook)());

/// For tests: sets or clears the request as a signal would.
void SetInterruptRequestedForTesting(bool requested);

}  // namespace dbxb
