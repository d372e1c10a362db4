#include "harness/runner.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/disk_usage.h"
#include "common/output_dir.h"
#include "harness/calibrate.h"
#include "harness/capacity.h"
#include "harness/client_barrier.h"
#include "harness/context.h"
#include "harness/fixed_phase.h"
#include "harness/hdr_log_writer.h"
#include "harness/memory/memory_limit.h"
#include "harness/micro_routine.h"
#include "harness/phase_runner.h"
#include "harness/raw_latency_writer.h"
#include "harness/resources.h"
#include "harness/sampler.h"
#include "harness/signal_handlers.h"
#include "harness/work_dir.h"
#include "records/json_results.h"
#include "records/record_names.h"
#include "stats/estimates.h"
#include "writers/console_reporter.h"
#include "writers/format.h"
#include "writers/markdown_phases.h"
#include "writers/markdown_reporter.h"
#include "writers/output_formats.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

// Samples `routine` by the clock (Criterion's method) into *r.
Status SampleByClock(MicroRoutine& routine, const SamplingConfig& sampling, ProgressLine* progress_line,
                     BenchmarkResult* r) {
  const std::string name = BenchmarkName(*r);
  ProgressFn progress = [&](const SamplingProgress& p) {
    const bool measuring = p.phase == SamplingProgress::Phase::kMeasuring;
    if (measuring && p.samples_done == 0) routine.StartMeasuring();
    if (progress_line == nullptr) return;
    if (!measuring)
      progress_line->WarmingUp(name, sampling.warmup_seconds);
    else
      progress_line->Collecting(name, p.samples_done, p.sample_count);
  };
  auto run = RunSampling(routine, sampling, progress);
  if (!run.ok()) return run.status();
  RecordSampling(run.value(), r);
  uint64_t iterations = 0;
  for (const Sample& sample : r->samples) iterations += sample.iterations;
  r->resources = routine.Resources(iterations);
  if (progress_line) progress_line->Analyzing(name);
  return Status::Ok();
}

// One benchmark, start to finish: sampled by the clock, or counted in instructions (`run --measure
// instructions`, under callgrind). Failures become data in the result, never an abort of the run.
BenchmarkResult RunOne(const std::string& suite, const std::string& workload, const AdapterFactory& engine,
                       const KeyValues& parameters, const SamplingConfig& sampling, const MakeBenchmark& make,
                       ProgressLine* progress_line, bool count_instructions = false) {
  BenchmarkResult r;
  r.suite = suite;
  r.workload = workload;
  r.engine = engine.name;
  r.parameters = parameters;
  auto made = make();
  if (!made.ok()) {
    r.error_occurred = true;
    r.error_message = made.status().ToString();
    return r;
  }
  MicroBenchmark& bench = *made.value();
  r.elements_per_iteration = bench.elements_per_iteration();
  Status st = bench.SetUp();
  if (st.ok() && bench.settles()) {
    Stopwatch settle;
    st = bench.Settle().WithContext("settle");
    r.settle_ns = settle.ElapsedNs();
  }
  if (st.ok()) {
    r.engine_settings = bench.engine_settings();
    r.checksum = bench.checksum();
    MicroRoutine routine(&bench);
    if (count_instructions && progress_line) progress_line->Collecting(BenchmarkName(r), 0, kCountedIterations);
    st = count_instructions ? RunCounted(routine, engine, BenchmarkName(r), &r)
                            : SampleByClock(routine, sampling, progress_line, &r);
    if (st.ok()) st = Analyze(r.samples, r.sampling_mode, r.elements_per_iteration, sampling, &r);
  }
  Status down = bench.TearDown();
  if (st.ok()) st = down;
  if (!st.ok()) {
    r.error_occurred = true;
    r.error_message = st.ToString();
  }
  return r;
}

// The harness's own cost per operation: `make` (on the null adapter), briefly sampled.
std::optional<double> MeasureOverhead(const std::string& suite, const MakeBenchmark& make, const AdapterFactory& engine,
                                      const SamplingConfig& sampling) {
  SamplingConfig quick = sampling;
  quick.warmup_seconds = 0.2;
  quick.measurement_seconds = 0.5;
  quick.sample_count = 10;
  quick.bootstrap_resamples = 1000;
  BenchmarkResult r = RunOne(suite, "overhead", engine, {}, quick, make, nullptr);
  if (r.error_occurred || r.elements_per_iteration == 0) return std::nullopt;
  return r.estimates.median.point / static_cast<double>(r.elements_per_iteration);
}

// --- Phase suites (ycsb, sqlite-vps) ---

// The phase runner's own cost per operation (clock read, histogram and interval records, the loop and
// its virtual call): the mean service time of an operation that does nothing.
std::optional<double> MeasurePhaseOverhead() {
  PhaseSpec spec;
  spec.name = "noop";
  spec.op_types = {"noop"};
  spec.operations = 200000;
  spec.warmup_operations = 10000;
  EmptyPhase phase(std::move(spec));
  PhaseRun run = RunPhase({"harness", "", "", "none", {}}, phase);
  if (run.result.error_occurred || run.result.incomplete) return std::nullopt;
  return run.result.service_time.mean_ns;
}

// What the runner needs while it runs phases.
struct PhaseRunContext {
  const std::string& suite;
  const RunEnvironment& env;
  ConsoleReporter* console;
  ProgressLine* progress;          // may be null
  RawLatencyWriter* raw;           // null = no raw latencies
  const std::string& hdr_log_dir;  // empty = no HdrHistogram interval logs
  const FilePolicy& files;
  RunResults* results;
  std::string work_dir;                    // holds the one database a sequence has open
  ClientBarrier* barrier = nullptr;        // a client of run --clients: meets the others at every phase
  const CapacityPlan* capacity = nullptr;  // --sla: search each repeatable phase's capacity
};

// A client of run --clients waits for the others at `tag` (harness/client_barrier.h); false when the
// run must stop instead. A run of its own goes on at once.
bool Meet(const PhaseRunContext& c, const std::string& tag) {
  return c.barrier == nullptr || c.barrier->Wait(tag).ok();
}

PhaseResult FailedStep(const std::string& suite, const PhaseSequence* seq, const AdapterFactory& engine,
                       const std::string& step, const Status& st) {
  PhaseResult r;
  r.suite = suite;
  if (seq != nullptr) {
    r.workload = seq->workload();
    r.dataset = seq->dataset();
  }
  r.engine = engine.name;
  r.phase = step;
  r.error_occurred = true;
  r.error_message = st.ToString();
  return r;
}

// run --sla: the phase's capacity instead of one measurement, recorded and printed. False when a step failed.
bool SearchCapacity(const PhaseRunContext& c, const PhaseIdentity& identity, Phase& phase,
                    const PhaseRunOptions& options) {
  CapacityResult r = RunCapacitySearch(identity, phase, *c.capacity, options, {c.env.progress});
  if (c.env.console) {
    if (c.progress) c.progress->Clear();
    *c.env.console << CapacitySummaryLine(r) << "\n";
  }
  const bool failed = r.error_occurred;
  c.results->capacity.push_back(std::move(r));
  return !failed;
}

void Report(const PhaseRunContext& c, PhaseResult r) {
  if (r.error_occurred && c.barrier != nullptr) c.barrier->Fail(PhaseName(r) + " failed: " + r.error_message);
  c.results->phases.push_back(std::move(r));
  if (c.env.console) {
    if (c.progress) c.progress->Clear();
    c.console->ReportPhase(c.results->phases.back(), *c.env.console);
  }
}

// Shows the phase about to run on the progress line, with what bounds it (a capacity search, an
// operation count or a duration) and its threads. Nothing without a progress line.
void ShowRunning(const PhaseRunContext& c, const PhaseIdentity& identity, const PhaseSpec& spec) {
  if (!c.progress) return;
  PhaseResult label;
  NamePhase(identity, spec.name, label);
  std::string bound = c.capacity != nullptr && spec.repeatable ? "a capacity search at " + c.capacity->sla.text
                      : spec.operations > 0 ? fmt::format("{} operation{}", FormatInteger(spec.operations),
                                                          spec.operations == 1 ? "" : "s")
                                            : fmt::format("for {} s", spec.duration_seconds);
  c.progress->Running(PhaseName(label),
                      fmt::format("{} on {} thread{}", bound, spec.threads, spec.threads == 1 ? "" : "s"));
}

// Writes the phase's raw latencies and HdrHistogram interval log when the run asks for them, unless an
// earlier write already failed (`written`). Returns the first write failure of the run so far.
Status WritePhaseOutputs(const PhaseRunContext& c, const PhaseRun& run, Status written) {
  const PhaseResult& r = run.result;
  if (c.raw != nullptr && !run.raw_latencies.empty() && written.ok()) {
    std::vector<const RawLatencyBuffer*> buffers;
    for (const auto& b : run.raw_latencies) buffers.push_back(b.get());
    std::vector<std::string> op_types;
    for (const auto& o : r.per_op) op_types.push_back(o.name);
    written = c.raw->WritePhase(r.engine, r.dataset, r.workload.empty() ? r.phase : r.workload + "/" + r.phase,
                                op_types, buffers);
  }
  if (written.ok() && !c.hdr_log_dir.empty()) written = WritePhaseHdrLog(c.files, c.hdr_log_dir, r, run);
  return written;
}

// Runs one sequence to its end (or its first failure, or an interrupt), reporting each phase as it
// finishes. Returns a non-OK status only when the raw latencies cannot be written.
Status RunSequence(const PhaseRunContext& c, PhaseSequence& seq, const AdapterFactory& engine) {
  const std::string& suite = c.suite;
  Status st = seq.Open();
  if (!st.ok()) {
    Report(c, FailedStep(suite, &seq, engine, "open", st));
    (void)seq.Close();
    return Status::Ok();
  }
  Status written;
  const std::string where = fmt::format("{}/{}/{}/{}", suite, seq.workload(), seq.dataset(), engine.name);
  while (!InterruptRequested()) {
    auto next = seq.NextPhase();
    if (!next.ok()) {
      Report(c, FailedStep(suite, &seq, engine, "next phase", next.status()));
      break;
    }
    if (next.value() == nullptr) break;
    Phase& phase = *next.value();
    const std::string tag = where + " " + phase.spec().name;
    if (!Meet(c, "phase " + tag)) break;  // every client finished the phase before
    PhaseRunOptions options;
    options.keep_raw_latencies = c.raw != nullptr;
    options.keep_interval_histograms = !c.hdr_log_dir.empty();
    if (c.barrier != nullptr) options.at_measured_start = [&c, tag] { (void)Meet(c, "measure " + tag); };
    PhaseIdentity identity{suite, seq.workload(), seq.dataset(), engine.name, seq.engine_settings()};
    ShowRunning(c, identity, phase.spec());
    if (c.capacity != nullptr && phase.spec().repeatable) {
      if (!SearchCapacity(c, identity, phase, options)) break;
      continue;
    }
    PhaseRun run = RunPhase(identity, phase, options);
    PhaseResult& r = run.result;
    if (r.resources) SetSpace(DirectoryBytes(c.work_dir), seq.live_logical_bytes(), &*r.resources);
    written = WritePhaseOutputs(c, run, std::move(written));
    const bool failed = r.error_occurred;
    Report(c, std::move(r));
    if (failed || !Meet(c, "end " + tag)) break;
  }
  (void)Meet(c, "close " + where);  // no client closes a shared database while another uses it
  st = seq.Close();
  if (!st.ok()) Report(c, FailedStep(suite, &seq, engine, "close", st));
  (void)Meet(c, "closed " + where);  // the run clears what the clients shared of the database on a server
  return written;
}

// The harness's side of a suite's Execute: measures, records and reports each benchmark or phase.
class HarnessRunner final : public SuiteRunner {
 public:
  HarnessRunner(const RunPlan& plan, const RunEnvironment& env, RawLatencyWriter* raw, ProgressLine* progress,
                RunResults* results, const std::string& work_dir, ClientBarrier* barrier)
      : plan_(plan),
        env_(env),
        progress_(progress),
        results_(results),
        console_(plan.baseline),
        phases_{plan.common.suite,
                env,
                &console_,
                progress,
                raw,
                plan.work->hdr_log,
                *env.files,
                results,
                work_dir,
                barrier,
                plan.capacity ? &*plan.capacity : nullptr},
        memory_limits_(work_dir) {}

  bool interrupted() const override { return InterruptRequested(); }

  bool RunBenchmark(const std::string& workload, const AdapterFactory& engine, const KeyValues& parameters,
                    const SamplingConfig& sampling, const MakeBenchmark& make) override {
    BenchmarkResult r =
        RunOne(plan_.common.suite, workload, engine, parameters, sampling, make, progress_, plan_.measure_instructions);
    // What was cut short is not a result: keep only the benchmarks that finished.
    if (InterruptRequested()) return false;
    results_->benchmarks.push_back(std::move(r));
    if (env_.console) {
      progress_->Clear();
      console_.ReportBenchmark(results_->benchmarks.back(), *env_.console);
    }
    return true;
  }

  void MeasureOverhead(const MakeBenchmark& make, const SamplingConfig& sampling) override {
    const AdapterFactory* null = BuiltinAdapters().Find("null");
    if (null != nullptr)
      results_->context.harness_overhead_ns_per_op = dbxb::MeasureOverhead(plan_.common.suite, make, *null, sampling);
  }

  Status RunSequences(const AdapterFactory& engine,
                      Result<std::vector<std::unique_ptr<PhaseSequence>>> sequences) override {
    if (!sequences.ok()) {
      Report(phases_, FailedStep(plan_.common.suite, nullptr, engine, "plan", sequences.status()));
      return Status::Ok();
    }
    memory_limits_.Apply(&sequences.value());
    for (auto& seq : sequences.value()) {
      if (InterruptRequested()) break;
      DBXB_RETURN_IF_ERROR(RunSequence(phases_, *seq, engine));
    }
    return Status::Ok();
  }

  // After Execute: marks an interrupted run incomplete, else prints the summary.
  void Finish() {
    if (InterruptRequested()) {
      results_->context.incomplete = true;
      if (progress_) progress_->Clear();
      return;
    }
    if (env_.console) console_.ReportSummary(*results_, *env_.console);
  }

 private:
  const RunPlan& plan_;
  const RunEnvironment& env_;
  ProgressLine* progress_;
  RunResults* results_;
  ConsoleReporter console_;
  PhaseRunContext phases_;
  MemoryLimits memory_limits_;
};

// run --calibrate: `dbx-bench calibrate`'s measurement, with its defaults, for every engine of the run
// that has a native loop, before the suite runs (on a machine not yet warmed by it).
void Calibrate(const RunPlan& plan, const RunEnvironment& env, const std::string& work_dir,
               std::vector<CalibrationResult>* rows) {
  constexpr uint64_t kRecords = 10'000, kRounds = 21;
  const std::string dir = work_dir + "/calibrate";
  bool header = false;
  for (const AdapterFactory* engine : plan.common.engines) {
    if (!HasNativeLoop(*engine)) continue;
    for (const std::string& workload : CalibrationWorkloads()) {
      if (InterruptRequested()) return;
      rows->push_back(CalibrateOne(*engine, workload, kRecords, kRounds, dir));
      if (env.console == nullptr) continue;
      if (!header) *env.console << "Native-loop calibration (harness / native):\n" << CalibrationHeader();
      header = true;
      *env.console << CalibrationLine(rows->back());
      env.console->flush();
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace

bool AnythingFinished(const RunResults& results) {
  if (!results.benchmarks.empty() || !results.capacity.empty()) return true;
  for (const PhaseResult& p : results.phases)
    if (!p.incomplete) return true;
  return false;
}

Status ExecutePlan(const RunPlan& plan, const RunEnvironment& env, RunResults* results) {
  // Opened first, so that a path that cannot be written is bad input before anything else is created.
  std::unique_ptr<RawLatencyWriter> raw;
  if (!plan.work->raw_latencies.empty()) {
    raw = std::make_unique<RawLatencyWriter>();
    Status st = raw->Open(*env.files, plan.work->raw_latencies);
    if (!st.ok()) return Status::InvalidArgument(st.message());  // wherever it failed: bad input
  }
  if (!plan.work->hdr_log.empty()) DBXB_RETURN_IF_ERROR(PrepareHdrLogDir(plan.work->hdr_log));
  // The data directory before the output directory, so that a bad --data-dir is reported before
  // --out is touched. Both are removed again on any early return (the output directory only if this
  // run created it).
  // A client of run --clients works in the run's directory, which its parent made and removes.
  WorkDir own_work;
  if (plan.client_work_dir.empty()) DBXB_RETURN_IF_ERROR(own_work.Create(plan.data_dir));
  const std::string& work_path = plan.client_work_dir.empty() ? own_work.path() : plan.client_work_dir;
  std::unique_ptr<ClientBarrier> barrier;
  if (!plan.client_work_dir.empty()) barrier = std::make_unique<ClientBarrier>(kClientBarrierFd);
  OutputDir out;
  DBXB_RETURN_IF_ERROR(out.Prepare(plan.out_dir));

  RunContext& ctx = results->context;
  CollectMachineAndBuild(&ctx);
  for (const auto* f : plan.common.engines) ctx.libraries.push_back(DescribeLibrary(*f));
  ctx.command_line = env.command_line;
  ctx.configuration = plan.configuration;
  ctx.configuration.emplace_back("data_dir", work_path);
  ctx.configuration.emplace_back("data_dir_filesystem", FileSystemType(work_path));
  ctx.configuration.emplace_back("out_dir", plan.out_dir);
  // Which clock timed every operation (the calibrated TSC or CLOCK_MONOTONIC, and why).
  if (plan.phase_suite()) ctx.configuration.emplace_back("latency_clock", PhaseClockDescription());
  ctx.seed = plan.common.seed;
  ctx.sampling = plan.work->sampling;

  std::unique_ptr<ProgressLine> progress;
  if (env.console) progress = std::make_unique<ProgressLine>(*env.console, env.console_is_tty);

  if (plan.phase_suite() && plan.common.measure_overhead) ctx.harness_overhead_ns_per_op = MeasurePhaseOverhead();
  if (plan.calibrate) Calibrate(plan, env, work_path, &ctx.calibration);
  HarnessRunner runner(plan, env, raw.get(), progress.get(), results, work_path, barrier.get());
  Status st = plan.work->Execute(work_path, runner);
  if (st.ok()) runner.Finish();
  if (st.ok() && raw) st = raw->Close();
  // An interrupt before anything finished leaves nothing to write: --out stays as it was.
  if (st.ok() && (!ctx.incomplete || AnythingFinished(*results))) out.Keep();
  return st;
}

Status CheckRunOutputs(const RunPlan& plan, const FilePolicy& files) {
  DBXB_RETURN_IF_ERROR(CheckOutputDirectory("--out", plan.out_dir));
  std::error_code ec;
  if (fs::is_directory(plan.out_dir, ec)) {
    for (const auto& name : plan.formats) {
      const OutputFormat* format = FindOutputFormat(name);
      if (format == nullptr) return Status::InvalidArgument("--format: unknown format '" + name + "'");
      DBXB_RETURN_IF_ERROR(files.CheckOutputFile("--out", (fs::path(plan.out_dir) / format->file_name).string()));
    }
  }
  if (!plan.work->raw_latencies.empty())
    DBXB_RETURN_IF_ERROR(files.CheckOutputFile("--raw-latencies", plan.work->raw_latencies));
  if (!plan.work->hdr_log.empty()) DBXB_RETURN_IF_ERROR(CheckOutputDirectory("--hdr-log", plan.work->hdr_log));
  return Status::Ok();
}

Status WriteOutputs(const RunPlan& plan, const RunResults& results, const FilePolicy& files) {
  for (const auto& name : plan.formats) {
    const OutputFormat* format = FindOutputFormat(name);
    if (format == nullptr) return Status::InvalidArgument("--format: unknown format '" + name + "'");
    std::ostringstream text;
    DBXB_RETURN_IF_ERROR(format->make(plan.baseline)->Write(results, text));
    DBXB_RETURN_IF_ERROR(
        files.WriteOutputFile("--out", (fs::path(plan.out_dir) / format->file_name).string(), text.str()));
  }
  return Status::Ok();
}

}  // namespace dbxb
