// The sqlite-vps suite as `run` sees it: its options, their defaults and its plan (workloads/suite.h).
#include <fmt/format.h>

#include <algorithm>

#include "workloads/sqlite_vps/vps_suite.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

class SqliteVpsPlan final : public SuitePlan {
 public:
  Status Execute(const std::string& work_dir, SuiteRunner& runner) override {
    PhaseSuiteOptions o = options;
    o.work_dir = work_dir;
    // Disk-bound sequences ask the harness for their data set's memory budget (memory_limit_bytes).
    PhaseSequencesFactory factory = SqliteVpsSequencesFactory(config);
    for (const AdapterFactory* engine : engines) {
      if (runner.interrupted()) return Status::Ok();
      DBXB_RETURN_IF_ERROR(runner.RunSequences(*engine, factory(*engine, o)));
    }
    return Status::Ok();
  }

  std::vector<const AdapterFactory*> engines;
  PhaseSuiteOptions options;
  SqliteVpsConfig config;
};

class SqliteVpsSuite final : public Suite {
 public:
  std::string_view name() const override { return kSqliteVpsSuite; }
  std::string summary() const override {
    std::string out = "phases:";
    for (const auto& p : VpsPhaseNames()) out += " " + p;
    return out;
  }
  std::string quick_summary() const override { return VpsQuickSummary(); }
  SuiteRecords records() const override { return SuiteRecords::kPhases; }
  // The study's synchronous=NORMAL.
  Durability default_durability() const override { return Durability::kNormal; }

  const std::vector<SuiteOption>& options() const override {
    static const std::vector<SuiteOption> options = [] {
      std::vector<SuiteOption> o = {
          {"workloads", "Comma-separated workloads or phases of the suite (see list)", "all"}};
      for (SuiteOption& p : PhaseSuiteOptionList(
               fmt::format("{} cached (--quick: {}), 2 x memory limit / 500 B disk-bound", kVpsCachedRecords,
                           kVpsQuickCachedRecords),
               "per phase, see docs/suites.md (--quick: a tenth)", "5s for the concurrent phases (--quick: 1s)",
               "1000 operations per thread (--quick: 100)"))
        o.push_back(std::move(p));
      o.push_back({"readers", "Reader threads of the concurrent phases", "4"});
      o.push_back({"writers", "Writer threads of the concurrent phases", "1"});
      o.push_back({"dataset", "cached | disk-bound | both", "cached"});
      o.push_back({"memory-limit", "Memory budget of the disk-bound data set", "1GiB"});
      o.push_back({"range-length", "Rows per range-scan operation", "10"});
      return o;
    }();
    return options;
  }

  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    auto plan = std::make_unique<SqliteVpsPlan>();
    plan->engines = common.engines;
    PhaseSuiteOptions& o = plan->options;
    SqliteVpsConfig& vps = plan->config;
    DBXB_RETURN_IF_ERROR(ParsePhaseSuiteArgs(args, common, &o, plan.get()));
    vps.quick = common.quick;
    Status st = ParseVpsDatasets(args.Given("dataset") ? args.Text("dataset") : "cached", &vps.datasets);
    if (!st.ok()) {
      const bool named = st.message().rfind("--dataset", 0) == 0;
      return Status::InvalidArgument(named ? st.message() : "--dataset: " + st.message());
    }
    DBXB_RETURN_IF_ERROR(args.Bytes("memory-limit", &vps.memory_limit_bytes));
    if (args.Given("memory-limit") && vps.memory_limit_bytes < (16ull << 20))
      return Status::InvalidArgument(fmt::format("--memory-limit: '{}' is below 16 MiB", args.Text("memory-limit")));
    DBXB_RETURN_IF_ERROR(args.Count("range-length", 1, 1000000, &vps.range_length));
    if (common.cache_size_given) vps.cache_bytes = common.cache_bytes;
    const auto& names = VpsPhaseNames();
    for (const auto& w : args.List("workloads")) {
      if (std::find(names.begin(), names.end(), w) == names.end())
        return Status::InvalidArgument(
            fmt::format("--workloads: unknown phase '{}' for suite {} (known: {})", w, name(), Join(names)));
      if (std::find(vps.phases.begin(), vps.phases.end(), w) != vps.phases.end())
        return Status::InvalidArgument(fmt::format("--workloads: phase '{}' named twice", w));
      vps.phases.push_back(w);
    }
    // Checks the combination now (e.g. --records below --range-length), so that bad input is exit 2.
    for (VpsDataset d : vps.datasets) {
      auto resolved = ResolveVpsPlan(d, o, vps);
      if (!resolved.ok()) return Status::InvalidArgument(resolved.status().message());
    }
    // Engines the suite cannot run (the null engine stores no rows) are bad input, as for ycsb.
    for (const AdapterFactory* engine : common.engines) {
      auto sequences = MakeSqliteVpsSequences(*engine, o, vps);
      if (!sequences.ok())
        return Status::InvalidArgument(fmt::format("--engines {}: {}", engine->name, sequences.status().message()));
    }

    auto or_default = [](uint64_t v) { return v == 0 ? std::string("default") : std::to_string(v); };
    std::vector<std::string> datasets;
    for (VpsDataset d : vps.datasets) datasets.emplace_back(VpsDatasetName(d));
    plan->configuration = PhaseSuiteConfiguration(o, *plan);
    // The suite sizes the caches per data set unless --cache-size is given (vps_config.h).
    plan->configuration.emplace_back("cache_bytes", vps.cache_bytes == 0
                                                        ? std::string("suite default: 256 MiB cached, memory limit / 8 "
                                                                      "disk-bound")
                                                        : std::to_string(vps.cache_bytes));
    plan->configuration.emplace_back("datasets", Join(datasets));
    plan->configuration.emplace_back("readers", or_default(o.readers));
    plan->configuration.emplace_back("writers", or_default(o.writers));
    plan->configuration.emplace_back("memory_limit_bytes", or_default(vps.memory_limit_bytes));
    plan->configuration.emplace_back("range_length", or_default(vps.range_length));
    plan->configuration.emplace_back("phases", vps.phases.empty() ? "all" : Join(vps.phases));
    if (common.quick) plan->configuration.emplace_back("quick", "true");
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }
};

}  // namespace

std::unique_ptr<Suite> NewSqliteVpsSuite() { return std::make_unique<SqliteVpsSuite>(); }

}  // namespace dbxb
