#include "harness/phase_runner.h"

#include <sys/prctl.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "harness/phase_state.h"
#include "harness/resources.h"
#include "harness/signal_handlers.h"
#include "harness/tsc_clock.h"
#include "records/interval_recorder.h"

// How the runner works (RunPhase in phase_runner.h is the contract).
//
// Timing. Closed loop (the default): one clock read per operation boundary — the completion of
// operation n is the start of operation n+1 — so the service time of an operation also holds the
// runner's own bookkeeping for it (histogram record, interval record, raw append: a few ns, measured
// by harness/bench/op_path_bench). The clock is the calibrated time-stamp counter where it is invariant
// and the kernel trusts it (harness/tsc_clock.h: a third of clock_gettime's cost on a VM), else
// CLOCK_MONOTONIC; PhaseClockDescription() says which, and the run records it. Open loop (PhaseSpec::target_rate > 0):
// thread i of T issues its operation n at the intended time start + (n + i/T) * T / target_rate (the threads interleave
// evenly), sleeping until then (clock_nanosleep with a 1 ns timer slack, re-checked against the clock; in slices of
// 100 ms that check for an interrupt when it is far ahead) when it is ahead; when it is behind it issues at once. Each
// operation then records its service time (completion - actual issue) and its latency from the intended start
// (completion - intended), which keeps the queueing delay a slow operation causes for its successors (coordinated
// omission corrected). Warm-up always runs closed loop.
//
// Stopping. A thread stops after its share of PhaseSpec::operations (OperationsForThread), when its
// last completion passes the duration bound (open loop: also when the next intended start would), when
// another thread failed, or at the first operation boundary after InterruptRequested() (the result is
// then marked incomplete). The first failing status (a worker's NextOp or Finish, a bad op index, an
// invalid spec, SetUp/NewWorker/TearDown) fails the phase: error_occurred with the reason, prefixed
// with the thread ("thread 2: Corruption: ..."). RunPhase itself never fails.
//
// Hot loop cost: no allocation (interval histograms and raw-latency blocks are allocated ahead, except
// one interval histogram per new second of a phase not bounded by duration and one raw block per 64 Ki
// operations), one virtual call (NextOp), one clock read, two relaxed atomic loads (stop flag and
// interrupt), one or two histogram records, one interval record.

namespace dbxb {
namespace {

using phase_internal::kNever;
using phase_internal::Shared;
using phase_internal::Summarize;
using phase_internal::ThreadState;

struct MonotonicClock {
  uint64_t Now() const { return MonotonicNowNs(); }
  void SleepUntil(uint64_t ns) const {
    timespec ts{static_cast<time_t>(ns / 1'000'000'000ull), static_cast<long>(ns % 1'000'000'000ull)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
};

// The calibrated time-stamp counter (harness/tsc_clock.h). Its nanoseconds agree with CLOCK_MONOTONIC
// only to the calibration's ppm, so sleeps are relative and re-checked against the TSC itself.
struct TscPhaseClock {
  const TscClock* tsc;
  uint64_t Now() const { return tsc->Now(); }
  void SleepUntil(uint64_t ns) const {
    for (uint64_t now = Now(); now < ns; now = Now()) {
      const uint64_t rest = ns - now;
      if (rest < 2000) {  // less than a system call's round trip: spin
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
        continue;
      }
      timespec ts{static_cast<time_t>(rest / 1'000'000'000ull), static_cast<long>(rest % 1'000'000'000ull)};
      clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, nullptr);  // EINTR: the loop re-reads the clock
    }
  }
};

struct TestClockAdapter {
  const PhaseTestClock* clock;
  uint64_t Now() const { return clock->now_ns(); }
  void SleepUntil(uint64_t ns) const { clock->sleep_until_ns(ns); }
};

Status BadOpIndex(uint32_t op, uint32_t types) {
  return Status::Internal(fmt::format("the worker reported operation type {} of {} (PhaseSpec::op_types)", op, types));
}

// True when the thread must stop before its next operation.
inline bool ShouldStop(Shared& sh) {
  if (sh.stop.load(std::memory_order_relaxed)) return true;
  if (InterruptRequested()) [[unlikely]] {
    sh.interrupted.store(true, std::memory_order_relaxed);
    sh.stop.store(true, std::memory_order_relaxed);
    return true;
  }
  return false;
}

template <class Clock>
Status WarmUp(Clock& clock, Shared& sh, ThreadState& ts, PhaseWorker& worker) {
  const PhaseSpec& spec = *sh.spec;
  uint32_t op = 0;
  for (uint64_t i = 0; i < spec.warmup_operations && !ShouldStop(sh); ++i) {
    DBXB_RETURN_IF_ERROR(worker.NextOp(&op));
    if (op >= sh.op_types) return BadOpIndex(op, sh.op_types);
    ++ts.warmup_ops;
  }
  if (spec.warmup_seconds > 0) {
    const uint64_t end = clock.Now() + static_cast<uint64_t>(spec.warmup_seconds * 1e9);
    while (!ShouldStop(sh) && clock.Now() < end) {
      DBXB_RETURN_IF_ERROR(worker.NextOp(&op));
      if (op >= sh.op_types) return BadOpIndex(op, sh.op_types);
      ++ts.warmup_ops;
    }
  }
  return Status::Ok();
}

// Sleeps until `ns`, in slices of at most 100 ms when that is far ahead (a slow --target-rate), so that
// Ctrl-C ends an open loop within a slice. False when the thread must stop instead.
template <class Clock>
bool SleepUntilOrStop(Clock& clock, Shared& sh, uint64_t ns) {
  constexpr uint64_t kSliceNs = 100'000'000;
  for (uint64_t now = clock.Now(); now < ns && ns - now > kSliceNs; now = clock.Now()) {
    clock.SleepUntil(now + kSliceNs);
    if (ShouldStop(sh)) return false;
  }
  clock.SleepUntil(ns);
  return true;
}

// A closed loop's schedule: the completion of one operation is the issue of the next, which is also its
// intended start, so no operation is late and there is nothing to wait for.
struct ClosedSchedule {
  template <class Clock>
  bool Issue(Clock&, Shared&, uint64_t /*n*/, uint64_t prev_end, uint64_t* issued, uint64_t* intended) {
    *issued = *intended = prev_end;
    return true;
  }
  void RecordFromIntended(uint32_t /*op*/, uint64_t /*end*/, uint64_t /*intended*/) {}
};

// An open loop's schedule: operation n is due at start + (n + offset) * period. Ahead of that the thread
// sleeps; behind it the operation is late and issues at once. Each operation's latency from its intended
// start is recorded beside its service time.
class OpenSchedule {
 public:
  OpenSchedule(const Shared& sh, ThreadState& ts, double offset)
      : start_(sh.start_ns),
        deadline_(sh.deadline_ns),
        period_(sh.period_ns),
        offset_(offset),
        late_(&ts.late),
        from_intended_(ts.from_intended.data()),
        intervals_(ts.interval_from_intended.empty() ? nullptr : ts.interval_from_intended.data()) {}

  // False when the operation must not be issued: it is due past the duration bound, or the thread must
  // stop while it waits.
  template <class Clock>
  bool Issue(Clock& clock, Shared& sh, uint64_t n, uint64_t prev_end, uint64_t* issued, uint64_t* intended) {
    *intended = start_ + static_cast<uint64_t>((static_cast<double>(n) + offset_) * period_);
    if (*intended >= deadline_) return false;  // nothing is scheduled past the duration bound
    *issued = prev_end;
    if (*issued < *intended) {
      if (!SleepUntilOrStop(clock, sh, *intended)) return false;
      *issued = clock.Now();
    } else {
      ++*late_;  // still busy with earlier operations when this one was due
    }
    return true;
  }

  void RecordFromIntended(uint32_t op, uint64_t end, uint64_t intended) {
    from_intended_[op].Record(end - intended);
    if (intervals_ != nullptr) intervals_[op].Record(end, end - intended);
  }

 private:
  uint64_t start_;
  uint64_t deadline_;
  double period_;
  double offset_;
  uint64_t* late_;
  LatencyHistogram* from_intended_;
  IntervalRecorder* intervals_;
};

// Nanoseconds from the measured start to `t` (0 before it).
inline uint64_t Since(uint64_t t, uint64_t start) { return t > start ? t - start : 0; }

// The measured loop, closed or open as the schedule says.
template <class Clock, class Schedule>
Status MeasureOps(Clock& clock, Shared& sh, ThreadState& ts, PhaseWorker& worker, uint64_t limit, Schedule schedule) {
  LatencyHistogram* const service = ts.service.data();
  IntervalRecorder& series = *ts.series;
  IntervalRecorder* const intervals = ts.interval_service.empty() ? nullptr : ts.interval_service.data();
  RawLatencyBuffer* const raw = ts.raw.get();
  const uint32_t types = sh.op_types;
  const uint64_t start = sh.start_ns, deadline = sh.deadline_ns;
  uint64_t prev_end = clock.Now();
  uint64_t n = 0;
  Status st;
  while (n < limit && !ShouldStop(sh)) {
    uint64_t issued = 0, intended = 0;
    if (!schedule.Issue(clock, sh, n, prev_end, &issued, &intended)) break;
    uint32_t op = 0;
    st = worker.NextOp(&op);
    const uint64_t end = clock.Now();
    if (!st.ok()) [[unlikely]]
      break;
    if (op >= types) [[unlikely]] {
      st = BadOpIndex(op, types);
      break;
    }
    const uint64_t latency = end - issued;
    service[op].Record(latency);
    schedule.RecordFromIntended(op, end, intended);
    series.Record(end, latency);
    if (intervals != nullptr) intervals[op].Record(end, latency);
    if (raw != nullptr) raw->Append(op, Since(issued, start), latency, Since(intended, start));
    prev_end = end;
    ++n;
    if (end >= deadline) break;
  }
  ts.ops = n;
  ts.last_end_ns = prev_end;
  return st;
}

template <class Clock>
Status MeasuredLoop(Clock& clock, Shared& sh, uint32_t index, ThreadState& ts, PhaseWorker& worker, uint64_t limit);

// One worker thread: allocate, warm up, meet the others, measure, finish.
template <class Clock, class Barrier>
void ThreadBody(Clock clock, Shared& sh, uint32_t index, ThreadState& ts, PhaseWorker& worker, Barrier& barrier) {
  const PhaseSpec& spec = *sh.spec;
  const bool open = spec.target_rate > 0;
  if (open) prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // wake up on time, not up to 50 µs late
  ts.service.assign(sh.op_types, LatencyHistogram());
  if (open) ts.from_intended.assign(sh.op_types, LatencyHistogram());
  const uint64_t limit = spec.operations == 0 ? kNever : OperationsForThread(spec, index);
  if (sh.keep_raw) ts.raw = std::make_unique<RawLatencyBuffer>(limit == kNever ? 0 : limit);

  Status st = WarmUp(clock, sh, ts, worker);
  if (!st.ok()) {
    sh.Fail(index, st);
    barrier.arrive_and_wait();
    return;  // no Finish after the worker's own failure
  }
  barrier.arrive_and_wait();  // the completion sets sh.start_ns and sh.deadline_ns
  if (!sh.stop.load(std::memory_order_relaxed)) st = MeasuredLoop(clock, sh, index, ts, worker, limit);
  if (!st.ok()) {
    sh.Fail(index, st);
    return;
  }
  st = worker.Finish();
  if (!st.ok()) sh.Fail(index, st);
}

template <class Clock>
Status MeasuredLoop(Clock& clock, Shared& sh, uint32_t index, ThreadState& ts, PhaseWorker& worker, uint64_t limit) {
  const PhaseSpec& spec = *sh.spec;
  ts.series = std::make_unique<IntervalRecorder>(sh.start_ns, sh.series_interval_ns);
  // The first minute's intervals ahead (36 KiB each); later ones allocate once as each begins.
  const double planned = spec.duration_seconds * 1e9 / static_cast<double>(sh.series_interval_ns);
  const size_t reserve = spec.duration_seconds > 0 ? static_cast<size_t>(std::min(planned + 2, 64.0)) : 1;
  ts.series->Reserve(reserve);
  if (sh.keep_intervals) {
    const int digits = LatencyHistogram().significant_digits();  // the phase histograms' own precision
    auto make = [&](std::vector<IntervalRecorder>* out) {
      for (uint32_t op = 0; op < sh.op_types; ++op) {
        out->emplace_back(sh.start_ns, sh.series_interval_ns, digits);
        out->back().Reserve(reserve);
      }
    };
    make(&ts.interval_service);
    if (spec.target_rate > 0) make(&ts.interval_from_intended);
  }
  ts.started = true;
  if (spec.target_rate > 0)
    return MeasureOps(clock, sh, ts, worker, limit, OpenSchedule(sh, ts, static_cast<double>(index) / spec.threads));
  return MeasureOps(clock, sh, ts, worker, limit, ClosedSchedule());
}

Status CheckSpec(const PhaseSpec& spec) {
  if (spec.threads == 0) return Status::InvalidArgument("phase spec: threads must be at least 1");
  if (spec.op_types.empty() || spec.op_types.size() > 255)
    return Status::InvalidArgument(
        fmt::format("phase spec: {} operation types (1 to 255 allowed)", spec.op_types.size()));
  if (spec.operations == 0 && !(spec.duration_seconds > 0))
    return Status::InvalidArgument("phase spec: neither an operation count nor a duration bounds the phase");
  if (!(spec.duration_seconds >= 0) || !(spec.warmup_seconds >= 0) || !(spec.target_rate >= 0) ||
      std::isinf(spec.target_rate) || std::isinf(spec.duration_seconds) || std::isinf(spec.warmup_seconds))
    return Status::InvalidArgument("phase spec: durations and the target rate must be finite and non-negative");
  return Status::Ok();
}

WriteTally Written(const std::vector<std::unique_ptr<PhaseWorker>>& workers) {
  WriteTally total;
  for (const auto& w : workers) total += w->written();
  return total;
}

template <class Clock>
void RunThreads(Clock clock, Shared& sh, std::vector<std::unique_ptr<PhaseWorker>>& workers,
                std::vector<std::unique_ptr<ThreadState>>& states, const std::function<void()>& at_measured_start) {
  const PhaseSpec& spec = *sh.spec;
  sh.workers = &workers;
  sh.meter.BeginSpan();
  auto completion = [&sh, clock, &at_measured_start]() noexcept {
    if (at_measured_start) at_measured_start();
    sh.written_at_start = Written(*sh.workers);
    sh.meter.StartStretch();
    sh.start_ns = clock.Now();
    timespec wall{};
    clock_gettime(CLOCK_REALTIME, &wall);
    sh.start_unix_s = static_cast<double>(wall.tv_sec) + static_cast<double>(wall.tv_nsec) * 1e-9;
    if (sh.spec->duration_seconds > 0)
      sh.deadline_ns = sh.start_ns + static_cast<uint64_t>(sh.spec->duration_seconds * 1e9);
  };
  std::barrier barrier(static_cast<std::ptrdiff_t>(spec.threads), completion);
  std::vector<std::thread> threads;
  threads.reserve(spec.threads);
  for (uint32_t i = 0; i < spec.threads; ++i) {
    threads.emplace_back([&, i] { ThreadBody(clock, sh, i, *states[i], *workers[i], barrier); });
  }
  for (auto& t : threads) t.join();
  sh.meter.StopStretch();
}

// Calibrated once per process, on first use (about 20 ms).
struct ProcessClock {
  std::optional<TscClock> tsc;
  std::string description;
  ProcessClock() {
    const char* forced = std::getenv("DBXB_CLOCK");
    if (forced != nullptr && std::string_view(forced) == "monotonic") {
      description = "clock_gettime(CLOCK_MONOTONIC) (DBXB_CLOCK=monotonic)";
      return;
    }
    Result<TscClock> c = TscClock::Calibrate();
    if (c.ok()) {
      tsc.emplace(c.value());
      description = tsc->Describe();
    } else {
      description = fmt::format("clock_gettime(CLOCK_MONOTONIC) (TSC not used: {})", c.status().message());
    }
  }
};

const ProcessClock& TheProcessClock() {
  static const ProcessClock clock;
  return clock;
}

}  // namespace

const TscClock* ProcessTscClock() {
  const ProcessClock& c = TheProcessClock();
  return c.tsc ? &*c.tsc : nullptr;
}

std::string PhaseClockDescription() { return TheProcessClock().description; }

namespace {

// Records the phase's first failure; later ones are dropped.
void RecordFailure(PhaseResult& r, const Status& st) {
  if (r.error_occurred) return;
  r.error_occurred = true;
  r.error_message = st.ToString();
}

// Copies whose phase it is and the spec's name, parameters, memory method, threads and rates into `r`.
void Label(const PhaseIdentity& identity, const PhaseSpec& spec, PhaseResult& r) {
  NamePhase(identity, spec.name, r);
  r.engine_settings = identity.engine_settings;
  r.parameters = spec.parameters;
  for (const auto& [key, value] : spec.parameters)
    if (key == kMemoryMethodParameter) r.memory_method = value;
  r.threads = spec.threads;
  r.target_rate = spec.target_rate;
  r.rows_per_operation = spec.rows_per_operation;
}

// Sets the phase up and, when the spec asks, settles it, timed into r.settle_ns.
Status SetUpAndSettle(Phase& phase, const PhaseSpec& spec, const PhaseRunOptions& options, PhaseResult& r) {
  Status st = phase.SetUp();
  if (!st.ok()) return st.WithContext("set-up");
  if (spec.settle) {
    auto now = [&] { return options.test_clock != nullptr ? options.test_clock->now_ns() : MonotonicNowNs(); };
    const uint64_t start = now();
    st = phase.Settle();
    r.settle_ns = static_cast<double>(now() - start);
    if (!st.ok()) st = st.WithContext("settle");
  }
  return st;
}

// One worker per thread, in thread order, or the first failure to make one.
Status NewWorkers(Phase& phase, uint32_t threads, std::vector<std::unique_ptr<PhaseWorker>>* workers) {
  Status st;
  for (uint32_t i = 0; i < threads && st.ok(); ++i) {
    auto w = phase.NewWorker(i);
    if (w.ok())
      workers->push_back(std::move(w.value()));
    else
      st = w.status().WithContext(fmt::format("thread {}: new worker", i));
  }
  return st;
}

// Runs the workers on their threads, on the test clock, the TSC or CLOCK_MONOTONIC, and fills `run`:
// the measurements, the resources of the measured part, and whether it was interrupted. Returns the
// first thread's failure.
Status MeasureThreads(const PhaseSpec& spec, const PhaseRunOptions& options,
                      std::vector<std::unique_ptr<PhaseWorker>>& workers, PhaseRun* run) {
  PhaseResult& r = run->result;
  Shared sh;
  sh.spec = &spec;
  sh.op_types = static_cast<uint32_t>(spec.op_types.size());
  sh.keep_raw = options.keep_raw_latencies;
  sh.keep_intervals = options.keep_interval_histograms;
  sh.series_interval_ns = options.series_interval_ns;
  if (spec.target_rate > 0) sh.period_ns = 1e9 * spec.threads / spec.target_rate;
  std::vector<std::unique_ptr<ThreadState>> states;
  for (uint32_t i = 0; i < spec.threads; ++i) states.push_back(std::make_unique<ThreadState>());
  const TscClock* tsc = ProcessTscClock();
  if (options.test_clock != nullptr)
    RunThreads(TestClockAdapter{options.test_clock}, sh, workers, states, options.at_measured_start);
  else if (tsc != nullptr)
    RunThreads(TscPhaseClock{tsc}, sh, workers, states, options.at_measured_start);
  else
    RunThreads(MonotonicClock{}, sh, workers, states, options.at_measured_start);
  Summarize(spec, sh, states, options, run);
  WriteTally written = Written(workers);
  written.commits -= sh.written_at_start.commits;
  written.logical_bytes -= sh.written_at_start.logical_bytes;
  r.resources = sh.meter.Finish(r.operations, written, 0, 0);
  r.incomplete = sh.interrupted.load();
  return sh.error;
}

}  // namespace

PhaseRun RunPhase(const PhaseIdentity& identity, Phase& phase, const PhaseRunOptions& options) {
  PhaseRun run;
  PhaseResult& r = run.result;
  const PhaseSpec& spec = phase.spec();
  Label(identity, spec, r);
  Status st = CheckSpec(spec);
  if (!st.ok()) {
    RecordFailure(r, st);
    return run;
  }
  st = SetUpAndSettle(phase, spec, options, r);
  if (!st.ok()) {
    RecordFailure(r, st);
    RecordFailure(r, phase.TearDown());
    return run;
  }
  {
    std::vector<std::unique_ptr<PhaseWorker>> workers;
    st = NewWorkers(phase, spec.threads, &workers);
    if (st.ok()) st = MeasureThreads(spec, options, workers, &run);
  }  // workers (and their sessions) are destroyed before TearDown
  if (!st.ok()) RecordFailure(r, st);
  Status down = phase.TearDown();
  // A phase cut short by Ctrl-C is incomplete, not failed: tear-down checks assume a finished phase
  // (YCSB counts the rows after its load).
  if (!down.ok() && !r.incomplete) RecordFailure(r, down.WithContext("tear-down"));
  return run;
}

}  // namespace dbxb
