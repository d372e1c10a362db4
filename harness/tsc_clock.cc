#include "harness/tsc_clock.h"

#include <fmt/format.h>
#include <time.h>

#include <cmath>
#include <fstream>
#include <sstream>

namespace dbxb {
namespace {

// True when the "flags" line of /proc/cpuinfo lists `flag` as a whole word.
bool CpuHasFlag(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::string w;
    while (words >> w) {
      if (w == flag) return true;
    }
    return false;  // the first CPU's flags speak for all
  }
  return false;
}

std::string CurrentClocksource() {
  std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  in >> name;
  return name;
}

// One (ticks, ns) pair with the counter read between two monotonic reads; the tightest of a few tries,
// so that a preemption between the reads does not skew it.
struct Pair {
  uint64_t ticks;
  uint64_t ns;
};
Pair ReadPair() {
  Pair best{0, 0};
  uint64_t best_width = UINT64_MAX;
  for (int i = 0; i < 16; ++i) {
    const uint64_t before = MonotonicNowNs();
    const uint64_t ticks = TscClock::ReadTicks();
    const uint64_t after = MonotonicNowNs();
    if (after - before < best_width) {
      best_width = after - before;
      best = {ticks, before + (after - before) / 2};
    }
  }
  return best;
}

void SleepNs(uint64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1'000'000'000ull), static_cast<long>(ns % 1'000'000'000ull)};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
  }
}

}  // namespace

uint64_t MonotonicNowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(ts.tv_nsec);
}

Status TscClock::Usable() {
#if !defined(__x86_64__) && !defined(__i386__)
  return Status::NotSupported("no time-stamp counter on this architecture");
#else
  for (const char* flag : {"constant_tsc", "nonstop_tsc"}) {
    if (!CpuHasFlag(flag))
      return Status::NotSupported(fmt::format("the CPU does not report {} (the TSC is not invariant)", flag));
  }
  const std::string source = CurrentClocksource();
  if (source != "tsc")
    return Status::NotSupported(
        fmt::format("the kernel's clocksource is '{}', not tsc (it does not trust the TSC across CPUs)", source));
  return Status::Ok();
#endif
}

Result<TscClock> TscClock::Calibrate(uint64_t calibration_ns) {
  DBXB_RETURN_IF_ERROR(Usable());
  if (calibration_ns < 1'000'000) return Status::InvalidArgument("TSC calibration needs at least 1 ms");
  const Pair first = ReadPair();
  SleepNs(calibration_ns);
  const Pair second = ReadPair();
  if (second.ticks <= first.ticks || second.ns <= first.ns)
    return Status::NotSupported("the TSC did not advance during calibration");
  const double rate = static_cast<double>(second.ticks - first.ticks) * 1e9 / static_cast<double>(second.ns - first.ns);
  if (!(rate >= 1e6)) return Status::NotSupported(fmt::format("implausible TSC rate {:.0f} Hz", rate));
  TscClock clock(second.ticks, second.ns, rate);
  clock.calibration_ns_ = second.ns - first.ns;
  return clock;
}

TscClock::TscClock(uint64_t base_ticks, uint64_t base_ns, double ticks_per_second)
    : base_ticks_(base_ticks),
      base_ns_(base_ns),
      ns_per_tick_q32_(static_cast<uint64_t>(std::llround(1e9 / ticks_per_second * 4294967296.0))),
      ticks_per_second_(ticks_per_second) {}

std::string TscClock::Describe() const {
  if (calibration_ns_ == 0) return fmt::format("tsc ({:.3f} MHz)", ticks_per_second_ / 1e6);
  return fmt::format("tsc ({:.3f} MHz, calibrated against CLOCK_MONOTONIC over {:.0f} ms)", ticks_per_second_ / 1e6,
                     static_cast<double>(calibration_ns_) / 1e6);
}

}  // namespace dbxb
