#include "workloads/sqlite_vps/vps_phases.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "workloads/prng.h"
#include "workloads/row_store.h"
#include "workloads/sqlite_vps/vps_config.h"

namespace dbxb {
namespace {

// The ids a thread wrote last, kept for the check after the phase. One per thread: no sharing.
struct RecentIds {
  static constexpr size_t kSize = 64;
  std::array<int64_t, kSize> ids{};
  uint64_t count = 0;
  void Add(int64_t id) { ids[count++ % kSize] = id; }
  size_t size() const { return static_cast<size_t>(std::min<uint64_t>(count, kSize)); }
};

struct ThreadSamples {
  RecentIds updated;
  RecentIds inserted;
};

enum class OpKind : uint32_t { kRead, kUpdate, kInsert };

Status NotFoundIsCorruption(const Status& s, const char* what, int64_t id) {
  if (s.IsNotFound()) return Status::Corruption(std::string(what) + ": row " + std::to_string(id) + " is missing");
  return s;
}

// The operations every worker may perform, on its own RowSession and generator.
class VpsWorkerBase : public PhaseWorker {
 public:
  VpsWorkerBase(std::unique_ptr<RowSession> session, VpsShared* shared, uint64_t seed, ThreadSamples* samples)
      : session_(std::move(session)), shared_(shared), rows_(*shared->rows), rng_(seed), samples_(samples) {}

 protected:
  int64_t RandomLoadedId() { return 1 + static_cast<int64_t>(rng_.Below(shared_->loaded)); }

  Status Read() {
    int64_t id = RandomLoadedId();
    DBXB_RETURN_IF_ERROR(NotFoundIsCorruption(session_->GetById(id, &row_), "select-pk", id));
    return rows_.Verify(id, row_);
  }

  Status Update(uint32_t version) {
    int64_t id = RandomLoadedId();
    rows_.Fill(id, version, &row_);
    DBXB_RETURN_IF_ERROR(NotFoundIsCorruption(session_->UpdateRow(row_), "update", id));
    Committed();
    samples_->updated.Add(id);
    return Status::Ok();
  }

  Status Insert() {
    int64_t id = shared_->next_id.fetch_add(1, std::memory_order_relaxed);
    rows_.Fill(id, 0, &row_);
    DBXB_RETURN_IF_ERROR(session_->InsertRow(row_));
    Committed();
    samples_->inserted.Add(id);
    return Status::Ok();
  }

 public:
  WriteTally written() const override { return written_; }

 protected:
  // One row written in a transaction of its own.
  void Committed() {
    ++written_.commits;
    written_.logical_bytes += VpsRowLogicalBytes(rows_);
  }

  std::unique_ptr<RowSession> session_;
  VpsShared* shared_;
  const VpsRows& rows_;
  Xoshiro256 rng_;
  ThreadSamples* samples_;
  Row row_;
  WriteTally written_;
};

class SelectPkWorker final : public VpsWorkerBase {
 public:
  using VpsWorkerBase::VpsWorkerBase;
  Status NextOp(uint32_t* op) override {
    *op = 0;
    return Read();
  }
};

class UpdateWorker final : public VpsWorkerBase {
 public:
  UpdateWorker(std::unique_ptr<RowSession> s, VpsShared* shared, uint64_t seed, ThreadSamples* samples,
               uint32_t version)
      : VpsWorkerBase(std::move(s), shared, seed, samples), version_(version) {}
  Status NextOp(uint32_t* op) override {
    *op = 0;
    return Update(version_);
  }

 private:
  uint32_t version_;
};

class MixedWorker final : public VpsWorkerBase {
 public:
  using VpsWorkerBase::VpsWorkerBase;
  Status NextOp(uint32_t* op) override {
    uint64_t dice = rng_.Below(100);
    if (dice < 70) {
      *op = static_cast<uint32_t>(OpKind::kRead);
      return Read();
    }
    if (dice < 95) {
      *op = static_cast<uint32_t>(OpKind::kUpdate);
      return Update(kVpsMixedVersion);
    }
    *op = static_cast<uint32_t>(OpKind::kInsert);
    return Insert();
  }
};

class RangeScanWorker final : public VpsWorkerBase {
 public:
  using VpsWorkerBase::VpsWorkerBase;
  Status NextOp(uint32_t* op) override {
    *op = 0;
    const uint64_t length = shared_->range_length;
    const int64_t lo = static_cast<int64_t>(rng_.Below(shared_->loaded - length + 1));
    uint64_t seen = 0;
    Status verdict = Status::Ok();
    DBXB_RETURN_IF_ERROR(session_->RangeByIndexA(lo, length, [&](const Row& row) {
      const int64_t want_a = lo + static_cast<int64_t>(seen);
      if (row.a != want_a) {
        verdict = Status::Corruption("range-scan from a=" + std::to_string(lo) + ": row " + std::to_string(seen) +
                                     " has a=" + std::to_string(row.a) + ", expected " + std::to_string(want_a));
        return false;
      }
      verdict = rows_.Verify(row.id, row);
      ++seen;
      return verdict.ok();
    }));
    DBXB_RETURN_IF_ERROR(verdict);
    if (seen != length)
      return Status::Corruption("range-scan from a=" + std::to_string(lo) + ": " + std::to_string(seen) +
                                " rows, expected " + std::to_string(length));
    return Status::Ok();
  }
};

class BulkInsertWorker final : public PhaseWorker {
 public:
  BulkInsertWorker(std::unique_ptr<RowSession> session, VpsShared* shared, uint64_t* committed)
      : session_(std::move(session)), shared_(shared), committed_(committed) {}

  Status NextOp(uint32_t* op) override {
    *op = 0;
    const int64_t id = shared_->next_id.load(std::memory_order_relaxed);
    const uint64_t records = shared_->rows->records();
    if (static_cast<uint64_t>(id) > records)
      return Status::InvalidArgument("bulk-insert: all " + std::to_string(records) + " rows are already inserted");
    if (in_batch_ == 0) DBXB_RETURN_IF_ERROR(session_->Begin());
    shared_->rows->Fill(id, 0, &row_);
    DBXB_RETURN_IF_ERROR(session_->InsertRow(row_));
    shared_->next_id.store(id + 1, std::memory_order_relaxed);
    if (++in_batch_ == shared_->batch_rows || static_cast<uint64_t>(id) == records) return Commit();
    return Status::Ok();
  }

  Status Finish() override { return in_batch_ > 0 ? Commit() : Status::Ok(); }
  WriteTally written() const override { return written_; }

 private:
  Status Commit() {
    DBXB_RETURN_IF_ERROR(session_->Commit());
    *committed_ += in_batch_;
    ++written_.commits;
    written_.logical_bytes += in_batch_ * VpsRowLogicalBytes(*shared_->rows);
    in_batch_ = 0;
    return Status::Ok();
  }

  std::unique_ptr<RowSession> session_;
  VpsShared* shared_;
  uint64_t* committed_;
  uint64_t in_batch_ = 0;
  Row row_;
  WriteTally written_;
};

class VpsPhase final : public Phase {
 public:
  VpsPhase(PhaseSpec spec, VpsShared* shared, uint64_t salt) : spec_(std::move(spec)), shared_(shared), salt_(salt) {}

  const PhaseSpec& spec() const override { return spec_; }

  Status Settle() override { return shared_->adapter->Settle(); }

  Status SetUp() override {
    samples_.assign(spec_.threads, ThreadSamples());
    if (spec_.name == "bulk-insert") {
      if (shared_->next_id.load() != 1) return Status::InvalidArgument("bulk-insert: the table is not empty");
      return Status::Ok();
    }
    if (shared_->loaded == 0) return Status::InvalidArgument(spec_.name + ": no rows loaded");
    if (spec_.name == "range-scan" && shared_->loaded < shared_->range_length)
      return Status::InvalidArgument("range-scan: fewer rows than the range length");
    return Status::Ok();
  }

  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t thread) override {
    if (thread >= samples_.size()) return Status::InvalidArgument("NewWorker: thread index out of range");
    Result<std::unique_ptr<RowSession>> session = OpenRowSession(*shared_->adapter);
    if (!session.ok()) return session.status();
    std::unique_ptr<RowSession> s = std::move(session.value());
    const uint64_t seed = Fnv1a64(shared_->seed ^ (salt_ << 32)) + thread;
    ThreadSamples* samples = &samples_[thread];
    const std::string& n = spec_.name;
    std::unique_ptr<PhaseWorker> w;
    if (n == "bulk-insert")
      w.reset(new BulkInsertWorker(std::move(s), shared_, &committed_));
    else if (n == "select-pk" || n == "concurrent-reads")
      w.reset(new SelectPkWorker(std::move(s), shared_, seed, samples));
    else if (n == "range-scan")
      w.reset(new RangeScanWorker(std::move(s), shared_, seed, samples));
    else if (n == "update")
      w.reset(new UpdateWorker(std::move(s), shared_, seed, samples, kVpsUpdateVersion));
    else if (n == "concurrent-writes")
      w.reset(new UpdateWorker(std::move(s), shared_, seed, samples, kVpsConcurrentWriteVersion));
    else if (n == "mixed-oltp")
      w.reset(new MixedWorker(std::move(s), shared_, seed, samples));
    else
      return Status::InvalidArgument("unknown sqlite-vps phase '" + n + "'");
    return w;
  }

  Status TearDown() override {
    const std::string& n = spec_.name;
    if (n == "select-pk" || n == "range-scan" || n == "concurrent-reads") return Status::Ok();
    Result<std::unique_ptr<RowSession>> session = OpenRowSession(*shared_->adapter);
    if (!session.ok()) return session.status();
    RowSession& s = **session;
    if (n == "bulk-insert") {
      shared_->loaded = committed_;
      DBXB_RETURN_IF_ERROR(ExpectCount(s));
      const uint64_t step = std::max<uint64_t>(1, committed_ / 64);
      for (uint64_t id = 1; id <= committed_; id += step) DBXB_RETURN_IF_ERROR(ExpectVersion(s, id, 0));
      return committed_ > 0 ? ExpectVersion(s, static_cast<int64_t>(committed_), 0) : Status::Ok();
    }
    DBXB_RETURN_IF_ERROR(ExpectCount(s));
    const uint32_t version = n == "update"       ? kVpsUpdateVersion
                             : n == "mixed-oltp" ? kVpsMixedVersion
                                                 : kVpsConcurrentWriteVersion;
    for (const ThreadSamples& t : samples_) {
      for (size_t i = 0; i < t.updated.size(); ++i) DBXB_RETURN_IF_ERROR(ExpectVersion(s, t.updated.ids[i], version));
      for (size_t i = 0; i < t.inserted.size(); ++i) DBXB_RETURN_IF_ERROR(ExpectVersion(s, t.inserted.ids[i], 0));
    }
    return Status::Ok();
  }

 private:
  // Every id handed out has committed (a failed insert fails the phase), so the ids are 1..next_id-1.
  Status ExpectCount(RowSession& s) {
    uint64_t count = 0;
    DBXB_RETURN_IF_ERROR(s.Count(&count));
    const uint64_t want = static_cast<uint64_t>(shared_->next_id.load() - 1);
    if (count != want)
      return Status::Corruption(spec_.name + ": " + std::to_string(count) + " rows after the phase, expected " +
                                std::to_string(want));
    return Status::Ok();
  }

  Status ExpectVersion(RowSession& s, int64_t id, uint32_t version) {
    Row row;
    DBXB_RETURN_IF_ERROR(NotFoundIsCorruption(s.GetById(id, &row), spec_.name.c_str(), id));
    uint32_t got = 0;
    DBXB_RETURN_IF_ERROR(shared_->rows->Verify(id, row, &got));
    if (got != version)
      return Status::Corruption(spec_.name + ": row " + std::to_string(id) + " holds version " + std::to_string(got) +
                                " after the phase, expected " + std::to_string(version));
    return Status::Ok();
  }

  PhaseSpec spec_;
  VpsShared* shared_;
  uint64_t salt_;
  std::vector<ThreadSamples> samples_;
  uint64_t committed_ = 0;  // bulk-insert: rows its worker committed
};

}  // namespace

Result<std::unique_ptr<Phase>> MakeVpsPhase(const PhaseSpec& spec, VpsShared* shared) {
  const auto& names = VpsPhaseNames();
  auto it = std::find(names.begin(), names.end(), spec.name);
  if (it == names.end()) return Status::InvalidArgument("unknown sqlite-vps phase '" + spec.name + "'");
  return std::unique_ptr<Phase>(new VpsPhase(spec, shared, static_cast<uint64_t>(it - names.begin()) + 1));
}

Status LoadVpsRows(VpsShared* shared) {
  Result<std::unique_ptr<RowSession>> session = OpenRowSession(*shared->adapter);
  if (!session.ok()) return session.status();
  const int64_t records = static_cast<int64_t>(shared->rows->records());
  std::vector<Row> batch;
  for (int64_t id = shared->next_id.load(); id <= records;) {
    batch.resize(std::min<uint64_t>(shared->batch_rows, static_cast<uint64_t>(records - id + 1)));
    for (Row& row : batch) shared->rows->Fill(id++, 0, &row);
    DBXB_RETURN_IF_ERROR((*session)->InsertRows(batch));
  }
  shared->next_id.store(records + 1);
  shared->loaded = static_cast<uint64_t>(records);
  return Status::Ok();
}

}  // namespace dbxb
