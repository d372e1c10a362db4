// The ycsb suite as `run` sees it: its options, their defaults and its plan (workloads/suite.h).
#include <fmt/format.h>

#include <algorithm>

#include "workloads/suite.h"
#include "workloads/ycsb_suite.h"

namespace dbxb {
namespace {

// --quick: at most this many records and run operations per workload file (YCSB's own files have 1000).
constexpr uint64_t kQuickRecords = 10000;
constexpr uint64_t kQuickOperations = 10000;

struct YcsbFile {
  std::string path;
  std::string name;  // "workloada"
  YcsbWorkload workload;
};

// The least a workload file's run takes on each engine, and the data it loads, checked before the run:
// a rate too slow for its operations is refused by name; the largest data set is the plan's data_bytes.
Status PlanFileLimits(const YcsbWorkload& w, const std::string& path, const PhaseSuiteOptions& o, SuitePlan* plan,
                      double* seconds) {
  const double phase = PhaseLowerBoundSeconds(w.operation_count, o.duration_seconds, o.target_rate, o.warmup_seconds);
  if (o.target_rate > 0 && !(o.duration_seconds > 0)) {
    DBXB_RETURN_IF_ERROR(CheckPlannedSeconds(
        phase, fmt::format("--target-rate: {} operations of {} at {} ops/s", w.operation_count, path, o.target_rate)));
  }
  *seconds = phase;
  const bool constant = w.field_length_distribution == YcsbWorkload::FieldLengthDistribution::kConstant;
  const uint64_t record = w.field_count * (constant ? w.field_length : w.min_field_length);  // at most 2^62
  const uint64_t bytes = record == 0 ? 0 : w.insert_count > UINT64_MAX / record ? UINT64_MAX : w.insert_count * record;
  if (bytes > plan->data_bytes) {
    plan->data_bytes = bytes;
    plan->data_description =
        fmt::format("workload file {}: {} records of at least {} bytes", path, w.insert_count, record);
  }
  return Status::Ok();
}

// "--duration 120h, --phase-warmup 1s": the options that bound the phases, for messages.
std::string BoundingOptions(const SuiteArgs& args) {
  std::string out;
  for (const char* option : {"duration", "target-rate", "phase-warmup"})
    if (args.Given(option)) out += fmt::format("{}--{} {}", out.empty() ? "" : ", ", option, args.Text(option));
  return out;
}

class YcsbPlan final : public SuitePlan {
 public:
  Status Execute(const std::string& work_dir, SuiteRunner& runner) override {
    PhaseSuiteOptions o = options;
    o.work_dir = work_dir;
    for (const YcsbFile& f : files) {
      for (const AdapterFactory* engine : engines) {
        if (runner.interrupted()) return Status::Ok();
        auto seq = MakeYcsbSequence(f.workload, f.name, *engine, o);
        if (!seq.ok()) {
          DBXB_RETURN_IF_ERROR(runner.RunSequences(*engine, seq.status()));
          continue;
        }
        std::vector<std::unique_ptr<PhaseSequence>> one;
        one.push_back(std::move(seq.value()));
        DBXB_RETURN_IF_ERROR(runner.RunSequences(*engine, std::move(one)));
      }
    }
    return Status::Ok();
  }

  std::vector<const AdapterFactory*> engines;
  PhaseSuiteOptions options;
  std::vector<YcsbFile> files;
};

class YcsbSuite final : public Suite {
 public:
  std::string_view name() const override { return "ycsb"; }
  std::string summary() const override {
    return "workloads: any YCSB CoreWorkload file (--workload FILE), e.g. workloads/ycsb/workloada..f";
  }
  std::string quick_summary() const override {
    return fmt::format("at most {} records and {} operations per workload file", kQuickRecords, kQuickOperations);
  }
  SuiteRecords records() const override { return SuiteRecords::kPhases; }
  // Engines as deployed.
  Durability default_durability() const override { return Durability::kNormal; }

  const std::vector<SuiteOption>& options() const override {
    static const std::vector<SuiteOption> options = [] {
      std::vector<SuiteOption> o = {{"workload", "YCSB workload file(s), comma-separated (implies --suite ycsb)", ""}};
      for (SuiteOption& p : PhaseSuiteOptionList(
               fmt::format("the file's recordcount (--quick: at most {})", kQuickRecords),
               fmt::format("the file's operationcount (--quick: at most {})", kQuickOperations), "none", "none"))
        o.push_back(std::move(p));
      return o;
    }();
    return options;
  }

  bool ImpliedBy(const SuiteArgs& args) const override { return args.Given("workload"); }
  bool SplitsBetweenClients() const override { return true; }

  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    auto plan = std::make_unique<YcsbPlan>();
    plan->engines = common.engines;
    PhaseSuiteOptions& o = plan->options;
    DBXB_RETURN_IF_ERROR(ParsePhaseSuiteArgs(args, common, &o, plan.get()));
    if (!args.Given("workload"))
      return Status::InvalidArgument(
          "--workload: the ycsb suite needs a workload file, e.g. --workload workloads/ycsb/workloada");
    std::vector<std::string> paths;
    double seconds = 0;
    for (const std::string& path : args.List("workload")) {
      if (path.empty()) return Status::InvalidArgument("--workload: empty file name in the list");
      // The parser's own message names the file, the line and the problem.
      auto loaded = LoadYcsbWorkloadFile(path);
      if (!loaded.ok()) return Status::InvalidArgument(loaded.status().message());
      for (const std::string& w : loaded->warnings) plan->warnings.push_back("warning: " + w);
      PhaseSuiteOptions file_options = o;
      if (common.quick && o.records == 0 && loaded->record_count > kQuickRecords) file_options.records = kQuickRecords;
      const bool many_operations = loaded->operation_count == 0 || loaded->operation_count > kQuickOperations;
      if (common.quick && o.operations == 0 && many_operations) file_options.operations = kQuickOperations;
      auto applied = ApplyYcsbOverrides(loaded.value(), file_options);
      if (!applied.ok()) return Status::InvalidArgument(applied.status().message());
      // Client i of n loads the i-th n-th of the records (MakeYcsbSequence): every client at least one.
      if (common.client_count > 1 && applied->insert_count < common.client_count)
        return Status::InvalidArgument(fmt::format(
            "--records: {} loads {} record{}, fewer than --clients {}: each client loads a share, at least one", path,
            applied->insert_count, applied->insert_count == 1 ? "" : "s", common.client_count));
      double file_seconds = 0;
      DBXB_RETURN_IF_ERROR(PlanFileLimits(applied.value(), path, file_options, plan.get(), &file_seconds));
      seconds += file_seconds * static_cast<double>(common.engines.size());
      plan->files.push_back(YcsbFile{path, YcsbWorkloadName(path), std::move(applied.value())});
      paths.push_back(path);
      plan->input_files.push_back(path);
      // Combinations an engine cannot run (e.g. the null engine with time-bound inserts) are bad input.
      for (const AdapterFactory* engine : common.engines) {
        auto seq = MakeYcsbSequence(plan->files.back().workload, plan->files.back().name, *engine, o);
        if (!seq.ok())
          return Status::InvalidArgument(fmt::format("--engines {}: {}", engine->name, seq.status().message()));
      }
    }
    DBXB_RETURN_IF_ERROR(CheckPlannedSeconds(
        seconds, fmt::format("{} workload file{} on {} engine{} with {}", paths.size(), paths.size() == 1 ? "" : "s",
                             common.engines.size(), common.engines.size() == 1 ? "" : "s", BoundingOptions(args))));
    std::string files;
    for (const auto& p : paths) files += (files.empty() ? "" : ", ") + p;
    plan->configuration = {{"workload_files", files}};
    for (auto& kv : PhaseSuiteConfiguration(o, *plan)) plan->configuration.push_back(std::move(kv));
    plan->configuration.emplace_back("cache_bytes", std::to_string(common.cache_bytes));
    if (common.quick) plan->configuration.emplace_back("quick", "true");
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }
};

}  // namespace

std::unique_ptr<Suite> NewYcsbSuite() { return std::make_unique<YcsbSuite>(); }

}  // namespace dbxb
