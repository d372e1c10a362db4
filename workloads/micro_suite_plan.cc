// The dbx-micro suite as `run` sees it: its options, their defaults and its plan (workloads/suite.h).
#include <fmt/format.h>

#include <algorithm>

#include "workloads/micro_suite.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

constexpr uint64_t kDefaultRecords = 10000;
constexpr uint64_t kDefaultKeySize = 12;
constexpr uint64_t kDefaultValueSize = 19;

class DbxMicroPlan final : public SuitePlan {
 public:
  Status Execute(const std::string& work_dir, SuiteRunner& runner) override {
    auto dataset = Dataset::Make(shape);
    if (!dataset.ok() && dataset.status().IsInterrupted()) return Status::Ok();  // nothing ran: nothing to keep
    if (!dataset.ok()) return Status::InvalidArgument(dataset.status().message());
    MicroConfig config;
    config.dataset = dataset.value();
    config.engine_options.durability = common.durability;
    config.engine_options.cache_bytes = common.cache_bytes;
    config.engine_options.native_options = common.native_options;
    config.work_dir = work_dir;
    config.seed = common.seed;
    config.settle = common.settle;
    config.threads = threads;
    auto maker = [&config](const std::string& workload, const AdapterFactory& engine) -> MakeBenchmark {
      return [&config, workload, &engine] { return MakeMicroBenchmark(workload, engine, config); };
    };
    // The harness's own cost: the get workload on the null adapter.
    const AdapterFactory* null = BuiltinAdapters().Find("null");
    if (common.measure_overhead && null != nullptr) runner.MeasureOverhead(maker("get", *null), sampling);
    const KeyValues parameters = {{"records", std::to_string(shape.records)},
                                  {"key_size", std::to_string(shape.key_size)},
                                  {"value_size", std::to_string(shape.value_size)},
                                  {"durability", std::string(DurabilityName(common.durability))},
                                  {"cache_bytes", std::to_string(common.cache_bytes)}};
    for (const std::string& workload : workloads) {
      // Recorded only above one thread, so that one-thread results match those of earlier runs.
      KeyValues with_threads = parameters;
      if (threads > 1 && MicroWorkloadTakesThreads(workload))
        with_threads.emplace_back("threads", std::to_string(threads));
      for (const AdapterFactory* engine : common.engines) {
        // false: interrupted; what finished is kept by the runner.
        if (!runner.RunBenchmark(workload, *engine, with_threads, sampling, maker(workload, *engine)))
          return Status::Ok();
      }
    }
    return Status::Ok();
  }

  SuiteCommon common;
  std::vector<std::string> workloads;
  DatasetShape shape;
  uint32_t threads = 1;
};

class DbxMicroSuite final : public Suite {
 public:
  std::string_view name() const override { return "dbx-micro"; }
  std::string summary() const override {
    std::string out = "workloads:";
    for (const auto& w : MicroWorkloadNames()) out += " " + w;
    return out;
  }
  std::string quick_summary() const override { return QuickSamplingSummary(); }
  SuiteRecords records() const override { return SuiteRecords::kBenchmarks; }
  // The DBX team's comparison runs at memory speed.
  Durability default_durability() const override { return Durability::kNone; }

  const std::vector<SuiteOption>& options() const override {
    static const std::vector<SuiteOption> options = [] {
      std::vector<SuiteOption> o = {
          {"workloads", "Comma-separated workloads or phases of the suite (see list)", "all"},
          {"records", "Records in the data set (10000, 10k, 1M)", std::to_string(kDefaultRecords)},
          {"key-size", "Key size in bytes (>= 12)", std::to_string(kDefaultKeySize)},
          {"value-size", "Value size in bytes (>= 19)", std::to_string(kDefaultValueSize)},
          {"threads",
           "Worker threads, one session each (dbx-micro: threads sharing each get and scan iteration; phase suites: "
           "per phase)",
           "1"},
      };
      for (auto& s : SamplingSuiteOptionList()) o.push_back(std::move(s));
      return o;
    }();
    return options;
  }

  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    auto plan = std::make_unique<DbxMicroPlan>();
    plan->common = common;
    DBXB_RETURN_IF_ERROR(ParseWorkloadList(args, name(), MicroWorkloadNames(), &plan->workloads));
    DatasetShape& shape = plan->shape;
    shape.records = kDefaultRecords;
    shape.key_size = kDefaultKeySize;
    shape.value_size = kDefaultValueSize;
    DBXB_RETURN_IF_ERROR(args.Count("records", 1, 100000000, &shape.records));
    DBXB_RETURN_IF_ERROR(args.Count("key-size", 12, 1 << 20, &shape.key_size));
    DBXB_RETURN_IF_ERROR(args.Count("value-size", 19, 64 << 20, &shape.value_size));
    if (shape.records * (shape.key_size + shape.value_size) > (64ull << 30))
      return Status::InvalidArgument("--records: the data set would be larger than 64 GiB");
    for (const AdapterFactory* engine : common.engines) {
      if (engine->max_key_bytes != 0 && shape.key_size > engine->max_key_bytes)
        return Status::InvalidArgument(
            fmt::format("--key-size: {} bytes is longer than the longest key {} stores ({} bytes)", shape.key_size,
                        engine->name, engine->max_key_bytes));
    }
    DBXB_RETURN_IF_ERROR(args.Count32("threads", 1, 1024, &plan->threads));
    for (const std::string& w : plan->workloads) {
      if (plan->threads > 1 && !MicroWorkloadTakesThreads(w))
        return Status::InvalidArgument(
            fmt::format("--threads: dbx-micro's {} runs on one thread (--threads applies to get and scan); give "
                        "--workloads get,scan",
                        w));
    }

    plan->configuration = {
        {"workloads", JoinNames(plan->workloads)},    {"records", std::to_string(shape.records)},
        {"key_size", std::to_string(shape.key_size)}, {"value_size", std::to_string(shape.value_size)},
        {"threads", std::to_string(plan->threads)},   {"cache_bytes", std::to_string(common.cache_bytes)},
    };
    // Criterion's defaults, --quick shortens them, explicit options override both.
    DBXB_RETURN_IF_ERROR(ParseSamplingArgs(args, common, &plan->sampling, &plan->configuration));
    const SamplingConfig& s = plan->sampling;
    const double each = s.warmup_seconds + s.measurement_seconds;
    DBXB_RETURN_IF_ERROR(
        CheckPlannedSeconds(each * static_cast<double>(plan->workloads.size() * common.engines.size()),
                            fmt::format("{} workload{} on {} engine{}, each {} s of --warmup and --measurement",
                                        plan->workloads.size(), plan->workloads.size() == 1 ? "" : "s",
                                        common.engines.size(), common.engines.size() == 1 ? "" : "s", each)));
    plan->data_bytes = shape.records * (shape.key_size + shape.value_size);
    plan->data_description =
        fmt::format("the dbx-micro data set: {} records of {} bytes", shape.records, shape.key_size + shape.value_size);
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }
};

}  // namespace

std::unique_ptr<Suite> NewDbxMicroSuite() { return std::make_unique<DbxMicroSuite>(); }

}  // namespace dbxb
