// Whether the user asked the tool to stop (Ctrl-C or SIGTERM): one flag that every layer may read, so
// that a long loop anywhere (loading a data set, a phase, a calibration) ends within moments. The
// handlers that set it are the harness's (harness/signal_handlers.h).
#pragma once

#include <atomic>
#include <cstdint>

namespace dbxb {

namespace internal {
inline std::atomic<bool> g_interrupt_requested{false};
}

/// How many rows a loop that builds or writes rows handles between two looks at the flag: a few
/// milliseconds of work at most, and no cost a measurement could see.
inline constexpr uint64_t kRowsPerInterruptCheck = 4096;

/// True once the user asked the run to stop. Cheap enough for a measured loop (a relaxed load).
inline bool InterruptRequested() { return internal::g_interrupt_requested.load(std::memory_order_relaxed); }

}  // namespace dbxb
