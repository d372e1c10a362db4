// TscClock: nanoseconds read from the CPU's time-stamp counter, for the per-operation timestamps of
// the phase runner.
//
// Why: on virtual machines a clock_gettime(CLOCK_MONOTONIC) costs 20-30 ns even through the vDSO,
// which alone would exceed the runner's per-operation budget; one RDTSC costs about a third of that.
// The counter is usable only where it is invariant (constant rate, ticking through idle states) and
// the kernel itself trusts it across CPUs (its current clocksource is "tsc": the kernel checks TSC
// synchronisation between CPUs at boot and abandons the TSC clocksource when it fails), so that a
// reading taken on one CPU can be compared with one taken on another. Elsewhere Usable() says why not
// and callers keep CLOCK_MONOTONIC.
//
// Calibration reads (TSC, CLOCK_MONOTONIC) pairs some milliseconds apart; each pair is the tightest of
// several tries (the TSC read between two monotonic reads), so the rate is known to about 1 ppm after
// 20 ms: a latency error far below the histograms' 0.1 % resolution. Now() returns CLOCK_MONOTONIC
// nanoseconds as of calibration plus the scaled ticks since, so TSC and monotonic readings agree at
// the start and drift apart by at most the rate error (about 1 ms per quarter hour at 1 ppm).
// Thread-safe after construction (all members are read-only).
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace dbxb {

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t MonotonicNowNs();

class TscClock {
 public:
  /// OK when this machine has an invariant TSC the kernel uses as its clocksource; otherwise
  /// NotSupported naming the reason (architecture, CPU flag, clocksource).
  static Status Usable();

  /// Calibrates against CLOCK_MONOTONIC over about `calibration_ns`.
  /// REQUIRES: Usable() (checked: fails with its status otherwise); calibration_ns >= 1 ms.
  static Result<TscClock> Calibrate(uint64_t calibration_ns = 20'000'000);

  /// For tests: a clock whose tick `base_ticks` is `base_ns` and which ticks `ticks_per_second` times a
  /// second. REQUIRES: ticks_per_second >= 1e6.
  TscClock(uint64_t base_ticks, uint64_t base_ns, double ticks_per_second);

  /// Nanoseconds on (approximately) the CLOCK_MONOTONIC scale.
  uint64_t Now() const { return TicksToNs(ReadTicks()); }

  /// The raw counter (plain RDTSC: not serialising, which costs nothing measurable against
  /// operations of 100 ns and more). Elsewhere than x86 the monotonic clock stands in.
  static uint64_t ReadTicks() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return MonotonicNowNs();
#endif
  }

  /// The time of tick `ticks`: base_ns + (ticks - base_ticks) scaled; ticks before the base map to
  /// base_ns. The 128-bit product cannot overflow; the 32.32 fixed-point rate adds a relative error
  /// below 1e-9, a thousand times below the calibration's.
  uint64_t TicksToNs(uint64_t ticks) const {
    const uint64_t delta = ticks > base_ticks_ ? ticks - base_ticks_ : 0;
    return base_ns_ + static_cast<uint64_t>((static_cast<unsigned __int128>(delta) * ns_per_tick_q32_) >> 32);
  }

  double ticks_per_second() const { return ticks_per_second_; }

  /// E.g. "tsc (2299.998 MHz, calibrated against CLOCK_MONOTONIC over 20 ms)".
  std::string Describe() const;

 private:
  uint64_t base_ticks_;
  uint64_t base_ns_;
  uint64_t ns_per_tick_q32_;  // nanoseconds per tick as a 32.32 fixed-point number
  double ticks_per_second_;
  uint64_t calibration_ns_ = 0;
};

}  // namespace dbxb
