// ThreadTeam: one function run on N threads at once, again and again, for a measured iteration that
// several threads share (dbx-micro's get on --threads T). The caller's thread is thread 0; the others
// wait between runs, so a run costs two barrier crossings and no thread creation.
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <thread>
#include <vector>

#include "common/function_ref.h"

namespace dbxb {

class ThreadTeam {
 public:
  /// Starts threads - 1 helpers. REQUIRES: threads >= 1.
  explicit ThreadTeam(uint32_t threads)
      : size_(threads == 0 ? 1 : threads),
        start_(static_cast<std::ptrdiff_t>(size_)),
        done_(static_cast<std::ptrdiff_t>(size_)) {
    for (uint32_t i = 1; i < size_; ++i) helpers_.emplace_back([this, i] { HelperLoop(i); });
  }
  /// Stops and joins the helpers. REQUIRES: no Run in progress.
  ~ThreadTeam() {
    stop_.store(true, std::memory_order_relaxed);
    if (!helpers_.empty()) start_.arrive_and_wait();
    for (std::thread& t : helpers_) t.join();
  }
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  uint32_t size() const { return size_; }

  /// Calls fn(i) on thread i for every i < size() (i = 0 on the caller's thread) and returns when every
  /// call has returned; what the calls wrote is then visible to the caller. REQUIRES: called from one
  /// thread at a time; fn does not throw.
  void Run(FunctionRef<void(uint32_t)> fn) {
    if (helpers_.empty()) {
      fn(0);
      return;
    }
    fn_ = &fn;
    start_.arrive_and_wait();
    fn(0);
    done_.arrive_and_wait();
    fn_ = nullptr;
  }

 private:
  void HelperLoop(uint32_t index) {
    for (;;) {
      start_.arrive_and_wait();
      if (stop_.load(std::memory_order_relaxed)) return;
      (*fn_)(index);
      done_.arrive_and_wait();
    }
  }

  const uint32_t size_;
  std::barrier<> start_;
  std::barrier<> done_;
  std::atomic<bool> stop_{false};
  const FunctionRef<void(uint32_t)>* fn_ = nullptr;  // set before start_, read after it
  std::vector<std::thread> helpers_;
};

}  // namespace dbxb
