#include "workloads/suite.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/units.h"
#include "stats/bootstrap.h"

namespace dbxb {

std::vector<std::string> SuiteArgs::List(std::string_view option) const {
  const std::string& text = Text(option);
  return text.empty() ? std::vector<std::string>{} : SplitList(text);
}

const Suite* SuiteRegistry::Find(std::string_view name) const {
  for (const auto& s : suites_)
    if (s->name() == name) return s.get();
  return nullptr;
}

std::vector<std::string> SuiteRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& s : suites_) out.emplace_back(s->name());
  return out;
}

}  // namespace dbxb

namespace dbxb {

namespace {
// Criterion's sampling, shortened by --quick.
constexpr double kQuickWarmupSeconds = 0.5;
constexpr double kQuickMeasurementSeconds = 1.0;
constexpr uint64_t kQuickSamples = 20;
}  // namespace

std::string JoinNames(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

Status ParseWorkloadList(const SuiteArgs& args, std::string_view suite, const std::vector<std::string>& known,
                         std::vector<std::string>* out) {
  out->clear();
  if (!args.Given("workloads")) {
    *out = known;
    return Status::Ok();
  }
  for (const auto& w : args.List("workloads")) {
    if (std::find(known.begin(), known.end(), w) == known.end())
      return Status::InvalidArgument(
          fmt::format("--workloads: unknown workload '{}' for suite {} (known: {})", w, suite, JoinNames(known)));
    if (std::find(out->begin(), out->end(), w) != out->end())
      return Status::InvalidArgument(fmt::format("--workloads: workload '{}' named twice", w));
    out->push_back(w);
  }
  return Status::Ok();
}

std::vector<SuiteOption> SamplingSuiteOptionList() {
  return {
      {"warmup", "Warm-up time", fmt::format("3s (--quick: {}s)", kQuickWarmupSeconds)},
      {"measurement", "Measurement time", fmt::format("5s (--quick: {}s)", kQuickMeasurementSeconds)},
      {"samples", "Samples per benchmark (at least 10)", fmt::format("100 (--quick: {})", kQuickSamples)},
      {"sampling", "auto | linear | flat (auto as Criterion)", "auto"},
      {"resamples", "Bootstrap resamples", "100000"},
  };
}

std::string QuickSamplingSummary() {
  return fmt::format("{} s warm-up, {} s measurement, {} samples", kQuickWarmupSeconds, kQuickMeasurementSeconds,
                     kQuickSamples);
}

Status ParseSamplingArgs(const SuiteArgs& args, const SuiteCommon& common, SamplingConfig* s,
                         KeyValues* configuration) {
  if (common.quick) {
    s->warmup_seconds = kQuickWarmupSeconds;
    s->measurement_seconds = kQuickMeasurementSeconds;
    s->sample_count = kQuickSamples;
  }
  DBXB_RETURN_IF_ERROR(args.Duration("warmup", 0.001, &s->warmup_seconds));
  DBXB_RETURN_IF_ERROR(args.Duration("measurement", 0.001, &s->measurement_seconds));
  DBXB_RETURN_IF_ERROR(args.Count("samples", 10, 100000, &s->sample_count));
  DBXB_RETURN_IF_ERROR(args.Count("resamples", 1000, kMaxResamples, &s->bootstrap_resamples));
  const std::string& mode = args.Text("sampling");
  if (mode == "linear") {
    s->forced_sampling_mode = SamplingMode::kLinear;
  } else if (mode == "flat") {
    s->forced_sampling_mode = SamplingMode::kFlat;
  } else if (!mode.empty() && mode != "auto") {
    return Status::InvalidArgument(fmt::format("--sampling: '{}' is not one of auto, linear, flat", mode));
  }
  s->seed = common.seed;
  configuration->insert(configuration->end(), {{"warmup_seconds", fmt::format("{}", s->warmup_seconds)},
                                               {"measurement_seconds", fmt::format("{}", s->measurement_seconds)},
                                               {"samples", std::to_string(s->sample_count)},
                                               {"bootstrap_resamples", std::to_string(s->bootstrap_resamples)},
                                               {"sampling_mode", mode.empty() ? "auto" : mode},
                                               {"confidence_level", fmt::format("{}", s->confidence_level)}});
  return Status::Ok();
}

std::vector<SuiteOption> PhaseSuiteOptionList(const std::string& records_default, const std::string& operations_default,
                                              const std::string& duration_default, const std::string& warmup_default) {
  return {
      {"records", "Records in the data set (10000, 10k, 1M)", records_default},
      {"threads", "Worker threads per phase, one session each", "1"},
      {"operations", "Measured operations per phase", operations_default},
      {"duration", "Wall-clock bound per phase (e.g. 30s)", duration_default},
      {"phase-warmup", "Warm-up time per phase (not recorded)", warmup_default},
      {"target-rate", "Open loop at this many ops/s per phase, latency from the intended start", "closed loop"},
      {"load-batch", "Rows per write batch when loading", "1000"},
      {"raw-latencies",
       "write every measured operation to this CSV file (engine,dataset,phase,thread,op,start_ns,latency_ns,"
       "intended_start_ns)",
       "none"},
      {"hdr-log", "write an HdrHistogram interval log per phase into this directory (values in ns)", "none"},
  };
}

Status ParsePhaseSuiteArgs(const SuiteArgs& args, const SuiteCommon& common, PhaseSuiteOptions* o, SuitePlan* plan) {
  o->seed = common.seed;
  o->engine_options.durability = common.durability;
  o->engine_options.cache_bytes = common.cache_bytes;
  o->engine_options.native_options = common.native_options;
  o->settle = common.settle;
  o->client_index = common.client_index;
  o->client_count = common.client_count;
  DBXB_RETURN_IF_ERROR(args.Count("records", 1, 10000000000ull, &o->records));
  DBXB_RETURN_IF_ERROR(args.Count32("threads", 1, 1024, &o->threads));
  DBXB_RETURN_IF_ERROR(args.Count32("readers", 1, 1024, &o->readers));
  DBXB_RETURN_IF_ERROR(args.Count32("writers", 1, 1024, &o->writers));
  DBXB_RETURN_IF_ERROR(args.Count("operations", 1, 1000000000000ull, &o->operations));
  DBXB_RETURN_IF_ERROR(args.Duration("duration", 0.001, &o->duration_seconds));
  DBXB_RETURN_IF_ERROR(args.Duration("phase-warmup", 0.001, &o->warmup_seconds));
  DBXB_RETURN_IF_ERROR(args.Rate("target-rate", &o->target_rate));
  DBXB_RETURN_IF_ERROR(args.Count("load-batch", 1, 1000000, &o->load_batch));
  plan->raw_latencies = args.Text("raw-latencies");
  if (!plan->raw_latencies.empty() && plan->raw_latencies.back() == '/')
    return Status::InvalidArgument("--raw-latencies: '" + plan->raw_latencies + "' is a directory, not a file");
  plan->hdr_log = args.Text("hdr-log");
  return Status::Ok();
}

std::string DescribeSeconds(double seconds) {
  if (seconds >= 365.25 * 86400) return fmt::format("{:.3g} years", seconds / (365.25 * 86400));
  if (seconds >= 2 * 86400) return fmt::format("{:.3g} days", seconds / 86400);
  if (seconds >= 2 * 3600) return fmt::format("{:.3g} h", seconds / 3600);
  return fmt::format("{:.3g} s", seconds);
}

Status CheckPlannedSeconds(double seconds, std::string_view what) {
  if (!(seconds > kMaxPlannedSeconds)) return Status::Ok();
  return Status::InvalidArgument(fmt::format("{} would take at least {}, more than a week: shorten it or split the run",
                                             what, DescribeSeconds(seconds)));
}

double PhaseLowerBoundSeconds(uint64_t operations, double duration_seconds, double target_rate, double warmup_seconds) {
  double bound = duration_seconds > 0 ? duration_seconds : 0;
  if (target_rate > 0 && operations > 0) {
    const double at_rate = static_cast<double>(operations) / target_rate;
    bound = bound > 0 ? std::min(bound, at_rate) : at_rate;
  }
  return bound + warmup_seconds;
}

KeyValues PhaseSuiteConfiguration(const PhaseSuiteOptions& o, const SuitePlan& plan) {
  auto or_default = [](uint64_t v) { return v == 0 ? std::string("default") : std::to_string(v); };
  auto seconds = [](double v, const char* otherwise) { return v > 0 ? fmt::format("{}", v) : std::string(otherwise); };
  return {
      {"records", or_default(o.records)},
      {"operations", or_default(o.operations)},
      {"duration_seconds", seconds(o.duration_seconds, "none")},
      {"phase_warmup_seconds", seconds(o.warmup_seconds, "default")},
      {"threads", or_default(o.threads)},
      {"target_rate", seconds(o.target_rate, "closed loop")},
      {"load_batch", std::to_string(o.load_batch)},
      {"raw_latencies", plan.raw_latencies.empty() ? "none" : plan.raw_latencies},
      {"hdr_log", plan.hdr_log.empty() ? "none" : plan.hdr_log},
  };
}

}  // namespace dbxb
