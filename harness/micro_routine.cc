#include "harness/micro_routine.h"

#include <fmt/format.h>

#include <algorithm>

#include "harness/signal_handlers.h"

namespace dbxb {

void MicroRoutine::StartMeasuring() {
  meter_.BeginSpan();
  setup_meter_.BeginSpan();
  measuring_ = true;
}

ResourceUsage MicroRoutine::Resources(uint64_t iterations) const {
  WriteTally written;
  const WriteTally one = bench_->written_per_iteration();
  written.commits = one.commits * iterations;
  written.logical_bytes = one.logical_bytes * iterations;
  ResourceUsage usage = meter_.Finish(iterations * bench_->elements_per_iteration(), written, bench_->disk_bytes(),
                                      bench_->live_logical_bytes());
  if (bench_->fresh_state_per_iteration()) {
    usage.setup_fsync_calls = setup_meter_.spent().sync_calls;
    usage.setup_io_write_bytes = setup_meter_.spent().io_write_bytes;
  }
  return usage;
}

template <typename F>
Status MicroRoutine::Metered(ResourceMeter* meter, F body) {
  if (measuring_) meter->StartStretch();
  Status st = body();
  if (measuring_) meter->StopStretch();
  return st;
}

// One timed (and counted) RunIteration.
Status MicroRoutine::Timed(double* elapsed_ns) {
  Stopwatch watch;
  if (counter_ != nullptr) counter_->Resume();
  watch.Start();
  Status st = bench_->RunIteration();
  watch.AddElapsedTo(elapsed_ns);
  if (counter_ != nullptr) counter_->Pause();
  return st;
}

Status MicroRoutine::Run(uint64_t iterations, double* elapsed_ns) {
  if (bench_->fresh_state_per_iteration()) return RunFresh(iterations, elapsed_ns);
  if (counter_ != nullptr) {  // counted: one body at a time, so that nothing else is counted
    return Metered(&meter_, [&] {
      Status st;
      for (uint64_t i = 0; i < iterations && st.ok(); ++i) st = Timed(elapsed_ns);
      return st;
    });
  }
  return Metered(&meter_, [&] {
    // The whole loop timed at once: a clock read costs tens of nanoseconds.
    Stopwatch watch;
    watch.Start();
    Status st;
    for (uint64_t i = 0; i < iterations && st.ok(); ++i) {
      st = bench_->RunIteration();
      if (st.ok() && InterruptRequested()) st = Status::Interrupted();
    }
    watch.AddElapsedTo(elapsed_ns);
    return st;
  });
}

// Each iteration on fresh state: PrepareIteration and FinishIteration untimed (and metered apart).
Status MicroRoutine::RunFresh(uint64_t iterations, double* elapsed_ns) {
  for (uint64_t i = 0; i < iterations; ++i) {
    if (InterruptRequested()) return Status::Interrupted();
    DBXB_RETURN_IF_ERROR(Metered(&setup_meter_, [&] { return bench_->PrepareIteration(); }));
    Status st = Metered(&meter_, [&] { return Timed(elapsed_ns); });
    Status finished = Metered(&setup_meter_, [&] { return bench_->FinishIteration(); });
    DBXB_RETURN_IF_ERROR(st);
    DBXB_RETURN_IF_ERROR(finished);
  }
  return Status::Ok();
}

namespace {

// Why the count of a benchmark cannot be trusted, or "".
std::string RefusalOf(const AdapterFactory& engine, const ResourceUsage& spent, const InstructionCounter& counter) {
  if (engine.syncs_out_of_process)
    return fmt::format("{} does its work in its server process, which callgrind does not see", engine.name);
  if (spent.fsync_calls && *spent.fsync_calls > 0)
    return fmt::format(
        "the counted iterations synced {} times: their cost is the kernel's I/O, which callgrind "
        "does not count",
        *spent.fsync_calls);
  const double others = static_cast<double>(counter.others_ns());
  const double self = std::max(1.0, static_cast<double>(counter.self_ns()));
  if (others > kOtherThreadsShare * self)
    return fmt::format(
        "other threads of the engine ran {:.1f} ms during the counted iterations, {:.1f} % of the measuring "
        "thread's time (background work that valgrind's serialised scheduler places in the window or not)",
        others / 1e6, 100 * others / self);
  return "";
}

}  // namespace

Status RunCounted(MicroRoutine& routine, const AdapterFactory& engine, const std::string& name, BenchmarkResult* out) {
  double warmup_ns = 0;
  DBXB_RETURN_IF_ERROR(routine.Run(1, &warmup_ns));
  out->warmup_iterations = 1;
  out->warmup_ns = warmup_ns;
  InstructionCounter counter;
  routine.StartMeasuring();
  routine.CountWith(&counter);
  counter.Start();
  Status st;
  out->samples.clear();
  for (uint64_t i = 0; i < kCountedIterations && st.ok(); ++i) {
    Sample s{1, 0};
    st = routine.Run(1, &s.total_ns);
    out->samples.push_back(s);
  }
  auto total = counter.Finish(name);
  routine.CountWith(nullptr);
  DBXB_RETURN_IF_ERROR(st);
  DBXB_RETURN_IF_ERROR(total.status());
  out->sampling_mode = SamplingMode::kFlat;
  out->sampling_notes.push_back(fmt::format(
      "Counted under callgrind: {} iterations after one uncounted; the times are valgrind's, not comparable.",
      kCountedIterations));
  out->resources = routine.Resources(kCountedIterations);
  InstructionCount& c = out->instructions.emplace();
  c.instructions = total.value();
  c.iterations = kCountedIterations;
  c.operations = kCountedIterations * out->elements_per_iteration;
  c.per_op = c.operations > 0 ? static_cast<double>(c.instructions) / static_cast<double>(c.operations) : 0;
  c.tool = ValgrindVersion() + " callgrind";
  c.refused = RefusalOf(engine, *out->resources, counter);
  return Status::Ok();
}

}  // namespace dbxb
