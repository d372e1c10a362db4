#include "cli/run_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "adapters/debian/debian_variants.h"
#include "cli/units.h"
#include "common/redact.h"
#include "writers/output_formats.h"

namespace dbxb {
namespace {

std::string Dashed(std::string_view option) { return "--" + std::string(option); }

// The suite options as the user gave them, parsed on request with the messages of the CLI.
class CliSuiteArgs final : public SuiteArgs {
 public:
  explicit CliSuiteArgs(const std::map<std::string, std::string>& values) : values_(values) {}
  const std::string& Text(std::string_view option) const override {
    static const std::string kEmpty;
    auto it = values_.find(std::string(option));
    return it == values_.end() ? kEmpty : it->second;
  }
  Status Count(std::string_view option, uint64_t min, uint64_t max, uint64_t* out) const override {
    return Given(option) ? ParseCountOption(Dashed(option), Text(option), min, max, out) : Status::Ok();
  }
  Status Bytes(std::string_view option, uint64_t* out) const override {
    if (!Given(option)) return Status::Ok();
    return ParseBytes(Text(option), out).WithContext(Dashed(option));
  }
  Status Duration(std::string_view option, double min_seconds, double* out) const override {
    return Given(option) ? ParseDurationOption(Dashed(option), Text(option), min_seconds, out) : Status::Ok();
  }
  Status Rate(std::string_view option, double* out) const override {
    return Given(option) ? ParseRateOption(Dashed(option), Text(option), out) : Status::Ok();
  }

 private:
  const std::map<std::string, std::string>& values_;
};

bool Declares(const Suite& suite, const std::string& option) {
  for (const SuiteOption& o : suite.options())
    if (o.name == option) return true;
  return false;
}

// An option of other suites given to this one is refused by name, so that nothing is silently ignored.
Status RefuseForeignOptions(const RunArgs& args, const Suite& suite, const SuiteRegistry& suites) {
  // In the order the suites declare their options (the CLI's --help order): the first foreign one given.
  std::vector<std::string> given;
  for (const auto& s : suites.suites())
    for (const SuiteOption& o : s->options())
      if (args.suite_options.count(o.name) != 0 && !Declares(suite, o.name) &&
          std::find(given.begin(), given.end(), o.name) == given.end())
        given.push_back(o.name);
  for (const std::string& option : given) {
    std::vector<std::string> takers;
    for (const auto& s : suites.suites())
      if (Declares(*s, option)) takers.emplace_back(s->name());
    return Status::InvalidArgument(fmt::format("--{}: applies to the suite{} {} only, not to suite {}", option,
                                               takers.size() == 1 ? "" : "s", JoinList(takers), suite.name()));
  }
  return Status::Ok();
}

// The variants of `engine` this build has, or why it has none.
std::string VariantsNote(const AdapterRegistry& registry, const std::string& engine) {
  std::vector<std::string> variants;
  for (const auto& f : registry.factories())
    if (f.variant_of == engine) variants.push_back(f.name);
  if (!variants.empty()) return "its variants: " + JoinList(variants);
  return DebianVariantsProblem().empty() ? std::string("it has none") : DebianVariantsProblem();
}

// Engines: an explicit list, or every registered engine except the null one and the build variants.
Status ChooseEngines(const std::string& list, const AdapterRegistry& registry,
                     std::vector<const AdapterFactory*>* out) {
  if (list.empty()) {
    for (const auto& f : registry.factories())
      if (InDefaultEngines(f)) out->push_back(&f);
  } else {
    std::vector<std::string> known;
    for (const auto& f : registry.factories()) known.push_back(f.name);
    for (const auto& name : SplitList(list)) {
      const AdapterFactory* f = registry.Find(name);
      if (f == nullptr && name.find('@') != std::string::npos && registry.Find(name.substr(0, name.find('@'))))
        return Status::InvalidArgument(fmt::format("--engines: engine '{}' has no variant '{}' in this build ({})",
                                                   name.substr(0, name.find('@')), name.substr(name.find('@') + 1),
                                                   VariantsNote(registry, name.substr(0, name.find('@')))));
      if (f == nullptr)
        return Status::InvalidArgument(
            fmt::format("--engines: unknown engine '{}' (known: {})", name, JoinList(known)));
      if (std::find(out->begin(), out->end(), f) != out->end())
        return Status::InvalidArgument(fmt::format("--engines: engine '{}' named twice", name));
      out->push_back(f);
    }
  }
  if (out->empty()) return Status::InvalidArgument("--engines: no engine to run");
  return Status::Ok();
}

// An engine the suite cannot run (Suite::Runs) or that cannot honour the run's durability
// (AdapterFactory::refused_durabilities): bad input when --engines names it; left out of the default list
// (with a warning for the durability, which the user chose).
Status NarrowEngines(bool default_list, const Suite& suite, Durability durability,
                     std::vector<const AdapterFactory*>* engines, std::vector<std::string>* warnings) {
  for (auto it = engines->begin(); it != engines->end();) {
    if (!suite.Runs(**it)) {
      if (!default_list)
        return Status::InvalidArgument(fmt::format("--engines: suite {} does not run {}", suite.name(), (*it)->name));
      it = engines->erase(it);
      continue;
    }
    const std::string* why = RefusedDurability(**it, durability);
    if (why == nullptr) {
      ++it;
      continue;
    }
    const std::string what =
        fmt::format("{} cannot honour --durability {}: {}", (*it)->name, DurabilityName(durability), *why);
    if (!default_list) return Status::InvalidArgument(fmt::format("--engines: {}", what));
    warnings->push_back(what + "; left out of this run");
    it = engines->erase(it);
  }
  if (engines->empty())
    return Status::InvalidArgument("--engines: no engine left to run (see the suite and --durability)");
  return Status::Ok();
}

const Suite* ChooseSuite(const RunArgs& args, const SuiteArgs& suite_args, const SuiteRegistry& suites) {
  if (!args.suite.empty()) return suites.Find(args.suite);
  for (const auto& s : suites.suites())
    if (s->ImpliedBy(suite_args)) return s.get();
  return suites.suites().empty() ? nullptr : suites.suites().front().get();
}

// --engine-option KEY=VALUE: KEY is "<engine>.<setting>" of a registered engine that takes it, VALUE one it
// accepts (checked as its open() would). A setting for an engine that is not in --engines is a warning.
Status ParseEngineOptions(const std::vector<std::string>& given, const AdapterRegistry& registry,
                          const std::vector<const AdapterFactory*>& engines,
                          std::vector<std::pair<std::string, std::string>>* out, std::vector<std::string>* warnings) {
  for (const std::string& text : given) {
    const size_t eq = text.find('=');
    const size_t dot = text.find('.');
    if (eq == std::string::npos || eq == 0)
      return Status::InvalidArgument(fmt::format("--engine-option: '{}' is not KEY=VALUE", text));
    const std::string key = text.substr(0, eq);
    if (dot == std::string::npos || dot == 0 || dot > eq)
      return Status::InvalidArgument(
          fmt::format("--engine-option: '{}' does not name an engine (expected <engine>.<setting>=VALUE)", text));
    const std::string engine = key.substr(0, dot);
    const AdapterFactory* factory = registry.Find(engine);
    if (factory == nullptr)
      return Status::InvalidArgument(fmt::format("--engine-option: '{}': unknown engine '{}'", text, engine));
    if (FindNativeOption(*factory, key) == nullptr) {
      std::vector<std::string> keys;
      for (const NativeOption& option : factory->native_options) keys.push_back(option.key);
      return Status::InvalidArgument(
          fmt::format("--engine-option: '{}': {} has no setting '{}' ({})", text, engine, key,
                      keys.empty() ? std::string("it takes none") : "it takes: " + JoinList(keys)));
    }
    AdapterOptions probe;
    probe.native_options = {{key, text.substr(eq + 1)}};
    if (factory->check_native_values) {
      Status st = factory->check_native_values(probe);
      if (!st.ok()) return Status::InvalidArgument(fmt::format("--engine-option: {}", st.message()));
    }
    // The same setting twice is one setting; with two values, which one was meant is unknown.
    const std::string value = text.substr(eq + 1);
    auto earlier = std::find_if(out->begin(), out->end(), [&](const auto& kv) { return kv.first == key; });
    if (earlier != out->end() && earlier->second != value)
      return Status::InvalidArgument(
          fmt::format("--engine-option: {} given twice, as '{}' and as '{}'", key, earlier->second, value));
    if (earlier != out->end()) continue;
    // A variant (sqlite@debian) applies its engine's settings too.
    if (std::none_of(engines.begin(), engines.end(),
                     [&](const AdapterFactory* f) { return OptionPrefix(*f) == engine; }))
      warnings->push_back(
          fmt::format("--engine-option {}: {} is not among --engines; the setting is unused", text, engine));
    out->emplace_back(key, value);
  }
  return Status::Ok();
}

// --clients N: a phase suite that splits its work between client processes, on engines that let several
// processes share one database; --client I/N and --client-work-dir: what such a run gives its clients.
Status ParseClients(const RunArgs& args, const AdapterRegistry& registry, const Suite& suite, RunPlan* p) {
  SuiteCommon& c = p->common;
  if (!args.clients.empty()) {
    uint64_t n = 0;
    DBXB_RETURN_IF_ERROR(ParseCountOption("--clients", args.clients, 1, 64, &n));
    if (!suite.SplitsBetweenClients())
      return Status::InvalidArgument(fmt::format(
          "--clients: the {} suite does not split its work between client processes (ycsb does)", suite.name()));
    std::vector<std::string> able;
    for (const AdapterFactory& f : registry.factories())
      if (f.multi_process) able.push_back(f.name);
    for (const AdapterFactory* f : c.engines)
      if (!f->multi_process)
        return Status::InvalidArgument(
            fmt::format("--clients: {} keeps its database to one process, so client processes cannot share it (engines "
                        "that can: {})",
                        f->name, JoinList(able)));
    if (!args.client.empty()) return Status::InvalidArgument("--clients: not in a client process (--client)");
    p->clients = static_cast<uint32_t>(n);
    c.client_count = p->clients;  // the work is planned (and checked) as the clients split it
  }
  if (args.client.empty() != args.client_work_dir.empty())
    return Status::InvalidArgument("--client and --client-work-dir are given together, by a --clients run");
  if (args.client.empty()) return Status::Ok();
  unsigned index = 0, count = 0;
  char rest = 0;
  if (std::sscanf(args.client.c_str(), "%u/%u%c", &index, &count, &rest) != 2 || index < 1 || index > count ||
      count > 64)
    return Status::InvalidArgument(fmt::format("--client: '{}' is not I/N with 1 <= I <= N <= 64", args.client));
  c.client_index = index - 1;
  c.client_count = count;
  p->client_work_dir = args.client_work_dir;
  return Status::Ok();
}

// What each engine's options name outside this process (a server, its credentials) works, before the
// run starts: a refusing server is bad input, not a failed phase.
Status PreflightEngines(const SuiteCommon& c) {
  for (const AdapterFactory* f : c.engines) {
    if (!f->preflight) continue;
    AdapterOptions probe;
    probe.native_options = c.native_options;
    probe.durability = c.durability;
    Status st = f->preflight(probe);
    if (!st.ok()) return Status::InvalidArgument("--engine-option: " + st.message());
  }
  return Status::Ok();
}

// --measure: time (sampled by the clock) or instructions (counted under callgrind, dbx-micro only).
// Settings that make an engine work under valgrind are added (and recorded) unless given.
Status ParseMeasure(const RunArgs& args, RunPlan* p, std::vector<std::string>* added) {
  if (args.measure.empty() || args.measure == "time") return Status::Ok();
  if (args.measure != "instructions")
    return Status::InvalidArgument(fmt::format("--measure: '{}' is not one of time, instructions", args.measure));
  if (p->phase_suite())
    return Status::InvalidArgument(fmt::format(
        "--measure instructions: applies to sampled benchmarks (dbx-micro), not to the phases of {}, whose work "
        "is timed and threaded",
        p->common.suite));
  if (args.calibrate)
    return Status::InvalidArgument("--measure instructions: --calibrate times the engines; it cannot run counted");
  p->measure_instructions = true;
  p->common.measure_overhead = false;
  // LMDB maps the filesystem's size by default, more address space than valgrind can give a process.
  constexpr const char* kLmdbMap = "lmdb.map_size";
  bool lmdb = false, given = false;
  for (const auto* f : p->common.engines) lmdb |= f->name == "lmdb";
  for (const auto& [key, value] : p->common.native_options) given |= key == kLmdbMap;
  if (lmdb && !given) {
    p->common.native_options.emplace_back(kLmdbMap, "4294967296");
    added->push_back(std::string(kLmdbMap) + "=4294967296");
    p->warnings.push_back("--measure instructions: lmdb.map_size=4294967296 (4 GiB), which valgrind can map");
  }
  return Status::Ok();
}

// The engine settings given to a suite that does not apply them (Suite::AppliesEngineSettings): bad input,
// so that no result records a setting that was not run.
Status RefuseUnappliedEngineSettings(const RunArgs& args, const Suite& suite) {
  if (suite.AppliesEngineSettings()) return Status::Ok();
  const char* given = !args.durability.empty()       ? "--durability"
                      : !args.cache_size.empty()     ? "--cache-size"
                      : !args.engine_options.empty() ? "--engine-option"
                      : args.no_settle               ? "--no-settle"
                                                     : nullptr;
  if (given == nullptr) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{}: suite {} runs each engine as the code it replicates opens it and applies no engine setting",
                  given, suite.name()));
}

// --suite, --engines and --durability: the suite, and the engines that can run it with that durability.
Status ChooseSuiteAndEngines(const RunArgs& args, const SuiteArgs& suite_args, const AdapterRegistry& registry,
                             const SuiteRegistry& suites, RunPlan* p) {
  p->suite = ChooseSuite(args, suite_args, suites);
  if (p->suite == nullptr)
    return Status::InvalidArgument(
        fmt::format("--suite: unknown suite '{}' (known: {})", args.suite, JoinList(suites.names())));
  SuiteCommon& c = p->common;
  c.suite = std::string(p->suite->name());
  DBXB_RETURN_IF_ERROR(ChooseEngines(args.engines, registry, &c.engines));
  DBXB_RETURN_IF_ERROR(RefuseForeignOptions(args, *p->suite, suites));
  DBXB_RETURN_IF_ERROR(RefuseUnappliedEngineSettings(args, *p->suite));
  c.durability = p->suite->default_durability();
  if (!args.durability.empty() && !ParseDurability(args.durability, &c.durability))
    return Status::InvalidArgument(fmt::format("--durability: '{}' is not one of none, normal, full", args.durability));
  return NarrowEngines(args.engines.empty(), *p->suite, c.durability, &c.engines, &p->warnings);
}

// --cache-size, --seed, --quick, --no-overhead and --no-settle: the settings every suite shares.
Status ParseCommonSettings(const RunArgs& args, SuiteCommon* c) {
  c->cache_size_given = !args.cache_size.empty();
  if (c->cache_size_given) {
    DBXB_RETURN_IF_ERROR(ParseBytes(args.cache_size, &c->cache_bytes).WithContext("--cache-size"));
    if (c->cache_bytes < (1ull << 20) || c->cache_bytes > (1ull << 40))
      return Status::InvalidArgument(
          fmt::format("--cache-size: '{}' is out of range (1 MiB to 1 TiB)", args.cache_size));
  }
  DBXB_RETURN_IF_ERROR(ParseCountOption("--seed", args.seed, 0, UINT64_MAX, &c->seed));
  c->quick = args.quick;
  c->measure_overhead = !args.no_overhead;
  c->settle = !args.no_settle;
  return Status::Ok();
}

// --format: known output formats, each once, in the order given.
Status ParseFormats(const std::string& list, std::vector<std::string>* formats) {
  for (const auto& f : SplitList(list)) {
    if (FindOutputFormat(f) == nullptr)
      return Status::InvalidArgument(fmt::format("--format: unknown format '{}' (known: {})", f, OutputFormatNames()));
    if (std::find(formats->begin(), formats->end(), f) == formats->end()) formats->push_back(f);
  }
  return Status::Ok();
}

// --baseline: an engine among --engines, by default the first real one.
Status ChooseBaseline(const std::string& given, const std::vector<const AdapterFactory*>& engines,
                      std::string* baseline) {
  if (!given.empty()) {
    bool found = false;
    for (const auto* f : engines) found |= f->name == given;
    if (!found) return Status::InvalidArgument(fmt::format("--baseline: engine '{}' is not among --engines", given));
    *baseline = given;
    return Status::Ok();
  }
  // The first real engine: comparing against the null adapter says nothing about engines.
  *baseline = engines.front()->name;
  for (const auto* f : engines) {
    if (f->name != "null") {
      *baseline = f->name;
      break;
    }
  }
  return Status::Ok();
}

// The options that do not go with --clients: InvalidArgument naming the first one given.
Status CheckNotWithClients(const RunArgs& args, const RunPlan& p) {
  if (p.clients == 0) return Status::Ok();
  const struct {
    bool given;
    const char* option;
    const char* why;
  } refused[] = {
      {!p.work->raw_latencies.empty(), "--raw-latencies", "each client keeps HdrHistogram logs instead"},
      {!p.work->hdr_log.empty(), "--hdr-log", "each client writes its HdrHistogram logs to OUT/client-N/hdr"},
      {args.calibrate, "--calibrate", ""},
  };
  for (const auto& r : refused)
    if (r.given)
      return Status::InvalidArgument(
          fmt::format("{}: not with --clients{}", r.option, *r.why == '\0' ? "" : fmt::format(" ({})", r.why)));
  return Status::Ok();
}

// The suite's plan of work, the options that do not go with --clients, and the engines' preflight.
Status PlanWork(const RunArgs& args, const SuiteArgs& suite_args, RunPlan* p) {
  auto work = p->suite->Plan(suite_args, p->common);
  if (!work.ok()) return work.status();
  p->work = std::move(work.value());
  DBXB_RETURN_IF_ERROR(CheckNotWithClients(args, *p));
  DBXB_RETURN_IF_ERROR(PreflightEngines(p->common));
  p->warnings.insert(p->warnings.end(), p->work->warnings.begin(), p->work->warnings.end());
  return Status::Ok();
}

// The run's configuration as reports show it: suite, engines, the suite's own settings, then the shared ones.
void RecordConfiguration(const RunArgs& args, const std::vector<std::string>& valgrind_settings, RunPlan* p) {
  const SuiteCommon& c = p->common;
  std::vector<std::string> engine_names;
  for (const auto* f : c.engines) engine_names.push_back(f->name);
  p->configuration = {{"suite", c.suite}, {"engines", JoinList(engine_names)}};
  for (const auto& kv : p->work->configuration) p->configuration.push_back(kv);
  const bool applied = p->suite->AppliesEngineSettings();  // else none is recorded: none was run
  if (applied) p->configuration.emplace_back("durability", std::string(DurabilityName(c.durability)));
  p->configuration.emplace_back("seed", std::to_string(c.seed));
  p->configuration.emplace_back("formats", JoinList(p->formats));
  if (applied) p->configuration.emplace_back("settle", c.settle ? "on" : "off");
  if (!args.engine_options.empty())
    p->configuration.emplace_back("engine_options", RedactPasswords(JoinList(args.engine_options)));
  if (p->clients > 0) p->configuration.emplace_back("clients", std::to_string(p->clients));
  if (!args.client.empty()) p->configuration.emplace_back("client", args.client);
  p->configuration.emplace_back("calibrate", p->calibrate ? "on" : "off");
  p->configuration.emplace_back("measure", p->measure_instructions ? "instructions" : "time");
  if (!valgrind_settings.empty()) p->configuration.emplace_back("valgrind_settings", JoinList(valgrind_settings));
  if (!p->phase_suite()) p->configuration.emplace_back("baseline", p->baseline);
}

}  // namespace

Status ValidateRunArgs(const RunArgs& args, const AdapterRegistry& registry, const SuiteRegistry& suites,
                       RunPlan* plan) {
  RunPlan p;
  CliSuiteArgs suite_args(args.suite_options);
  DBXB_RETURN_IF_ERROR(ChooseSuiteAndEngines(args, suite_args, registry, suites, &p));
  SuiteCommon& c = p.common;
  DBXB_RETURN_IF_ERROR(ParseCommonSettings(args, &c));
  DBXB_RETURN_IF_ERROR(ParseEngineOptions(args.engine_options, registry, c.engines, &c.native_options, &p.warnings));
  DBXB_RETURN_IF_ERROR(ParseClients(args, registry, *p.suite, &p));
  DBXB_RETURN_IF_ERROR(ParseFormats(args.formats, &p.formats));
  DBXB_RETURN_IF_ERROR(ChooseBaseline(args.baseline, c.engines, &p.baseline));
  std::vector<std::string> valgrind_settings;  // engine settings a counted run needs, recorded below
  DBXB_RETURN_IF_ERROR(ParseMeasure(args, &p, &valgrind_settings));
  // A new directory per run, so that no earlier result is overwritten by default.
  p.out_dir = args.out_dir.empty() ? TimestampedResultsDir("", "%Y%m%dT%H%M%SZ") : args.out_dir;
  p.data_dir = args.data_dir;
  DBXB_RETURN_IF_ERROR(PlanWork(args, suite_args, &p));
  p.calibrate = args.calibrate;
  RecordConfiguration(args, valgrind_settings, &p);
  *plan = std::move(p);
  return Status::Ok();
}

std::string TimestampedResultsDir(std::string_view prefix, const char* time_format) {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, time_format, &tm);
  return "results/" + std::string(prefix) + buf;
}

}  // namespace dbxb
