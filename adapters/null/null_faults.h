// TEST-ONLY fault injection for the null adapter: the instruments that measure what the gate catches
// (docs/compare-and-report.md). They make the null engine slower or make it sync, on purpose, so that a
// known change can be measured end to end; no real engine has them, and every setting given is reported
// in the engine's native settings ("test_fault_*"), so a result that used one says so.
//
//   null.spin=N              every operation runs a fenced dependent loop of N multiply-adds (~4 cycles
//                            each): a uniform slowdown of the code
//   null.stall=NS/K          every K-th operation of a session busy-waits NS nanoseconds: a slow tail of
//                            operations (the p99 moves)
//   null.pause=NS/PERIOD     once per PERIOD nanoseconds of wall time the session busy-waits NS (checked
//                            every 256 operations): a checkpoint that hits some samples and not others
//   null.syncs_per_commit=N  every commit writes a byte to a file in the database directory and fsyncs
//                            it N times
#pragma once

#include <cstdint>
#include <string>

#include "adapters/adapter.h"

namespace dbxb {

/// The native option keys of the faults.
inline constexpr char kNullSpinKey[] = "null.spin";
inline constexpr char kNullStallKey[] = "null.stall";
inline constexpr char kNullPauseKey[] = "null.pause";
inline constexpr char kNullSyncsPerCommitKey[] = "null.syncs_per_commit";

struct NullFaults {
  uint64_t spin = 0;
  uint64_t stall_ns = 0;
  uint64_t stall_every = 0;  ///< 0 = no stall
  uint64_t pause_ns = 0;
  uint64_t pause_period_ns = 0;  ///< 0 = no pause
  uint64_t syncs_per_commit = 0;

  /// The faults of `options` (keys of other engines are ignored). InvalidArgument naming the key for a
  /// value that is not a whole number (null.stall: two, NS/K with K >= 1), or beyond its limits (spin 10^9,
  /// a stall of 10 s, syncs_per_commit 1000).
  [[nodiscard]] static Status Parse(const AdapterOptions& options, NullFaults* out);
  bool any() const { return spin != 0 || stall_every != 0 || pause_period_ns != 0 || syncs_per_commit != 0; }
  /// ("test_fault_spin", "100"), ... for each fault set.
  Settings Describe() const;
};

/// The faults at work in one session. Not thread-safe (one session, one thread).
class FaultInjector {
 public:
  FaultInjector(const NullFaults& faults, std::string dir) : faults_(faults), dir_(std::move(dir)) {}
  ~FaultInjector();
  /// Called once per operation: spins, stalls every stall_every-th call, pauses once a period.
  void OnOperation() {
    if (!faults_.any()) return;
    ++operations_;
    if (faults_.spin != 0) Spin(faults_.spin);
    if (faults_.stall_every != 0 && operations_ % faults_.stall_every == 0) Stall(faults_.stall_ns);
    if (faults_.pause_period_ns != 0 && operations_ % 256 == 0) MaybePause();
  }
  /// Called once per commit: the syncs. IOError when the file cannot be written or synced.
  [[nodiscard]] Status OnCommit();

 private:
  static void Spin(uint64_t n);
  static void Stall(uint64_t ns);
  void MaybePause();

  NullFaults faults_;
  std::string dir_;
  uint64_t operations_ = 0;
  int64_t next_pause_ns_ = 0;  // steady clock; 0 = not yet started
  int fd_ = -1;
};

}  // namespace dbxb
