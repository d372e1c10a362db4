// Suites: what `dbx-bench run --suite NAME` runs. A suite owns its name, its options (with their
// defaults, normal and --quick), their validation, its plan and the order of its work; the harness owns
// the command line, the clocks, the sampler, the phase runner, the console and the output files.
//
// The harness calls, in order:
//   suite.Plan(args, common)          validates the suite's options; InvalidArgument "--option: problem"
//   plan->Execute(work_dir, runner)   runs the work through the runner (SuiteRunner below), which
//                                     measures, records and reports every benchmark or phase
//
// Adding a suite: a folder under workloads/ with the suite's benchmarks or phases and a Suite subclass,
// and one line in workloads/builtin_suites.cc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "records/result.h"
#include "workloads/micro_suite.h"
#include "workloads/phase.h"

namespace dbxb {

/// Which result records a suite produces: sampled benchmarks (BenchmarkResult, as dbx-micro) or
/// phases measured operation by operation (PhaseResult, as ycsb and sqlite-vps).
enum class SuiteRecords { kBenchmarks, kPhases };

/// One `run` option a suite takes beyond the options of every run (SuiteCommon). The CLI declares each
/// name once for all suites; an option given to a suite that does not declare it is refused.
struct SuiteOption {
  std::string name;          ///< without the dashes: "records"
  std::string help;          ///< what it sets, e.g. "records in the data set"
  std::string default_text;  ///< the suite's default, for --help: "10000 (--quick: 1000)"
};

/// The suite options as given, with typed access. Every getter leaves *out unchanged when the option
/// was not given and returns InvalidArgument "--name: problem" for a value it cannot accept.
class SuiteArgs {
 public:
  virtual ~SuiteArgs() = default;
  /// The text given ("" when not given: an empty value is refused before a suite sees it).
  virtual const std::string& Text(std::string_view option) const = 0;
  bool Given(std::string_view option) const { return !Text(option).empty(); }
  /// A count ("10000", "10k", "1M") in [min, max].
  [[nodiscard]] virtual Status Count(std::string_view option, uint64_t min, uint64_t max, uint64_t* out) const = 0;
  /// A count in [min, max] that fits 32 bits (thread counts).
  [[nodiscard]] Status Count32(std::string_view option, uint64_t min, uint64_t max, uint32_t* out) const {
    uint64_t v = *out;
    Status st = Count(option, min, max, &v);
    *out = static_cast<uint32_t>(v);
    return st;
  }
  /// A byte size ("64MiB", "1G").
  [[nodiscard]] virtual Status Bytes(std::string_view option, uint64_t* out) const = 0;
  /// A duration ("5s", "500ms") of at least min_seconds.
  [[nodiscard]] virtual Status Duration(std::string_view option, double min_seconds, double* out) const = 0;
  /// A positive rate in operations per second ("5000", "2.5k").
  [[nodiscard]] virtual Status Rate(std::string_view option, double* out) const = 0;
  /// The items of a comma-separated list (an empty item is refused by the caller's own check).
  std::vector<std::string> List(std::string_view option) const;
};

/// What the harness has validated for every suite before Plan: the options of every run.
struct SuiteCommon {
  std::string suite;                            ///< the suite's name, as recorded in every result
  std::vector<const AdapterFactory*> engines;   ///< in the order given, at least one
  Durability durability = Durability::kNormal;  ///< --durability, or the suite's default_durability()
  uint64_t cache_bytes = 64ull << 20;           ///< --cache-size, or 64 MiB
  bool cache_size_given = false;                ///< --cache-size was given (some suites size caches themselves)
  uint64_t seed = 1;
  bool quick = false;            ///< --quick: the suite's short defaults
  bool measure_overhead = true;  ///< not --no-overhead
  bool settle = true;            ///< not --no-settle: settle engines after a load (Adapter::Settle)
  /// --engine-option settings, validated against each engine's native_option_keys; a suite passes them
  /// to every adapter after its own native options (AdapterOptions::native_options).
  std::vector<std::pair<std::string, std::string>> native_options;
  /// This process is client `client_index` (0-based) of `client_count` processes sharing each database
  /// (`run --clients`, harness/clients.h); 1 for a run of its own.
  uint32_t client_index = 0;
  uint32_t client_count = 1;
};

/// A sampled benchmark to make, on one engine; called once per measurement.
using MakeBenchmark = std::function<Result<std::unique_ptr<MicroBenchmark>>()>;

/// How a suite's plan runs its work: the harness's side of Execute. Not thread-safe; used on the
/// thread that called Execute.
class SuiteRunner {
 public:
  virtual ~SuiteRunner() = default;
  /// True once the user interrupted the run: Execute should return at once (what finished is written).
  virtual bool interrupted() const = 0;
  /// Samples the benchmark `make` creates (SetUp, sampling, TearDown) and records it as `workload` on
  /// `engine`, with `parameters`. A failing benchmark is recorded as failed; false when the run was
  /// interrupted meanwhile (nothing recorded).
  virtual bool RunBenchmark(const std::string& workload, const AdapterFactory& engine, const KeyValues& parameters,
                            const SamplingConfig& sampling, const MakeBenchmark& make) = 0;
  /// The harness's own cost per operation, measured on `make` (a benchmark on the null engine), briefly
  /// sampled; recorded in the run's context. Phase suites need not call it: the runner measures its own.
  virtual void MeasureOverhead(const MakeBenchmark& make, const SamplingConfig& sampling) = 0;
  /// Runs every phase of every sequence, in order, recording and reporting each; a sequence that fails
  /// stops, the next one runs. A failed `sequences` is recorded as a failed "plan" step of `engine`.
  /// Non-OK only when the run as a whole cannot go on (the raw latencies cannot be written).
  [[nodiscard]] virtual Status RunSequences(const AdapterFactory& engine,
                                            Result<std::vector<std::unique_ptr<PhaseSequence>>> sequences) = 0;
};

/// A suite's validated plan: what Execute will run.
class SuitePlan {
 public:
  virtual ~SuitePlan() = default;
  /// Runs the whole plan through `runner`, databases under `work_dir` (which the harness removes).
  /// Non-OK only when the run as a whole cannot proceed.
  [[nodiscard]] virtual Status Execute(const std::string& work_dir, SuiteRunner& runner) = 0;

  /// Every suite option as used, defaults filled in (recorded in results.json after suite and engines).
  KeyValues configuration;
  /// The sampling of a benchmark suite (recorded in the run's context; the default for phase suites).
  SamplingConfig sampling;
  /// Phase suites: the --raw-latencies CSV path; empty = not written. The harness opens it first.
  std::string raw_latencies;
  /// Phase suites: the --hdr-log directory (one HdrHistogram interval log per phase); empty = none.
  std::string hdr_log;
  /// Things the user should know before the run starts, one line each (printed to stderr).
  std::vector<std::string> warnings;
  /// The files the plan read (e.g. --workload files): inputs of the run, which no output may replace.
  std::vector<std::string> input_files;
  /// The least data one database of the run holds, in bytes (its largest data set as loaded; 0 when
  /// unknown), and what it is, for the message when it cannot fit ("workload file x: 10 records of 100
  /// bytes"). The harness checks it against the free space of --data-dir before the run.
  uint64_t data_bytes = 0;
  std::string data_description;
};

/// The longest a run may be planned to take: a week, as each of --duration and --measurement.
inline constexpr double kMaxPlannedSeconds = 7 * 24 * 3600.0;

/// "3.2 days", "5 h", "90 s": a planned time, for messages.
std::string DescribeSeconds(double seconds);

/// InvalidArgument "<what> would take at least <time>, more than a week" when `seconds` (the least time
/// a plan takes, known from its options) exceeds kMaxPlannedSeconds; `what` names the options.
[[nodiscard]] Status CheckPlannedSeconds(double seconds, std::string_view what);

/// The least time one measured phase takes: its duration bound, or its `operations` at `target_rate`
/// (open loop), whichever ends it first (0 when neither bounds it), plus its warm-up time.
double PhaseLowerBoundSeconds(uint64_t operations, double duration_seconds, double target_rate, double warmup_seconds);

class Suite {
 public:
  virtual ~Suite() = default;
  /// "dbx-micro": --suite NAME, and the suite of every result it produces.
  virtual std::string_view name() const = 0;
  /// One line for `list`, e.g. "workloads: insert get scan count".
  virtual std::string summary() const = 0;
  /// What --quick changes, for --help, e.g. "0.5 s warm-up, 1 s measurement, 20 samples".
  virtual std::string quick_summary() const = 0;
  virtual SuiteRecords records() const = 0;
  /// The durability the suite runs at unless --durability is given.
  virtual Durability default_durability() const = 0;
  /// The options the suite takes beyond SuiteCommon's.
  virtual const std::vector<SuiteOption>& options() const = 0;
  /// True when the suite can run `engine` (default: every engine). An engine it cannot run is left out of
  /// the default engine list, and is bad input when --engines names it.
  virtual bool Runs(const AdapterFactory& /*engine*/) const { return true; }
  /// True when the suite is the one to run when --suite is not given and `args` are (e.g. ycsb when
  /// --workload is given). At most one registered suite claims any arguments.
  virtual bool ImpliedBy(const SuiteArgs&) const { return false; }
  /// False when the suite runs its engines as code it replicates opens them (the seed suite), so that
  /// the engine settings every run takes (--durability, --cache-size, --engine-option, --no-settle) are
  /// not applied: the harness refuses them as bad input and records none, so that no result carries a
  /// setting that was not run.
  virtual bool AppliesEngineSettings() const { return true; }
  /// True when several client processes can run the suite on one database together (`run --clients`):
  /// each loads its share of the rows and inserts in key ranges of its own (SuiteCommon::client_index).
  virtual bool SplitsBetweenClients() const { return false; }
  /// Validates `args` (only options() are given; the harness refused the others) and plans the run.
  /// InvalidArgument names the option and the problem, in one line.
  virtual Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const = 0;
};

/// --workloads of a suite whose workloads are `known`: the ones given, in their order, or all of `known`.
/// InvalidArgument for an unknown workload or one named twice.
[[nodiscard]] Status ParseWorkloadList(const SuiteArgs& args, std::string_view suite,
                                       const std::vector<std::string>& known, std::vector<std::string>* out);
/// The items joined with ", ".
std::string JoinNames(const std::vector<std::string>& items);

/// The sampling options of a sampled-benchmark suite (Criterion's), in --help's order: warmup,
/// measurement, samples, sampling, resamples.
std::vector<SuiteOption> SamplingSuiteOptionList();
/// Criterion's defaults (3 s warm-up, 5 s measurement, 100 samples), shortened by --quick (0.5 s, 1 s, 20),
/// then the options given, into *sampling; their values as used appended to *configuration.
/// InvalidArgument "--option: problem".
[[nodiscard]] Status ParseSamplingArgs(const SuiteArgs& args, const SuiteCommon& common, SamplingConfig* sampling,
                                       KeyValues* configuration);
/// What --quick does to the sampling, for `quick_summary`.
std::string QuickSamplingSummary();

/// The options every phase suite takes, in the order --help lists them: records, threads, operations,
/// duration, phase-warmup, target-rate, load-batch, raw-latencies, hdr-log; the `*_default` texts describe the
/// suite's own defaults for --help.
std::vector<SuiteOption> PhaseSuiteOptionList(const std::string& records_default, const std::string& operations_default,
                                              const std::string& duration_default, const std::string& warmup_default);
/// Parses those options into *options (with common's seed, durability and cache size) and plan's
/// raw_latencies and hdr_log. InvalidArgument "--option: problem".
[[nodiscard]] Status ParsePhaseSuiteArgs(const SuiteArgs& args, const SuiteCommon& common, PhaseSuiteOptions* options,
                                         SuitePlan* plan);
/// The configuration entries of those options, as used ("default" where the suite decides).
KeyValues PhaseSuiteConfiguration(const PhaseSuiteOptions& options, const SuitePlan& plan);

/// The suites a run can choose from, in registration order. Filled once, then read-only.
class SuiteRegistry {
 public:
  void Register(std::unique_ptr<Suite> suite) { suites_.push_back(std::move(suite)); }
  /// nullptr when no suite has that name.
  const Suite* Find(std::string_view name) const;
  /// The registered suites, in registration order; the first is the default suite.
  const std::vector<std::unique_ptr<Suite>>& suites() const { return suites_; }
  std::vector<std::string> names() const;

 private:
  std::vector<std::unique_ptr<Suite>> suites_;
};

/// Registers dbx-micro (the default), ycsb and sqlite-vps (workloads/builtin_suites.cc).
void RegisterBuiltinSuites(SuiteRegistry* registry);
/// A registry holding the built-in suites, created on first use.
const SuiteRegistry& BuiltinSuites();

}  // namespace dbxb
