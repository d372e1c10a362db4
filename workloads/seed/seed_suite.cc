#include "workloads/seed/seed_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "adapters/seed_replica.h"
#include "common/disk_usage.h"
#include "workloads/dataset.h"
#include "workloads/micro_suite.h"
#include "workloads/suite.h"

namespace dbxb {
namespace {

constexpr uint64_t kSeedRecords = 10000;  // NUM_ENTRIES

// One of the seed's three benchmarks on one engine: the replica's body, timed; verification untimed.
class SeedBenchmark final : public MicroBenchmark {
 public:
  SeedBenchmark(std::string workload, const AdapterFactory& engine, std::shared_ptr<const Dataset> data,
                std::string dir)
      : workload_(std::move(workload)), engine_(engine), data_(std::move(data)), dir_(std::move(dir)) {}

  uint64_t elements_per_iteration() const override { return data_->size(); }

  // The replica and its loaded store, read back once and checked against the data set.
  Status SetUp() override {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return Status::IOError("create " + dir_ + ": " + ec.message());
    auto replica = engine_.seed_replica(dir_, *data_);
    if (!replica.ok()) return replica.status();
    replica_ = std::move(replica.value());
    DBXB_RETURN_IF_ERROR(replica_->Load());
    DBXB_RETURN_IF_ERROR(Verify());
    settings_ = replica_->Describe();
    settings_.emplace_back("library", engine_.library_version());
    return Status::Ok();
  }

  Status RunIteration() override {
    if (workload_ == "insert") return replica_->Insert();
    uint64_t n = 0;
    DBXB_RETURN_IF_ERROR(workload_ == "get" ? replica_->GetAll(&n) : replica_->ScanAll(&n));
    if (n != data_->size())
      return Status::Corruption(fmt::format("{} returned {} rows, expected {}", workload_, n, data_->size()));
    return Status::Ok();
  }

  Status TearDown() override {
    replica_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    return Status::Ok();
  }

  Adapter* adapter() override { return nullptr; }
  const Settings& engine_settings() const override { return settings_; }
  std::string checksum() const override { return checksum_; }
  uint64_t live_logical_bytes() const override {
    return data_->size() * (data_->key(0).size() + data_->value(0).size());
  }
  // The replica's stores under its directory (sled's and redb's files; 0 for the in-memory ones).
  uint64_t disk_bytes() const override { return DirectoryBytes(dir_); }

 private:
  Status Verify() {
    uint64_t i = 0;
    RowDigest digest;
    Status mismatch;
    DBXB_RETURN_IF_ERROR(replica_->ReadBack([&](std::string_view k, std::string_view v) {
      if (i >= data_->size() || k != data_->key(i) || v != data_->value(i)) {
        mismatch = Status::Corruption(fmt::format("{}: row {} read back differs from the data set", engine_.name, i));
        return false;
      }
      digest.Add(k, v);
      ++i;
      return true;
    }));
    DBXB_RETURN_IF_ERROR(mismatch);
    if (i != data_->size())
      return Status::Corruption(fmt::format("{}: {} rows read back, expected {}", engine_.name, i, data_->size()));
    checksum_ = digest.ToString();
    return Status::Ok();
  }

  std::string workload_;
  const AdapterFactory& engine_;
  std::shared_ptr<const Dataset> data_;
  std::string dir_;
  std::unique_ptr<SeedReplica> replica_;
  Settings settings_;
  std::string checksum_;
};

class SeedPlan final : public SuitePlan {
 public:
  Status Execute(const std::string& work_dir, SuiteRunner& runner) override {
    DatasetShape shape;  // key_%08d / value_%08d_data: 12 and 19 bytes
    shape.records = kSeedRecords;
    auto dataset = Dataset::Make(shape);
    if (!dataset.ok()) return Status::InvalidArgument(dataset.status().message());
    std::shared_ptr<const Dataset> data = dataset.value();
    const KeyValues parameters = {{"records", std::to_string(kSeedRecords)},
                                  {"method", "the seed's code (official_db_comparison.rs)"}};
    for (const std::string& workload : workloads) {
      for (const AdapterFactory* engine : engines) {
        const std::string dir = work_dir + "/seed-" + workload + "-" + engine->name;
        MakeBenchmark make = [workload, engine, data, dir]() -> Result<std::unique_ptr<MicroBenchmark>> {
          return std::unique_ptr<MicroBenchmark>(new SeedBenchmark(workload, *engine, data, dir));
        };
        if (!runner.RunBenchmark(workload, *engine, parameters, sampling, make)) return Status::Ok();
      }
    }
    return Status::Ok();
  }

  std::vector<const AdapterFactory*> engines;
  std::vector<std::string> workloads;
};

class SeedSuite final : public Suite {
 public:
  std::string_view name() const override { return "seed"; }
  std::string summary() const override {
    return "the DBX team's official comparison as its code runs it (insert get scan) on dbx-core, sqlite, "
           "sled, redb";
  }
  std::string quick_summary() const override { return QuickSamplingSummary(); }
  SuiteRecords records() const override { return SuiteRecords::kBenchmarks; }
  // Not used by the replicas: each runs as the seed's code opens it (see SeedConditionDifferences).
  Durability default_durability() const override { return Durability::kNone; }
  bool AppliesEngineSettings() const override { return false; }

  bool Runs(const AdapterFactory& engine) const override { return static_cast<bool>(engine.seed_replica); }

  const std::vector<SuiteOption>& options() const override {
    static const std::vector<SuiteOption> options = [] {
      std::vector<SuiteOption> o = {{"workloads", "Comma-separated workloads of the suite (see list)", "all"}};
      for (auto& s : SamplingSuiteOptionList()) o.push_back(std::move(s));
      return o;
    }();
    return options;
  }

  Result<std::unique_ptr<SuitePlan>> Plan(const SuiteArgs& args, const SuiteCommon& common) const override {
    auto plan = std::make_unique<SeedPlan>();
    DBXB_RETURN_IF_ERROR(ParseWorkloadList(args, name(), SeedWorkloadNames(), &plan->workloads));
    plan->engines = common.engines;  // the harness kept only engines the suite Runs
    // In the seed's order (DBX, SQLite, Sled, Redb).
    const std::vector<std::string> order = {"dbx-core", "sqlite", "sled", "redb"};
    auto rank = [&](const AdapterFactory* f) { return std::find(order.begin(), order.end(), f->name) - order.begin(); };
    std::stable_sort(plan->engines.begin(), plan->engines.end(),
                     [&](const AdapterFactory* a, const AdapterFactory* b) { return rank(a) < rank(b); });
    plan->configuration = {{"workloads", JoinNames(plan->workloads)},
                           {"records", std::to_string(kSeedRecords)},
                           {"method", "official_db_comparison.rs replicated (adapters/seed_replica.h)"}};
    DBXB_RETURN_IF_ERROR(ParseSamplingArgs(args, common, &plan->sampling, &plan->configuration));
    return std::unique_ptr<SuitePlan>(std::move(plan));
  }
};

}  // namespace

std::unique_ptr<Suite> NewSeedSuite() { return std::make_unique<SeedSuite>(); }

const std::vector<std::string>& SeedWorkloadNames() {
  static const std::vector<std::string> names = {"insert", "get", "scan"};
  return names;
}

}  // namespace dbxb
