// Raw per-operation latencies (`--raw-latencies FILE`): every measured operation of every phase, so
// that the histograms and percentiles can be checked by an external tool.
//
// Each worker thread appends to its own RawLatencyBuffer inside the measured loop (a store into a
// block allocated ahead; a new block of 64 Ki entries every 65,536 operations, never a copy); the
// runner writes the buffers after the phase, outside the measured time.
//
// File format: CSV with one header line, then one row per operation, phase after phase, each phase's
// rows thread by thread in operation order:
//
//   engine,dataset,phase,thread,op,start_ns,latency_ns,intended_start_ns
//   sqlite,,workloada/run,0,read,1043,8211,1043
//
//   phase              "<workload>/<phase>" ("run" alone when the sequence has no workload name)
//   op                 the operation type (PhaseSpec::op_types)
//   start_ns           when the operation was issued, ns since the phase's measured start
//   latency_ns         service time: completion - start_ns (what the service_time histograms hold)
//   intended_start_ns  open loop: when the schedule wanted it issued (latency from the intended start
//                      is start_ns + latency_ns - intended_start_ns); closed loop: equal to start_ns
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/atomic_file.h"
#include "common/file_policy.h"
#include "common/status.h"

namespace dbxb {

struct RawLatency {
  uint64_t start_ns;  ///< since the measured start
  uint64_t latency_ns;
  uint64_t intended_ns;  ///< since the measured start
  uint32_t op;
};

/// The raw latencies of one thread. Not thread-safe.
class RawLatencyBuffer {
 public:
  static constexpr size_t kBlockEntries = 1 << 16;

  /// Allocates the first block (and enough blocks for `expected` entries, if known).
  explicit RawLatencyBuffer(uint64_t expected = 0);

  void Append(uint32_t op, uint64_t start_ns, uint64_t latency_ns, uint64_t intended_ns) {
    if (used_ == kBlockEntries) NextBlock();
    current_[used_++] = RawLatency{start_ns, latency_ns, intended_ns, op};
  }

  uint64_t size() const { return static_cast<uint64_t>(full_blocks_) * kBlockEntries + used_; }
  /// REQUIRES: i < size().
  const RawLatency& at(uint64_t i) const { return blocks_[i / kBlockEntries][i % kBlockEntries]; }

 private:
  void NextBlock();
  std::vector<std::unique_ptr<RawLatency[]>> blocks_;
  RawLatency* current_ = nullptr;
  size_t full_blocks_ = 0;  // blocks before current_
  size_t used_ = 0;         // entries used in current_
};

/// The CSV file, written through the run's FilePolicy (common/file_policy.h) as "--raw-latencies": to a
/// temporary file beside the target (header first, then one phase per WritePhase), published by Close()
/// once at least one phase was written (fsynced and renamed, as every output), so that an earlier file
/// at the path stays as it was when the run writes no phase (e.g. it is interrupted or fails before any
/// phase finished) or dies half-way.
class RawLatencyWriter {
 public:
  RawLatencyWriter() = default;
  RawLatencyWriter(const RawLatencyWriter&) = delete;
  RawLatencyWriter& operator=(const RawLatencyWriter&) = delete;

  /// InvalidArgument starting with "--raw-latencies" when `files` does not allow the path (a directory, a
  /// device, a link, a file not ours, ...); IOError when the temporary file cannot be created.
  /// `files` must outlive the writer.
  Status Open(const FilePolicy& files, const std::string& path);
  /// Appends the rows of one phase. REQUIRES: Open() succeeded.
  Status WritePhase(const std::string& engine, const std::string& dataset, const std::string& phase,
                    const std::vector<std::string>& op_types, const std::vector<const RawLatencyBuffer*>& threads);
  /// Publishes the file when a phase was written, else discards it. IOError when a write or the rename
  /// failed.
  Status Close();
  const std::string& path() const { return file_.path(); }

 private:
  const FilePolicy* files_ = nullptr;
  AtomicFileWriter file_;
  bool wrote_phase_ = false;
};

}  // namespace dbxb
