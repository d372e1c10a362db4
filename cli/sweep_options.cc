#include "cli/sweep_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "cli/units.h"

namespace dbxb {
namespace {

enum class ValueKind { kCount, kBytes, kDurability };

// One option a sweep may vary: where its text lives in RunArgs and how a value is checked.
struct Sweepable {
  const char* option;  // without dashes, as the suites name it
  const char* name;    // the dimension's name in results: "value_size"
  ValueKind kind;
};

const std::vector<Sweepable>& Table() {
  static const std::vector<Sweepable> table = {
      {"threads", "threads", ValueKind::kCount},       {"readers", "readers", ValueKind::kCount},
      {"writers", "writers", ValueKind::kCount},       {"value-size", "value_size", ValueKind::kCount},
      {"records", "records", ValueKind::kCount},       {"durability", "durability", ValueKind::kDurability},
      {"cache-size", "cache_size", ValueKind::kBytes},
  };
  return table;
}

// The text of `option` in `args` (a suite option, or one of every run's).
std::string* TextOf(RunArgs* args, const Sweepable& s) {
  if (std::string_view(s.option) == "durability") return &args->durability;
  if (std::string_view(s.option) == "cache-size") return &args->cache_size;
  auto it = args->suite_options.find(s.option);
  return it == args->suite_options.end() ? nullptr : &it->second;
}

// One value checked as its option checks it, in a normal form ("10k" -> "10000").
Status Normalise(const Sweepable& s, const std::string& item, std::string* out) {
  const std::string option = fmt::format("--{}", s.option);
  switch (s.kind) {
    case ValueKind::kCount: {
      uint64_t v = 0;
      DBXB_RETURN_IF_ERROR(ParseCountOption(option, item, 1, UINT64_MAX, &v));
      *out = std::to_string(v);
      return Status::Ok();
    }
    case ValueKind::kBytes: {
      uint64_t v = 0;
      DBXB_RETURN_IF_ERROR(ParseBytes(item, &v).WithContext(option));
      *out = std::to_string(v);
      return Status::Ok();
    }
    case ValueKind::kDurability: {
      Durability d;
      if (!ParseDurability(item, &d))
        return Status::InvalidArgument(fmt::format("{}: '{}' is not one of none, normal, full", option, item));
      *out = std::string(DurabilityName(d));
      return Status::Ok();
    }
  }
  return Status::Ok();
}

Status ParseDimension(const Sweepable& s, const std::string& text, SweepDimension* out) {
  out->name = s.name;
  out->option = fmt::format("--{}", s.option);
  for (const std::string& item : SplitList(text)) {
    if (item.empty()) return Status::InvalidArgument(fmt::format("{}: '{}' has an empty item", out->option, text));
    std::string value;
    DBXB_RETURN_IF_ERROR(Normalise(s, item, &value));
    if (std::find(out->values.begin(), out->values.end(), value) != out->values.end())
      return Status::InvalidArgument(fmt::format("{}: '{}' is listed twice in '{}'", out->option, item, text));
    out->values.push_back(std::move(value));
  }
  return Status::Ok();
}

Status CheckLimits(const std::vector<SweepDimension>& dims) {
  std::vector<std::string> options, over;
  size_t points = 1;
  for (const SweepDimension& d : dims) {
    options.push_back(d.option);
    if (d.values.size() > kMaxSweepValues) over.push_back(fmt::format("{} has {}", d.option, d.values.size()));
    points *= d.values.size();
  }
  if (dims.size() > kMaxSweepDimensions)
    return Status::InvalidArgument(
        fmt::format("{}: at most {} options may be swept at once (give the others one value)", JoinList(options),
                    kMaxSweepDimensions));
  if (!over.empty())
    return Status::InvalidArgument(fmt::format("{}: too many values ({}); a sweep takes at most {} per option",
                                               JoinList(options), JoinList(over), kMaxSweepValues));
  if (points > kMaxSweepPoints)
    return Status::InvalidArgument(
        fmt::format("{}: {} points; a sweep takes at most {}", JoinList(options), points, kMaxSweepPoints));
  return Status::Ok();
}

// "threads-4_durability-full": the point's name in per-point file names.
std::string PointLabel(const KeyValues& values) {
  std::string label;
  for (const auto& [name, value] : values) label += fmt::format("{}{}-{}", label.empty() ? "" : "_", name, value);
  return label;
}

// --hdr-log DIR and --raw-latencies FILE of one point: DIR/<label>, FILE with ".<label>" before its extension.
void NamePointOutputs(const std::string& label, RunArgs* args) {
  auto hdr = args->suite_options.find("hdr-log");
  if (hdr != args->suite_options.end()) hdr->second = (std::filesystem::path(hdr->second) / label).string();
  auto raw = args->suite_options.find("raw-latencies");
  if (raw != args->suite_options.end()) {
    std::filesystem::path p(raw->second);
    p.replace_filename(p.stem().string() + "." + label + p.extension().string());
    raw->second = p.string();
  }
}

}  // namespace

const std::vector<std::string>& SweepableOptions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Sweepable& s : Table()) out.push_back(s.option);
    return out;
  }();
  return names;
}

Status PlanSweep(const RunArgs& args, SweepRequest* out) {
  SweepRequest r;
  std::vector<const Sweepable*> swept;
  RunArgs probe = args;
  for (const Sweepable& s : Table()) {
    const std::string* text = TextOf(&probe, s);
    if (text == nullptr || text->find(',') == std::string::npos) continue;
    SweepDimension d;
    DBXB_RETURN_IF_ERROR(ParseDimension(s, *text, &d));
    r.dimensions.push_back(std::move(d));
    swept.push_back(&s);
  }
  DBXB_RETURN_IF_ERROR(CheckLimits(r.dimensions));
  if (r.dimensions.empty()) {
    *out = std::move(r);
    return Status::Ok();
  }
  // Every combination, the first dimension slowest.
  std::vector<size_t> index(r.dimensions.size(), 0);
  for (;;) {
    RunArgs point = args;
    KeyValues values;
    for (size_t k = 0; k < r.dimensions.size(); ++k) {
      const std::string& value = r.dimensions[k].values[index[k]];
      *TextOf(&point, *swept[k]) = value;
      values.emplace_back(r.dimensions[k].name, value);
    }
    NamePointOutputs(PointLabel(values), &point);
    r.point_values.push_back(std::move(values));
    r.point_args.push_back(std::move(point));
    size_t k = r.dimensions.size();
    while (k > 0 && ++index[k - 1] == r.dimensions[k - 1].values.size()) index[--k] = 0;
    if (k == 0) break;
  }
  *out = std::move(r);
  return Status::Ok();
}

Status ParseSla(std::string_view text, Sla* out) {
  const std::string given(text);
  const size_t le = text.find("<=");
  if (text.size() < 2 || text[0] != 'p' || le == std::string_view::npos)
    return Status::InvalidArgument(
        fmt::format("--sla: '{}' is not PERCENTILE<=BOUND, e.g. p99<=1ms or p99.9<=500us", given));
  const std::string percentile(text.substr(1, le - 1));
  char* end = nullptr;
  const double p = std::strtod(percentile.c_str(), &end);
  if (percentile.empty() || end != percentile.c_str() + percentile.size() || !std::isfinite(p))
    return Status::InvalidArgument(fmt::format("--sla: '{}': 'p{}' is not a percentile", given, percentile));
  if (!(p > 0) || p >= 100)
    return Status::InvalidArgument(fmt::format(
        "--sla: '{}': a latency histogram gives percentiles above 0 and below 100 (p100 is the maximum, one "
        "operation's luck)",
        given));
  // A step must hold 100 operations beyond the percentile (harness/capacity.h): p99.99 needs 1,000,000.
  if (p > 99.99 + 1e-9)
    return Status::InvalidArgument(
        fmt::format("--sla: '{}': p{} needs {:.0f} operations per step for 100 beyond it; the search goes up to p99.99",
                    given, percentile, std::ceil(100 / (1 - p / 100))));
  double seconds = 0;
  DBXB_RETURN_IF_ERROR(ParseDuration(text.substr(le + 2), &seconds).WithContext("--sla"));
  if (seconds < 1e-6)
    return Status::InvalidArgument(fmt::format(
        "--sla: '{}': no rate meets a bound under 1 µs: every timed operation also holds the harness's clock "
        "reads and records, and open-loop wake-ups alone are later than that",
        given));
  out->percentile = p;
  out->bound_ns = seconds * 1e9;
  out->text = given;
  return Status::Ok();
}

Status ApplyCapacityArgs(const CapacityArgs& capacity, const RunArgs& args, RunPlan* plan) {
  if (capacity.sla.empty()) {
    if (!capacity.sla_latency.empty()) return Status::InvalidArgument("--sla-latency: applies only with --sla");
    if (!capacity.sla_step.empty()) return Status::InvalidArgument("--sla-step: applies only with --sla");
    return Status::Ok();
  }
  CapacityPlan c;
  DBXB_RETURN_IF_ERROR(ParseSla(capacity.sla, &c.sla));
  if (!plan->phase_suite())
    return Status::InvalidArgument(fmt::format(
        "--sla: suite {} samples whole iterations, not operations one by one: give a phase suite (ycsb, sqlite-vps)",
        plan->common.suite));
  if (plan->clients > 0)
    return Status::InvalidArgument(
        "--sla: not with --clients: a capacity search paces the steps of one process, and the clients' would each "
        "search alone");
  for (const char* option : {"target-rate", "operations", "duration", "raw-latencies", "hdr-log"}) {
    if (args.suite_options.count(option) != 0)
      return Status::InvalidArgument(fmt::format(
          "--{}: not with --sla: the capacity search sets each step's rate and length and keeps no per-operation logs",
          option));
  }
  if (capacity.sla_latency == "service")
    c.sla.service_time = true;
  else if (!capacity.sla_latency.empty() && capacity.sla_latency != "intended")
    return Status::InvalidArgument(
        fmt::format("--sla-latency: '{}' is not one of intended, service", capacity.sla_latency));
  if (plan->common.quick) {  // a short search: steps of 1 to 10 s (no rate below 100 ops/s for p99)
    c.min_step_seconds = 1;
    c.max_step_seconds = 10;
  }
  if (!capacity.sla_step.empty())
    DBXB_RETURN_IF_ERROR(ParseDurationOption("--sla-step", capacity.sla_step, 0.1, &c.min_step_seconds));
  if (c.min_step_seconds > c.max_step_seconds)
    return Status::InvalidArgument(fmt::format("--sla-step: at most {} s (the longest step)", c.max_step_seconds));
  KeyValues& config = plan->configuration;
  config.emplace_back("sla", c.sla.text);
  config.emplace_back("sla_latency", c.sla.service_time ? "service" : "intended");
  config.emplace_back("sla_keep_up", fmt::format("{:g}", c.keep_up));
  config.emplace_back("sla_resolution", fmt::format("{:g}", c.resolution));
  config.emplace_back("sla_step_seconds", fmt::format("{:g} to {:g}", c.min_step_seconds, c.max_step_seconds));
  config.emplace_back("sla_tail_operations", std::to_string(c.tail_operations));
  plan->capacity = c;
  return Status::Ok();
}

}  // namespace dbxb
