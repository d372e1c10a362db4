#include "workloads/suite.h"

#include <fmt/format.h>

namespace dbxb {

std::vector<std::string> SuiteArgs::List(std::string_view option) const {
  const std::string& text = Text(option);
  std::vector<std::string> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
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
