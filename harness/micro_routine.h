// A MicroBenchmark (workloads/micro_suite.h) as the harness measures it: sampled by the clock
// (harness/sampler.h), or counted in instructions under callgrind (`run --measure instructions`,
// harness/instructions.h). Only RunIteration is timed — and counted. Once measuring, the timed part of
// each sample is a stretch of the benchmark's resources, so that every counter covers exactly the work
// its time measures; for fresh-state benchmarks the untimed open and close around each iteration, where
// an engine may sync and write its data, are metered apart (ResourceUsage::setup_*).
#pragma once

#include <cstdint>

#include "adapters/adapter.h"
#include "harness/instructions.h"
#include "harness/resources.h"
#include "harness/sampler.h"
#include "records/result.h"
#include "workloads/micro_suite.h"

namespace dbxb {

class MicroRoutine final : public Routine {
 public:
  explicit MicroRoutine(MicroBenchmark* bench) : bench_(bench) {}

  /// From now on every Run is metered.
  void StartMeasuring();
  /// What the measured Runs spent, over `iterations` of them.
  ResourceUsage Resources(uint64_t iterations) const;
  /// Counts the instructions of the timed bodies into `counter` (null: stop counting).
  void CountWith(InstructionCounter* counter) { counter_ = counter; }

  Status Run(uint64_t iterations, double* elapsed_ns) override;

 private:
  Status RunFresh(uint64_t iterations, double* elapsed_ns);
  Status Timed(double* elapsed_ns);
  template <typename F>
  Status Metered(ResourceMeter* meter, F body);

  MicroBenchmark* bench_;
  ResourceMeter meter_, setup_meter_;
  InstructionCounter* counter_ = nullptr;
  bool measuring_ = false;
};

/// `run --measure instructions`: one uncounted warm-up iteration, then kCountedIterations iterations, each
/// its own sample (timed under valgrind: not comparable with real times), counted by `counter`. Fills
/// out's sampling mode, samples, notes, resources and instructions — with the reason in
/// instructions->refused when the count cannot apply (harness/instructions.h). The Status of the
/// benchmark (a wrong answer fails it as in a timed run).
[[nodiscard]] Status RunCounted(MicroRoutine& routine, const AdapterFactory& engine, const std::string& name,
                                BenchmarkResult* out);

}  // namespace dbxb
