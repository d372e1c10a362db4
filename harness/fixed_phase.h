// Phases of a fixed spec whose workers all do the same thing: the empty phase (what the phase runner
// alone costs per operation: the runner's overhead, the capacity search's harness floor), and the
// stand-in phases of tests and benchmarks.
#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "workloads/phase.h"

namespace dbxb {

/// A phase with a fixed spec whose every worker `make_worker` builds.
class FixedPhase : public Phase {
 public:
  using WorkerMaker = std::function<std::unique_ptr<PhaseWorker>()>;

  FixedPhase(PhaseSpec spec, WorkerMaker make_worker) : spec_(std::move(spec)), make_worker_(std::move(make_worker)) {}

  const PhaseSpec& spec() const final { return spec_; }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t) final { return make_worker_(); }

 private:
  PhaseSpec spec_;
  WorkerMaker make_worker_;
};

/// A phase whose operations do nothing.
class EmptyPhase final : public FixedPhase {
 public:
  /// `spec` says how many operations (or how long, at what rate); its op_types name the one operation.
  explicit EmptyPhase(PhaseSpec spec)
      : FixedPhase(std::move(spec), [] { return std::unique_ptr<PhaseWorker>(new Worker); }) {}

 private:
  class Worker final : public PhaseWorker {
   public:
    Status NextOp(uint32_t* op) override {
      *op = 0;
      return Status::Ok();
    }
  };
};

}  // namespace dbxb
