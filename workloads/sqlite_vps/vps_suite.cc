#include "workloads/sqlite_vps/vps_suite.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "workloads/row_store.h"
#include "workloads/sqlite_vps/vps_data.h"
#include "workloads/sqlite_vps/vps_phases.h"

namespace dbxb {
namespace {

class SqliteVpsSequence final : public PhaseSequence {
 public:
  SqliteVpsSequence(const AdapterFactory& engine, VpsPlan plan) : engine_(engine), plan_(std::move(plan)) {}

  ~SqliteVpsSequence() override { (void)Close(); }

  std::string dataset() const override { return std::string(VpsDatasetName(plan_.dataset)); }
  // The disk-bound data set's budget (0 for cached).
  uint64_t memory_limit_bytes() const override { return plan_.memory_limit_bytes; }

  Status Open() override {
    dir_ = (std::filesystem::path(plan_.work_dir) /
            ("sqlite-vps-" + engine_.name + "-" + std::string(VpsDatasetName(plan_.dataset))))
               .string();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);  // a fresh database, whatever a previous run left
    std::filesystem::create_directories(dir_, ec);
    if (ec) return Status::IOError("create " + dir_ + ": " + ec.message());
    AdapterOptions options = plan_.engine_options;
    options.dir = dir_;
    Result<std::unique_ptr<Adapter>> adapter = engine_.open(options);
    if (!adapter.ok()) return adapter.status();
    adapter_ = std::move(adapter.value());
    rows_ = std::make_unique<VpsRows>(plan_.records, plan_.payload_bytes, plan_.seed);
    shared_ = std::make_unique<VpsShared>();
    shared_->adapter = adapter_.get();
    shared_->rows = rows_.get();
    shared_->seed = plan_.seed;
    shared_->batch_rows = plan_.batch_rows;
    shared_->range_length = plan_.range_length;

    // Which row implementation runs is part of what was measured: report it with the settings.
    bool native = false;
    Result<std::unique_ptr<RowSession>> probe = OpenRowSession(*adapter_, &native);
    if (!probe.ok()) return probe.status();
    probe.value().reset();
    settings_ = adapter_->NativeSettings();
    settings_.emplace_back("rows", native ? "native table rows(id INTEGER PRIMARY KEY, a, b, payload), indexes on a, b"
                                          : "key/value mapping (workloads/row_store.h): row + index key spaces "
                                            "'r'+id, 'a'+a+id, 'b'+b+id, written in one batch");
    if (plan_.phases.front().name != "bulk-insert") return LoadVpsRows(shared_.get());
    return Status::Ok();
  }

  Result<std::unique_ptr<Phase>> NextPhase() override {
    if (adapter_ == nullptr) return Status::InvalidArgument("NextPhase: the sequence is not open");
    if (next_ == plan_.phases.size()) return std::unique_ptr<Phase>();
    return MakeVpsPhase(plan_.phases[next_++], shared_.get());
  }

  Settings engine_settings() const override { return settings_; }

  uint64_t live_logical_bytes() const override {
    if (shared_ == nullptr) return 0;
    return static_cast<uint64_t>(shared_->next_id.load() - 1) * VpsRowLogicalBytes(*rows_);
  }

  Status Close() override {
    Status s = Status::Ok();
    if (adapter_ != nullptr) {
      s = adapter_->Close();
      adapter_.reset();
    }
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      if (ec && s.ok()) s = Status::IOError("remove " + dir_ + ": " + ec.message());
      dir_.clear();
    }
    return s;
  }

 private:
  const AdapterFactory engine_;  // a copy: the sequence may outlive the caller's factory
  const VpsPlan plan_;
  std::string dir_;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<VpsRows> rows_;
  std::unique_ptr<VpsShared> shared_;
  Settings settings_;
  size_t next_ = 0;
};

}  // namespace

Result<std::vector<std::unique_ptr<PhaseSequence>>> MakeSqliteVpsSequences(const AdapterFactory& engine,
                                                                           const PhaseSuiteOptions& options,
                                                                           const SqliteVpsConfig& config) {
  // Every phase counts and reads back the rows it wrote; the null engine stores nothing, so the first
  // check would fail the run after it started.
  if (engine.name == "null")
    return Status::InvalidArgument(
        "the sqlite-vps suite reads back and counts every row it writes; the null engine stores nothing");
  std::vector<std::unique_ptr<PhaseSequence>> sequences;
  for (VpsDataset d : config.datasets) {
    Result<VpsPlan> plan = ResolveVpsPlan(d, options, config);
    if (!plan.ok()) return plan.status();
    sequences.push_back(std::make_unique<SqliteVpsSequence>(engine, std::move(plan.value())));
  }
  return sequences;
}

PhaseSequencesFactory SqliteVpsSequencesFactory(SqliteVpsConfig config) {
  return [config = std::move(config)](const AdapterFactory& engine, const PhaseSuiteOptions& options) {
    return MakeSqliteVpsSequences(engine, options, config);
  };
}

}  // namespace dbxb
