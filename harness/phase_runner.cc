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
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "harness/interrupt.h"
#include "harness/resources.h"
#include "harness/tsc_clock.h"
#include "records/hdr_encoding.h"
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
// evenly), sleeping until then (clock_nanosleep with a 1 ns timer slack, re-checked against the clock) when it is
// ahead; when it is behind it issues at once. Each operation then records its service time (completion - actual issue)
// and its latency from the intended start (completion - intended), which keeps the queueing delay a slow operation
// causes for its successors (coordinated omission corrected). Warm-up always runs closed loop.
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

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

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

// What every thread of a phase shares. Written before the threads start or by the barrier's
// completion (which happens-before every thread's release), except the atomics and the error.
struct Shared {
  const PhaseSpec* spec = nullptr;
  uint32_t op_types = 0;
  bool keep_raw = false;
  bool keep_intervals = false;
  uint64_t series_interval_ns = 0;
  uint64_t start_ns = 0;
  double start_unix_s = 0;  // the same instant on the wall clock (for logs and merges across hosts)
  uint64_t deadline_ns = kNever;
  double period_ns = 0;  // open loop: time between two operations of one thread
  // Resources of the measured part: read by the barrier's completion, before the start clock, and
  // again after the threads joined.
  ResourceMeter meter;
  const std::vector<std::unique_ptr<PhaseWorker>>* workers = nullptr;
  WriteTally written_at_start;

  alignas(64) std::atomic<bool> stop{false};
  std::atomic<bool> interrupted{false};

  std::mutex mu;
  Status error;  // the first failure, with its thread
  void Fail(uint32_t thread, const Status& st) {
    std::lock_guard<std::mutex> lock(mu);
    if (error.ok()) error = st.WithContext(fmt::format("thread {}", thread));
    stop.store(true, std::memory_order_relaxed);
  }
};

// One thread's measurements, allocated by that thread (first-touch memory on its node).
struct alignas(64) ThreadState {
  std::vector<LatencyHistogram> service;
  std::vector<LatencyHistogram> from_intended;  // open loop only
  std::unique_ptr<IntervalRecorder> series;
  std::vector<IntervalRecorder> interval_service;        // per op type, when Shared::keep_intervals
  std::vector<IntervalRecorder> interval_from_intended;  // the same, open loop
  std::unique_ptr<RawLatencyBuffer> raw;
  uint64_t warmup_ops = 0;
  uint64_t ops = 0;
  uint64_t last_end_ns = 0;
  bool started = false;  // reached the measured loop
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

// The measured loop, closed: the completion of one operation is the start of the next.
template <class Clock>
Status ClosedLoop(Clock& clock, Shared& sh, ThreadState& ts, PhaseWorker& worker, uint64_t limit) {
  LatencyHistogram* const service = ts.service.data();
  IntervalRecorder& series = *ts.series;
  IntervalRecorder* const intervals = ts.interval_service.empty() ? nullptr : ts.interval_service.data();
  RawLatencyBuffer* const raw = ts.raw.get();
  const uint32_t types = sh.op_types;
  const uint64_t start = sh.start_ns, deadline = sh.deadline_ns;
  uint64_t t = clock.Now();
  uint64_t n = 0;
  Status st;
  while (n < limit && !ShouldStop(sh)) {
    uint32_t op = 0;
    st = worker.NextOp(&op);
    const uint64_t end = clock.Now();
    if (!st.ok()) [[unlikely]]
      break;
    if (op >= types) [[unlikely]] {
      st = BadOpIndex(op, types);
      break;
    }
    const uint64_t latency = end - t;
    service[op].Record(latency);
    series.Record(end, latency);
    if (intervals != nullptr) intervals[op].Record(end, latency);
    if (raw != nullptr) {
      const uint64_t since = t > start ? t - start : 0;
      raw->Append(op, since, latency, since);
    }
    t = end;
    ++n;
    if (end >= deadline) break;
  }
  ts.ops = n;
  ts.last_end_ns = t;
  return st;
}

// The measured loop, open: operation n is due at start + (n + offset) * period.
template <class Clock>
Status OpenLoop(Clock& clock, Shared& sh, ThreadState& ts, PhaseWorker& worker, uint64_t limit, double offset) {
  LatencyHistogram* const service = ts.service.data();
  LatencyHistogram* const from_intended = ts.from_intended.data();
  IntervalRecorder& series = *ts.series;
  IntervalRecorder* const intervals = ts.interval_service.empty() ? nullptr : ts.interval_service.data();
  IntervalRecorder* const intervals_intended =
      ts.interval_from_intended.empty() ? nullptr : ts.interval_from_intended.data();
  RawLatencyBuffer* const raw = ts.raw.get();
  const uint32_t types = sh.op_types;
  const uint64_t start = sh.start_ns, deadline = sh.deadline_ns;
  const double period = sh.period_ns;
  uint64_t prev_end = clock.Now();
  uint64_t n = 0;
  Status st;
  while (n < limit && !ShouldStop(sh)) {
    const uint64_t intended = start + static_cast<uint64_t>((static_cast<double>(n) + offset) * period);
    if (intended >= deadline) break;  // nothing is scheduled past the duration bound
    uint64_t issued = prev_end;
    if (issued < intended) {
      clock.SleepUntil(intended);
      issued = clock.Now();
    }
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
    from_intended[op].Record(end - intended);
    series.Record(end, latency);
    if (intervals != nullptr) {
      intervals[op].Record(end, latency);
      intervals_intended[op].Record(end, end - intended);
    }
    if (raw != nullptr) raw->Append(op, issued - start, latency, intended - start);
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
  return spec.target_rate > 0 ? OpenLoop(clock, sh, ts, worker, limit, static_cast<double>(index) / spec.threads)
                              : ClosedLoop(clock, sh, ts, worker, limit);
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
                std::vector<std::unique_ptr<ThreadState>>& states) {
  const PhaseSpec& spec = *sh.spec;
  sh.workers = &workers;
  sh.meter.BeginSpan();
  auto completion = [&sh, clock]() noexcept {
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

void Summarize(const PhaseSpec& spec, const Shared& sh, std::vector<std::unique_ptr<ThreadState>>& states,
               const PhaseRunOptions& options, PhaseRun* run) {
  PhaseResult& r = run->result;
  const int ticks = options.percentile_ticks_per_half_distance;
  const bool open = spec.target_rate > 0;
  uint64_t last_end = sh.start_ns;
  for (const auto& ts : states) {
    r.warmup_operations += ts->warmup_ops;
    r.operations += ts->ops;
    if (ts->started && ts->ops > 0) last_end = std::max(last_end, ts->last_end_ns);
  }
  r.duration_ns = static_cast<double>(last_end - sh.start_ns);
  r.start_unix_s = sh.start_unix_s;
  const double seconds = r.duration_ns / 1e9;
  auto rate = [&](uint64_t count) { return seconds > 0 ? static_cast<double>(count) / seconds : 0.0; };
  r.throughput_ops_per_sec = rate(r.operations);

  run->service_time = std::make_unique<LatencyHistogram>();
  LatencyHistogram all_intended;
  for (uint32_t op = 0; op < sh.op_types; ++op) {
    LatencyHistogram service, intended;
    for (const auto& ts : states) {
      if (op < ts->service.size()) service.Merge(ts->service[op]);
      if (op < ts->from_intended.size()) intended.Merge(ts->from_intended[op]);
    }
    run->service_time->Merge(service);
    all_intended.Merge(intended);
    OpTypeResult o;
    o.name = spec.op_types[op];
    o.count = service.Count();
    o.throughput_ops_per_sec = rate(o.count);
    o.service_time = SummarizeLatency(service, ticks);
    if (open) o.latency_from_intended_start = SummarizeLatency(intended, ticks);
    r.per_op.push_back(std::move(o));
  }
  r.service_time = SummarizeLatency(*run->service_time, ticks);
  if (open) r.latency_from_intended_start = SummarizeLatency(all_intended, ticks);

  // The time series: every thread's intervals added up; intervals after the one holding the last
  // completion (reserved but not reached) dropped; the last one's rate taken over its real length
  // (over the nominal length when the last completion fell exactly on its start).
  IntervalRecorder series(sh.start_ns, options.series_interval_ns);
  for (const auto& ts : states) {
    if (ts->series) (void)series.Merge(*ts->series);  // same start and geometry by construction
  }
  const double interval_s = static_cast<double>(options.series_interval_ns) / 1e9;
  for (const IntervalRecorder::Point& p : series.Series()) {
    if (p.start_s > seconds) break;
    SecondSample s;
    s.second = p.start_s;
    s.operations = p.operations;
    const double rest = seconds - p.start_s;
    const double length = rest > 0 && rest < interval_s ? rest : interval_s;
    s.ops_per_sec = length > 0 ? static_cast<double>(p.operations) / length : 0.0;
    s.p99_ns = static_cast<double>(p.p99_ns);
    r.per_second.push_back(s);
  }
  if (options.keep_interval_histograms) {
    for (uint32_t op = 0; op < sh.op_types; ++op) {
      const int digits = LatencyHistogram().significant_digits();
      run->interval_service.emplace_back(sh.start_ns, options.series_interval_ns, digits);
      if (open) run->interval_from_intended.emplace_back(sh.start_ns, options.series_interval_ns, digits);
      for (const auto& ts : states) {
        if (op < ts->interval_service.size()) (void)run->interval_service[op].Merge(ts->interval_service[op]);
        if (op < ts->interval_from_intended.size())
          (void)run->interval_from_intended[op].Merge(ts->interval_from_intended[op]);
      }
    }
  }
  if (options.keep_raw_latencies) {
    for (auto& ts : states) {
      if (ts->raw) run->raw_latencies.push_back(std::move(ts->raw));
    }
  }
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

PhaseRun RunPhase(const PhaseIdentity& identity, Phase& phase, const PhaseRunOptions& options) {
  PhaseRun run;
  PhaseResult& r = run.result;
  const PhaseSpec& spec = phase.spec();
  r.suite = identity.suite;
  r.workload = identity.workload;
  r.dataset = identity.dataset;
  r.engine = identity.engine;
  r.engine_settings = identity.engine_settings;
  r.phase = spec.name;
  r.parameters = spec.parameters;
  for (const auto& [key, value] : spec.parameters)
    if (key == kMemoryMethodParameter) r.memory_method = value;
  r.threads = spec.threads;
  r.target_rate = spec.target_rate;
  r.rows_per_operation = spec.rows_per_operation;
  auto fail = [&](const Status& st) {
    if (r.error_occurred) return;
    r.error_occurred = true;
    r.error_message = st.ToString();
  };

  Status st = CheckSpec(spec);
  if (!st.ok()) {
    fail(st);
    return run;
  }
  st = phase.SetUp();
  if (!st.ok()) {
    st = st.WithContext("set-up");
  } else if (spec.settle) {
    auto now = [&] { return options.test_clock != nullptr ? options.test_clock->now_ns() : MonotonicNowNs(); };
    const uint64_t start = now();
    st = phase.Settle();
    r.settle_ns = static_cast<double>(now() - start);
    if (!st.ok()) st = st.WithContext("settle");
  }
  if (!st.ok()) {
    fail(st);
    fail(phase.TearDown());
    return run;
  }

  Shared sh;
  sh.spec = &spec;
  sh.op_types = static_cast<uint32_t>(spec.op_types.size());
  sh.keep_raw = options.keep_raw_latencies;
  sh.keep_intervals = options.keep_interval_histograms;
  sh.series_interval_ns = options.series_interval_ns;
  if (spec.target_rate > 0) sh.period_ns = 1e9 * spec.threads / spec.target_rate;

  {
    std::vector<std::unique_ptr<PhaseWorker>> workers;
    for (uint32_t i = 0; i < spec.threads && st.ok(); ++i) {
      auto w = phase.NewWorker(i);
      if (w.ok())
        workers.push_back(std::move(w.value()));
      else
        st = w.status().WithContext(fmt::format("thread {}: new worker", i));
    }
    if (st.ok()) {
      std::vector<std::unique_ptr<ThreadState>> states;
      for (uint32_t i = 0; i < spec.threads; ++i) states.push_back(std::make_unique<ThreadState>());
      const TscClock* tsc = ProcessTscClock();
      if (options.test_clock != nullptr)
        RunThreads(TestClockAdapter{options.test_clock}, sh, workers, states);
      else if (tsc != nullptr)
        RunThreads(TscPhaseClock{tsc}, sh, workers, states);
      else
        RunThreads(MonotonicClock{}, sh, workers, states);
      Summarize(spec, sh, states, options, &run);
      WriteTally written = Written(workers);
      written.commits -= sh.written_at_start.commits;
      written.logical_bytes -= sh.written_at_start.logical_bytes;
      r.resources = sh.meter.Finish(r.operations, written, 0, 0);
      st = sh.error;
      r.incomplete = sh.interrupted.load();
    }
  }  // workers (and their sessions) are destroyed before TearDown
  if (!st.ok()) fail(st);
  Status down = phase.TearDown();
  if (!down.ok()) fail(down.WithContext("tear-down"));
  return run;
}

}  // namespace dbxb
