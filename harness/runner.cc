#include "harness/runner.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/atomic_file.h"
#include "common/disk_usage.h"
#include "common/output_dir.h"
#include "harness/calibrate.h"
#include "harness/context.h"
#include "harness/hdr_log_writer.h"
#include "harness/interrupt.h"
#include "harness/memory/memory_limit.h"
#include "harness/phase_runner.h"
#include "harness/raw_latency_writer.h"
#include "harness/resources.h"
#include "harness/sampler.h"
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

constexpr const char* kOwnedMarker = ".dbx-bench-owned";

// Drives a MicroBenchmark as a sampler Routine: only RunIteration is timed. Once measuring, each Run
// (one sample) is a stretch of the benchmark's resources; for fresh-state benchmarks that includes
// each iteration's untimed open and close, where the engine writes its data.
class MicroRoutine final : public Routine {
 public:
  explicit MicroRoutine(MicroBenchmark* bench) : bench_(bench) {}

  void StartMeasuring() {
    meter_.BeginSpan();
    measuring_ = true;
  }
  ResourceUsage Resources(uint64_t iterations) const {
    WriteTally written;
    const WriteTally one = bench_->written_per_iteration();
    written.commits = one.commits * iterations;
    written.logical_bytes = one.logical_bytes * iterations;
    return meter_.Finish(iterations * bench_->elements_per_iteration(), written, bench_->disk_bytes(),
                         bench_->live_logical_bytes());
  }

  Status Run(uint64_t iterations, double* elapsed_ns) override {
    if (!measuring_) return RunIterations(iterations, elapsed_ns);
    meter_.StartStretch();
    Status st = RunIterations(iterations, elapsed_ns);
    meter_.StopStretch();
    return st;
  }

 private:
  Status RunIterations(uint64_t iterations, double* elapsed_ns) {
    Stopwatch watch;
    if (!bench_->fresh_state_per_iteration()) {
      watch.Start();
      for (uint64_t i = 0; i < iterations; ++i) {
        DBXB_RETURN_IF_ERROR(bench_->RunIteration());
        if (InterruptRequested()) return Status::Interrupted();
      }
      watch.AddElapsedTo(elapsed_ns);
      return Status::Ok();
    }
    for (uint64_t i = 0; i < iterations; ++i) {
      if (InterruptRequested()) return Status::Interrupted();
      DBXB_RETURN_IF_ERROR(bench_->PrepareIteration());
      watch.Start();
      Status st = bench_->RunIteration();
      watch.AddElapsedTo(elapsed_ns);
      Status finished = bench_->FinishIteration();
      DBXB_RETURN_IF_ERROR(st);
      DBXB_RETURN_IF_ERROR(finished);
    }
    return Status::Ok();
  }

  MicroBenchmark* bench_;
  ResourceMeter meter_;
  bool measuring_ = false;
};

// A directory this run creates (and marks) for its databases, removed at the end. The tool never
// deletes a path the user named: it works in a fresh sub-directory of it.
class WorkDir {
 public:
  ~WorkDir() { Remove(); }
  Status Create(const std::string& base_option) {
    std::error_code ec;
    fs::path base = base_option.empty() ? fs::temp_directory_path(ec) : fs::path(base_option);
    if (ec) return Status::IOError("no temporary directory: " + ec.message());
    if (!base_option.empty()) {
      if (fs::exists(base, ec) && !fs::is_directory(base, ec))
        return Status::InvalidArgument(fmt::format("--data-dir: '{}' is not a directory", base_option));
      fs::create_directories(base, ec);
      if (ec)
        return Status::InvalidArgument(fmt::format("--data-dir: cannot create '{}': {}", base_option, ec.message()));
    }
    std::string templ = (base / "dbx-bench-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr)
      return Status::InvalidArgument(
          fmt::format("--data-dir: cannot create a directory in '{}': {}", base.string(), std::strerror(errno)));
    // Searchable, not readable, by others: postgres's server runs as another account when we are root.
    (void)chmod(templ.c_str(), 0711);
    path_ = templ;
    std::ofstream marker(fs::path(path_) / kOwnedMarker);
    marker << "created by dbx-bench; removed when the run ends\n";
    return Status::Ok();
  }
  void Remove() {
    // Only a directory that carries our marker is ever removed.
    std::error_code ec;
    if (!path_.empty() && fs::exists(fs::path(path_) / kOwnedMarker, ec)) fs::remove_all(path_, ec);
    path_.clear();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One benchmark, start to finish. Failures become data in the result, never an abort of the run.
BenchmarkResult RunOne(const std::string& suite, const std::string& workload, const AdapterFactory& engine,
                       const KeyValues& parameters, const SamplingConfig& sampling, const MakeBenchmark& make,
                       ProgressLine* progress_line) {
  BenchmarkResult r;
  r.suite = suite;
  r.workload = workload;
  r.engine = engine.name;
  r.parameters = parameters;
  auto fail = [&](const Status& st) {
    r.error_occurred = true;
    r.error_message = st.ToString();
  };

  auto made = make();
  if (!made.ok()) {
    fail(made.status());
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
    std::string name = BenchmarkName(r);
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
    if (run.ok()) {
      RecordSampling(run.value(), &r);
      uint64_t iterations = 0;
      for (const Sample& sample : r.samples) iterations += sample.iterations;
      r.resources = routine.Resources(iterations);
      if (progress_line) progress_line->Analyzing(name);
      st = Analyze(r.samples, r.sampling_mode, r.elements_per_iteration, sampling, &r);
    } else {
      st = run.status();
    }
  }
  Status down = bench.TearDown();
  if (st.ok()) st = down;
  if (!st.ok()) fail(st);
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

// The phase runner measuring nothing but itself: an operation that does nothing.
class NoopWorker final : public PhaseWorker {
 public:
  Status NextOp(uint32_t* op) override {
    *op = 0;
    return Status::Ok();
  }
};

class NoopPhase final : public Phase {
 public:
  NoopPhase() {
    spec_.name = "noop";
    spec_.op_types = {"noop"};
    spec_.operations = 200000;
    spec_.warmup_operations = 10000;
  }
  const PhaseSpec& spec() const override { return spec_; }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t) override {
    return std::unique_ptr<PhaseWorker>(new NoopWorker);
  }

 private:
  PhaseSpec spec_;
};

// The phase runner's own cost per operation (clock read, histogram and interval records, the loop and
// its virtual call): the mean service time of an operation that does nothing.
std::optional<double> MeasurePhaseOverhead() {
  NoopPhase phase;
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
  RunResults* results;
  std::string work_dir;  // holds the one database a sequence has open
};

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

void Report(const PhaseRunContext& c, PhaseResult r) {
  c.results->phases.push_back(std::move(r));
  if (c.env.console) {
    if (c.progress) c.progress->Clear();
    c.console->ReportPhase(c.results->phases.back(), *c.env.console);
  }
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
  while (!InterruptRequested()) {
    auto next = seq.NextPhase();
    if (!next.ok()) {
      Report(c, FailedStep(suite, &seq, engine, "next phase", next.status()));
      break;
    }
    if (next.value() == nullptr) break;
    Phase& phase = *next.value();
    PhaseRunOptions options;
    options.keep_raw_latencies = c.raw != nullptr;
    options.keep_interval_histograms = !c.hdr_log_dir.empty();
    PhaseIdentity identity{suite, seq.workload(), seq.dataset(), engine.name, seq.engine_settings()};
    if (c.progress) {
      const PhaseSpec& spec = phase.spec();
      PhaseResult label;
      label.suite = identity.suite;
      label.workload = identity.workload;
      label.dataset = identity.dataset;
      label.phase = spec.name;
      label.engine = identity.engine;
      std::string bound = spec.operations > 0 ? fmt::format("{} operation{}", FormatInteger(spec.operations),
                                                            spec.operations == 1 ? "" : "s")
                                              : fmt::format("for {} s", spec.duration_seconds);
      c.progress->Running(PhaseName(label),
                          fmt::format("{} on {} thread{}", bound, spec.threads, spec.threads == 1 ? "" : "s"));
    }
    PhaseRun run = RunPhase(identity, phase, options);
    PhaseResult& r = run.result;
    if (r.resources) SetSpace(DirectoryBytes(c.work_dir), seq.live_logical_bytes(), &*r.resources);
    if (c.raw != nullptr && !run.raw_latencies.empty() && written.ok()) {
      std::vector<const RawLatencyBuffer*> buffers;
      for (const auto& b : run.raw_latencies) buffers.push_back(b.get());
      std::vector<std::string> op_types;
      for (const auto& o : r.per_op) op_types.push_back(o.name);
      written = c.raw->WritePhase(r.engine, r.dataset, r.workload.empty() ? r.phase : r.workload + "/" + r.phase,
                                  op_types, buffers);
    }
    if (written.ok() && !c.hdr_log_dir.empty()) written = WritePhaseHdrLog(c.hdr_log_dir, r, run);
    const bool failed = r.error_occurred;
    Report(c, std::move(r));
    if (failed) break;
  }
  st = seq.Close();
  if (!st.ok()) Report(c, FailedStep(suite, &seq, engine, "close", st));
  return written;
}

// The harness's side of a suite's Execute: measures, records and reports each benchmark or phase.
class HarnessRunner final : public SuiteRunner {
 public:
  HarnessRunner(const RunPlan& plan, const RunEnvironment& env, RawLatencyWriter* raw, ProgressLine* progress,
                RunResults* results, const std::string& work_dir)
      : plan_(plan),
        env_(env),
        progress_(progress),
        results_(results),
        console_(plan.baseline),
        phases_{plan.common.suite, env, &console_, progress, raw, plan.work->hdr_log, results, work_dir},
        memory_limits_(work_dir) {}

  bool interrupted() const override { return InterruptRequested(); }

  bool RunBenchmark(const std::string& workload, const AdapterFactory& engine, const KeyValues& parameters,
                    const SamplingConfig& sampling, const MakeBenchmark& make) override {
    BenchmarkResult r = RunOne(plan_.common.suite, workload, engine, parameters, sampling, make, progress_);
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
  if (!results.benchmarks.empty()) return true;
  for (const PhaseResult& p : results.phases)
    if (!p.incomplete) return true;
  return false;
}

Status ExecutePlan(const RunPlan& plan, const RunEnvironment& env, RunResults* results) {
  // Opened first, so that a path that cannot be written is bad input before anything else is created.
  std::unique_ptr<RawLatencyWriter> raw;
  if (!plan.work->raw_latencies.empty()) {
    raw = std::make_unique<RawLatencyWriter>();
    Status st = raw->Open(plan.work->raw_latencies);
    if (!st.ok()) return Status::InvalidArgument("--raw-latencies: " + st.message());
  }
  if (!plan.work->hdr_log.empty()) DBXB_RETURN_IF_ERROR(PrepareHdrLogDir(plan.work->hdr_log));
  // The data directory before the output directory, so that a bad --data-dir is reported before
  // --out is touched. Both are removed again on any early return (the output directory only if this
  // run created it).
  WorkDir work;
  DBXB_RETURN_IF_ERROR(work.Create(plan.data_dir));
  OutputDir out;
  DBXB_RETURN_IF_ERROR(out.Prepare(plan.out_dir));

  RunContext& ctx = results->context;
  CollectMachineAndBuild(&ctx);
  for (const auto* f : plan.common.engines) ctx.libraries.push_back(DescribeLibrary(*f));
  ctx.command_line = env.command_line;
  ctx.configuration = plan.configuration;
  ctx.configuration.emplace_back("data_dir", work.path());
  ctx.configuration.emplace_back("data_dir_filesystem", FileSystemType(work.path()));
  ctx.configuration.emplace_back("out_dir", plan.out_dir);
  // Which clock timed every operation (the calibrated TSC or CLOCK_MONOTONIC, and why).
  if (plan.phase_suite()) ctx.configuration.emplace_back("latency_clock", PhaseClockDescription());
  ctx.seed = plan.common.seed;
  ctx.sampling = plan.work->sampling;

  std::unique_ptr<ProgressLine> progress;
  if (env.console) progress = std::make_unique<ProgressLine>(*env.console, env.console_is_tty);

  if (plan.phase_suite() && plan.common.measure_overhead) ctx.harness_overhead_ns_per_op = MeasurePhaseOverhead();
  if (plan.calibrate) Calibrate(plan, env, work.path(), &ctx.calibration);
  HarnessRunner runner(plan, env, raw.get(), progress.get(), results, work.path());
  Status st = plan.work->Execute(work.path(), runner);
  if (st.ok()) runner.Finish();
  if (st.ok() && raw) st = raw->Close();
  // An interrupt before anything finished leaves nothing to write: --out stays as it was.
  if (st.ok() && (!ctx.incomplete || AnythingFinished(*results))) out.Keep();
  return st;
}

Status WriteOutputs(const RunPlan& plan, const RunResults& results) {
  for (const auto& name : plan.formats) {
    const OutputFormat* format = FindOutputFormat(name);
    if (format == nullptr) return Status::InvalidArgument("--format: unknown format '" + name + "'");
    std::ostringstream text;
    DBXB_RETURN_IF_ERROR(format->make(plan.baseline)->Write(results, text));
    DBXB_RETURN_IF_ERROR(WriteFileAtomically((fs::path(plan.out_dir) / format->file_name).string(), text.str()));
  }
  return Status::Ok();
}

}  // namespace dbxb
