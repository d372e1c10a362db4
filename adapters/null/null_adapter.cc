#include "adapters/null/null_adapter.h"

#include <atomic>

#include "adapters/null/null_faults.h"

namespace dbxb {
namespace {

class NullSession final : public Session {
 public:
  NullSession(const ReferenceData* ref, const NullFaults& faults, const std::string& dir)
      : ref_(ref), faults_(faults, dir) {}

  Status Put(std::string_view, std::string_view) override {
    faults_.OnOperation();
    return Status::Ok();
  }
  Status Delete(std::string_view) override {
    faults_.OnOperation();
    return Status::Ok();
  }

  // By position when the reference data can tell the key's row without a search (Locate: dbx-micro's
  // keys carry their row number), so what is measured is the harness's loop, call, copy and
  // verification. Any other key is looked up.
  Status Get(std::string_view key, std::string* value) override {
    faults_.OnOperation();
    if (ref_ == nullptr) return Status::NotFound();
    uint64_t i = 0;
    if (!ref_->Locate(key, &i)) {
      i = ref_->LowerBound(key);
      if (i == ref_->size() || ref_->key(i) != key) return Status::NotFound();
    }
    value->assign(ref_->value(i));
    return Status::Ok();
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    faults_.OnOperation();
    if (ref_ == nullptr) return Status::Ok();
    uint64_t n = ref_->size();
    uint64_t seen = 0;
    uint64_t first = 0;
    if (!start.empty() && !ref_->Locate(start, &first)) first = ref_->LowerBound(start);
    for (uint64_t i = first; i < n; ++i) {
      if (limit != 0 && seen == limit) break;
      ++seen;
      if (!visitor(ref_->key(i), ref_->value(i))) break;
    }
    return Status::Ok();
  }

  Status Count(uint64_t* count) override {
    *count = ref_ == nullptr ? 0 : ref_->size();
    return Status::Ok();
  }

 private:
  // Nothing is stored: a batch has nothing to keep.
  Status DoBegin() override { return Status::Ok(); }
  Status DoCommit() override { return faults_.OnCommit(); }
  Status DoAbort() override { return Status::Ok(); }

  const ReferenceData* ref_;
  FaultInjector faults_;  // test-only (null_faults.h); does nothing unless a null.* option is given
};

class NullAdapter final : public Adapter {
 public:
  NullAdapter(std::shared_ptr<const ReferenceData> ref, const NullFaults& faults, std::string dir)
      : ref_(std::move(ref)), faults_(faults), dir_(std::move(dir)) {}

  Result<std::unique_ptr<Session>> NewSession() override {
    return std::unique_ptr<Session>(new NullSession(ref_.get(), faults_, dir_));
  }
  Settings NativeSettings() override {
    Settings s = {{"stores", "nothing"}, {"answers_from", ref_ ? "reference data" : "empty"}};
    for (auto& kv : faults_.Describe()) s.push_back(std::move(kv));
    return s;
  }
  Status Close() override { return Status::Ok(); }

 private:
  std::shared_ptr<const ReferenceData> ref_;
  NullFaults faults_;
  std::string dir_;
};

}  // namespace

AdapterFactory NullAdapterFactory() {
  AdapterFactory f;
  f.name = "null";
  f.description = "stores nothing; measures the harness's own cost per operation";
  f.library_version = [] { return std::string("none"); };
  f.library_build = [] { return std::string("built-in"); };
  f.library_source = "in-tree (adapters/null/)";
  f.open = [](const AdapterOptions& options) -> Result<std::unique_ptr<Adapter>> {
    NullFaults faults;
    DBXB_RETURN_IF_ERROR(NullFaults::Parse(options, &faults));
    return std::unique_ptr<Adapter>(new NullAdapter(options.reference, faults, options.dir));
  };
  // Test-only instruments (null_faults.h).
  f.native_options = {
      {kNullSpinKey, "test only: N multiply-adds of a dependent loop per operation (a uniform slowdown)", "0"},
      {kNullStallKey, "test only: `NS/K`, every K-th operation of a session busy-waits NS nanoseconds", "none"},
      {kNullPauseKey, "test only: `NS/PERIOD`, the session busy-waits NS once per PERIOD ns of wall time", "none"},
      {kNullSyncsPerCommitKey, "test only: N fsyncs of a file of the database's per commit", "0"},
  };
  f.check_native_values = [](const AdapterOptions& options) {
    NullFaults faults;
    return NullFaults::Parse(options, &faults);
  };
  return f;
}

}  // namespace dbxb
