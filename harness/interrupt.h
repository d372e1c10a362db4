// Ctrl-C handling for long runs. The first SIGINT or SIGTERM asks the run to stop at the next
// operation boundary (the runner then writes what finished, marked incomplete, and removes its
// temporary data); a second one exits at once with status 130.
#pragma once

#include <atomic>

namespace dbxb {

/// Installs the SIGINT/SIGTERM handlers. Call once, from main, before any thread starts.
void InstallInterruptHandlers();

/// `hook` runs inside the handler of the second signal, before it exits: it must be async-signal-safe
/// (ab kills the process group of its running round there). nullptr for none.
void SetSecondInterruptHook(void (*hook)());

namespace internal {
extern std::atomic<bool> g_interrupt_requested;
}

/// True once the user asked the run to stop. Cheap enough for a measured loop (a relaxed load).
inline bool InterruptRequested() { return internal::g_interrupt_requested.load(std::memory_order_relaxed); }

/// For tests: sets or clears the request as a signal would.
void SetInterruptRequestedForTesting(bool requested);

}  // namespace dbxb
