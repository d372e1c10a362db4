// A phase whose operations do nothing: what the phase runner alone costs per operation (the runner's
// overhead, the capacity search's harness floor), and a stand-in phase for tests.
#pragma once

#include <memory>
#include <utility>

#include "workloads/phase.h"

namespace dbxb {

class EmptyPhase final : public Phase {
 public:
  /// `spec` says how many operations (or how long, at what rate); its op_types name the one operation.
  explicit EmptyPhase(PhaseSpec spec) : spec_(std::move(spec)) {}

  const PhaseSpec& spec() const override { return spec_; }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t) override { return std::unique_ptr<PhaseWorker>(new Worker); }

 private:
  class Worker final : public PhaseWorker {
   public:
    Status NextOp(uint32_t* op) override {
      *op = 0;
      return Status::Ok();
    }
  };

  PhaseSpec spec_;
};

}  // namespace dbxb
