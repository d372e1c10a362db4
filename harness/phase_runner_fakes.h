// The fakes of the phase runner's tests: a clock that moves only when told, and a phase whose workers
// fail, interrupt or cost what a test says, counting what the runner did with them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "harness/phase_runner.h"
#include "harness/signal_handlers.h"

namespace dbxb {

// A clock that moves only when told: workers advance it by their operation's cost, sleeps jump to
// their target. Exact latencies, no timing in the test.
struct FakeClock {
  std::atomic<uint64_t> now{1'000'000};
  PhaseTestClock clock{[this] { return now.load(); },
                       [this](uint64_t t) {
                         uint64_t cur = now.load();
                         while (cur < t && !now.compare_exchange_weak(cur, t)) {
                         }
                       }};
};

// Operation n of thread i has type (n + i) % op_types and, with a fake clock, costs cost(n) ns.
struct FakePhaseConfig {
  PhaseSpec spec;
  FakeClock* clock = nullptr;
  std::function<uint64_t(uint64_t)> cost = [](uint64_t) { return 1000; };
  int64_t fail_thread = -1;  // this thread's NextOp fails ...
  uint64_t fail_at = 0;      // ... at this call (0-based)
  bool bad_op_index = false;
  uint64_t interrupt_at = 0;  // thread 0 requests an interrupt at this call (0 = never)
  Status set_up = Status::Ok();
  Status settle = Status::Ok();
  uint64_t settle_cost_ns = 0;  // with a fake clock: what Settle advances it by
};

struct FakeCounters {
  std::atomic<uint64_t> next_op_calls{0};
  std::atomic<int> finishes{0};
  std::atomic<int> workers_alive{0};
  int tear_downs = 0;
  bool workers_gone_at_tear_down = false;
  int settles = 0;
  bool settled_before_workers = false;
};

class FakeWorker final : public PhaseWorker {
 public:
  FakeWorker(const FakePhaseConfig& c, FakeCounters* counters, uint32_t index)
      : c_(c), counters_(counters), index_(index) {
    ++counters_->workers_alive;
  }
  ~FakeWorker() override { --counters_->workers_alive; }
  Status NextOp(uint32_t* op) override {
    const uint64_t n = calls_++;
    counters_->next_op_calls.fetch_add(1, std::memory_order_relaxed);
    if (static_cast<int64_t>(index_) == c_.fail_thread && n == c_.fail_at)
      return Status::Corruption("wrong value for key_" + std::to_string(n));
    if (index_ == 0 && c_.interrupt_at != 0 && n == c_.interrupt_at) SetInterruptRequestedForTesting(true);
    if (c_.clock != nullptr) c_.clock->now.fetch_add(c_.cost(n));
    *op = c_.bad_op_index ? 7 : static_cast<uint32_t>((n + index_) % c_.spec.op_types.size());
    return Status::Ok();
  }
  Status Finish() override {
    ++counters_->finishes;
    return Status::Ok();
  }

 private:
  const FakePhaseConfig& c_;
  FakeCounters* counters_;
  uint32_t index_;
  uint64_t calls_ = 0;
};

class FakePhase final : public Phase {
 public:
  FakePhase(FakePhaseConfig c, FakeCounters* counters) : c_(std::move(c)), counters_(counters) {}
  const PhaseSpec& spec() const override { return c_.spec; }
  Status SetUp() override { return c_.set_up; }
  Status Settle() override {
    ++counters_->settles;
    counters_->settled_before_workers = counters_->workers_alive == 0;
    if (c_.clock != nullptr) c_.clock->now.fetch_add(c_.settle_cost_ns);
    return c_.settle;
  }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t i) override {
    return std::unique_ptr<PhaseWorker>(new FakeWorker(c_, counters_, i));
  }
  Status TearDown() override {
    ++counters_->tear_downs;
    counters_->workers_gone_at_tear_down = counters_->workers_alive == 0;
    return Status::Ok();
  }

 private:
  FakePhaseConfig c_;
  FakeCounters* counters_;
};

inline PhaseSpec Spec(uint32_t threads, uint64_t operations) {
  PhaseSpec s;
  s.name = "fake";
  s.op_types = {"read", "update", "scan"};
  s.threads = threads;
  s.operations = operations;
  return s;
}

inline uint64_t SeriesOps(const PhaseResult& r) {
  uint64_t n = 0;
  for (const auto& s : r.per_second) n += s.operations;
  return n;
}

}  // namespace dbxb
