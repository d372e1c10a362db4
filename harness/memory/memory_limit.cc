#include "harness/memory/memory_limit.h"

#include <utility>

// A sequence run under a memory limit: confined to a cgroup from Open to Close, or evicted from the
// page cache before each phase; each phase labelled with the method.
namespace dbxb {
namespace {

// The inner phase with the memory parameters added to its spec; fails at TearDown when the OOM guard
// had to lift the limit while it ran (its figures were then not confined). With eviction (evict_dir not
// empty) a settle is followed by another eviction: the settle's writes (checkpoint, compaction) would
// otherwise leave the files they touched cached.
class LabeledPhase final : public Phase {
 public:
  LabeledPhase(std::unique_ptr<Phase> inner, std::vector<std::pair<std::string, std::string>> extra,
               const MemoryConfinement* confinement, uint64_t limit, std::string evict_dir)
      : inner_(std::move(inner)),
        spec_(inner_->spec()),
        confinement_(confinement),
        limit_(limit),
        evict_dir_(std::move(evict_dir)) {
    for (auto& kv : extra) spec_.parameters.push_back(std::move(kv));
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status SetUp() override {
    oom_before_ = OomEvents();
    return inner_->SetUp();
  }
  Status Settle() override {
    DBXB_RETURN_IF_ERROR(inner_->Settle());
    ReleaseFreedHeap();  // the phase starts with the memory the engine holds, not what it freed
    if (evict_dir_.empty()) return Status::Ok();
    Result<EvictionStats> evicted = EvictFromPageCache(evict_dir_);
    return evicted.ok() || evicted.status().IsNotFound() ? Status::Ok() : evicted.status();
  }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t t) override { return inner_->NewWorker(t); }
  Status TearDown() override {
    Status s = inner_->TearDown();
    if (OomEvents() != oom_before_)
      return Status::Internal(
          "the process's own memory (engine caches and buffers, not the page cache) exceeded "
          "the memory limit of " +
          std::to_string(limit_) +
          " bytes; the limit was lifted so the run could go on, so this phase was not "
          "confined: raise --memory-limit");
    return s;
  }

 private:
  uint64_t OomEvents() const { return confinement_ != nullptr ? confinement_->oom_events() : 0; }

  std::unique_ptr<Phase> inner_;
  PhaseSpec spec_;
  const MemoryConfinement* confinement_;
  uint64_t limit_;
  std::string evict_dir_;
  uint64_t oom_before_ = 0;
};

class MemoryLimitedSequence final : public PhaseSequence {
 public:
  MemoryLimitedSequence(std::unique_ptr<PhaseSequence> inner, uint64_t limit, std::string evict_dir,
                        MemoryLimitProbe probe)
      : inner_(std::move(inner)), limit_(limit), evict_dir_(std::move(evict_dir)), probe_(std::move(probe)) {}

  ~MemoryLimitedSequence() override { (void)Close(); }

  std::string dataset() const override { return inner_->dataset(); }
  std::string workload() const override { return inner_->workload(); }

  Status Open() override {
    method_ = MemoryLimitMethodName(MemoryLimitMethod::kFadviseEviction);
    if (probe_.method != MemoryLimitMethod::kFadviseEviction) {
      Result<std::unique_ptr<MemoryConfinement>> c = MemoryConfinement::Enter(probe_, limit_);
      if (c.ok()) {
        confinement_ = std::move(c.value());
        method_ = confinement_->description();
      } else {
        fallback_reason_ = " (entering the cgroup failed: " + c.status().ToString() + ")";
      }
    } else if (!probe_.notes.empty()) {
      fallback_reason_ = " (no cgroup memory limit here)";
    }
    return inner_->Open();
  }

  Result<std::unique_ptr<Phase>> NextPhase() override {
    if (confinement_ != nullptr && confinement_->oom_events() != 0)
      return Status::Internal("the memory limit of " + std::to_string(limit_) +
                              " bytes was lifted after the process's own memory exceeded it (engine open or an "
                              "earlier phase): raise --memory-limit");
    Result<std::unique_ptr<Phase>> phase = inner_->NextPhase();
    if (!phase.ok() || *phase == nullptr) return phase;
    // Every phase starts with none of the database in the page cache, with a cgroup too: there, what a
    // phase found cached would otherwise be what the previous phase left, which differs between engines
    // by how much memory each freed at its end (measured: DBX began select-pk with 541 MB cached where
    // the limit allowed 840), and a result would depend on which method the machine allows.
    std::string method = method_;
    Result<EvictionStats> evicted = EvictFromPageCache(evict_dir_);
    if (!evicted.ok() && !evicted.status().IsNotFound()) return evicted.status();
    if (confinement_ == nullptr) method += fallback_reason_;
    if (evicted.ok())
      method += "; " + std::to_string(evicted->resident_after) + " of " + std::to_string(evicted->bytes) +
                " bytes still cached after eviction";
    return std::unique_ptr<Phase>(new LabeledPhase(
        std::move(phase.value()), {{"memory_limit_bytes", std::to_string(limit_)}, {kMemoryMethodParameter, method}},
        confinement_.get(), limit_, evict_dir_));
  }

  Settings engine_settings() const override { return inner_->engine_settings(); }

  Status Close() override {
    if (closed_) return Status::Ok();
    closed_ = true;
    Status s = inner_->Close();
    if (confinement_ != nullptr) {
      Status left = confinement_->Leave();
      if (s.ok()) s = left;
      confinement_.reset();
    }
    return s;
  }

 private:
  std::unique_ptr<PhaseSequence> inner_;
  uint64_t limit_;
  std::string evict_dir_;
  MemoryLimitProbe probe_;
  std::unique_ptr<MemoryConfinement> confinement_;
  std::string method_;
  std::string fallback_reason_;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<PhaseSequence> WithMemoryLimit(std::unique_ptr<PhaseSequence> inner, uint64_t limit_bytes,
                                               std::string evict_dir, MemoryLimitProbe probe) {
  return std::make_unique<MemoryLimitedSequence>(std::move(inner), limit_bytes, std::move(evict_dir), std::move(probe));
}

void MemoryLimits::Apply(std::vector<std::unique_ptr<PhaseSequence>>* sequences) {
  for (auto& seq : *sequences) {
    const uint64_t limit = seq->memory_limit_bytes();
    if (limit == 0) continue;
    if (!probe_) probe_ = ProbeMemoryLimit();
    seq = WithMemoryLimit(std::move(seq), limit, evict_dir_, *probe_);
  }
}

}  // namespace dbxb
