// The dbx-micro suite as `run` sees it: its options, their defaults and its plan (workloads/suite.h).
#include <fmt/format.h>

#include <algorithm>

#include "stats/bootstrap.h"
#include "workloads/micro_suite.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Criterion's sampling, shortened by --quick.
constexpr double kQuickWarmupSeconds = 0.5;
constexpr double kQuickMeasurementSeconds = 1.0;
constexpr uint64_t kQuickSamples = 20;
constexpr uint64_t kDefaultRecords = 10000;
constexpr uint64_t kDefaultKeySize = 12;
constexpr uint64_t kDefaultValueSize = 19;

class DbxMicroPlan final : public SuitePlan {
 public:
  Status Execute(const std::string& work_dir, SuiteRunner& runner) override {
    auto dataset = Dataset::Make(shape);
    if (!dataset.ok()) return Status::InvalidArgument(dataset.status().message());
    MicroConfig config;
    config.dataset = dataset.value();
    config.engine_options.durability = common.durability;
    config.engine_options.cache_bytes = common.cache_bytes;
    config.engine_options.native_options = common.native_options;
    config.work_dir = work_dir;
    config.seed = common.seed;
    config.settle = common.settle;
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
      for (const AdapterFactory* engine : common.engines) {
        // false: interrupted; what finished is kept by the runner.
        if (!runner.RunBenchmark(workload, *engine, parameters, sampling, maker(workload, *engine)))
          return Status::Ok();
      }
    }
    return Status::Ok();
  }

  SuiteCommon common;
  std::vector<std::string> workloads;
  DatasetShape shape;
};

class DbxMicroSuite final : public Suite {
 public:
  std::string_view name() const override { return "dbx-micro"; }
  std::string summary() const override {
    std::string out = "workloads:";
    for (const auto& w : MicroWorkloadNames()) out += " " + w;
    return out;
  }
  std::string quick_summary() const override {
    return fmt::format("{} s warm-up, {} s measurement, {} samples", kQuickWarmupSeconds, kQuickMeasurementSeconds,
                       kQuickSamples);
  }
  SuiteRecords records() const override { return SuiteRecords::kBenchmarks; }
  // The DBX team's comparison runs at memory speed.
  Durability default_durability() const override { return Durability::kNone; }

  const std::vector<SuiteOption>& options() const override {
    static const std::vector<SuiteOption> options = {
        {"workloads", "Comma-separated workloads or phases of the suite (see list)", "all"},
        {"records", "Records in the data set (10000, 10k, 1M)", std::to_string(kDefaultRecords)},
        {"key-size", "Key size in bytes (>= 12)", std::to_string(kDefaultKeySize)},
        {"value-size", "Value size in bytes (>= 19)", std::to_string(kDefaultValueSize)},
        {"warmup", "Warm-up time", fmt::format("3s (--quick: {}s)", kQuickWarmupSeconds)},
        {"measurement", "Measurement time", fmt::format("5s (--quick: {}s)", kQuickMeasurementSeconds)},
        {"samples", "Samples per benchmark (at least 10)", fmt::format("100 (--quick: {})", kQuickSamples)},
        {"sampling", "auto | linear | flat (auto as Criterion)", "auto"},
        {"resamples", "Bootstrap resamples", "100000"},
    };
    return options;
  }

  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    auto plan = std::make_unique<DbxMicroPlan>();
    plan->common = common;
    const auto& known = MicroWorkloadNames();
    if (!args.Given("workloads")) plan->workloads = known;
    for (const auto& w : args.List("workloads")) {
      if (std::find(known.begin(), known.end(), w) == known.end())
        return Status::InvalidArgument(
            fmt::format("--workloads: unknown workload '{}' for suite {} (known: {})", w, name(), Join(known)));
      if (std::find(plan->workloads.begin(), plan->workloads.end(), w) != plan->workloads.end())
        return Status::InvalidArgument(fmt::format("--workloads: workload '{}' named twice", w));
      plan->workloads.push_back(w);
    }
    DatasetShape& shape = plan->shape;
    shape.records = kDefaultRecords;
    shape.key_size = kDefaultKeySize;
    shape.value_size = kDefaultValueSize;
    DBXB_RETURN_IF_ERROR(args.Count("records", 1, 100000000, &shape.records));
    DBXB_RETURN_IF_ERROR(args.Count("key-size", 12, 1 << 20, &shape.key_size));
    DBXB_RETURN_IF_ERROR(args.Count("value-size", 19, 64 << 20, &shape.value_size));
    if (shape.records * (shape.key_size + shape.value_size) > (64ull << 30))
      return Status::InvalidArgument("--records: the data set would be larger than 64 GiB");

    // Criterion's defaults, --quick shortens them, explicit options override both.
    SamplingConfig& s = plan->sampling;
    if (common.quick) {
      s.warmup_seconds = kQuickWarmupSeconds;
      s.measurement_seconds = kQuickMeasurementSeconds;
      s.sample_count = kQuickSamples;
    }
    DBXB_RETURN_IF_ERROR(args.Duration("warmup", 0.001, &s.warmup_seconds));
    DBXB_RETURN_IF_ERROR(args.Duration("measurement", 0.001, &s.measurement_seconds));
    DBXB_RETURN_IF_ERROR(args.Count("samples", 10, 100000, &s.sample_count));
    DBXB_RETURN_IF_ERROR(args.Count("resamples", 1000, kMaxResamples, &s.bootstrap_resamples));
    const std::string& mode = args.Text("sampling");
    if (mode == "linear") {
      s.forced_sampling_mode = SamplingMode::kLinear;
    } else if (mode == "flat") {
      s.forced_sampling_mode = SamplingMode::kFlat;
    } else if (!mode.empty() && mode != "auto") {
      return Status::InvalidArgument(fmt::format("--sampling: '{}' is not one of auto, linear, flat", mode));
    }
    s.seed = common.seed;

    plan->configuration = {
        {"workloads", Join(plan->workloads)},
        {"records", std::to_string(shape.records)},
        {"key_size", std::to_string(shape.key_size)},
        {"value_size", std::to_string(shape.value_size)},
        {"cache_bytes", std::to_string(common.cache_bytes)},
        {"warmup_seconds", fmt::format("{}", s.warmup_seconds)},
        {"measurement_seconds", fmt::format("{}", s.measurement_seconds)},
        {"samples", std::to_string(s.sample_count)},
        {"bootstrap_resamples", std::to_string(s.bootstrap_resamples)},
        {"sampling_mode", mode.empty() ? "auto" : mode},
        {"confidence_level", fmt::format("{}", s.confidence_level)},
    };
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }
};

}  // namespace

std::unique_ptr<Suite> NewDbxMicroSuite() { return std::make_unique<DbxMicroSuite>(); }

}  // namespace dbxb
