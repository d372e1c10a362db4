#include "workloads/ycsb_suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "workloads/distributions.h"
#include "workloads/prng.h"
#include "workloads/ycsb_records.h"
#include "workloads/zipfian.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

enum class RunOp : uint8_t { kRead, kUpdate, kInsert, kScan, kReadModifyWrite };

// What the load and run phases of one sequence share: the workload, the open engine and the insert
// sequence. Owned by the sequence, which outlives its phases.
struct YcsbShared {
  YcsbWorkload w;
  std::string name;
  const AdapterFactory* engine = nullptr;
  PhaseSuiteOptions options;
  std::unique_ptr<Adapter> adapter;
  std::string dir;
  uint64_t first = 0;                      // key number of the first loaded record (insertstart)
  uint64_t loaded = 0;                     // records loaded (insertcount), by every client together
  uint64_t load_from = 0, load_count = 0;  // this client's share of them: its own key numbers
  uint64_t run_operations = 0;
  std::unique_ptr<AcknowledgedCounter> inserts;
  std::atomic<uint64_t> next_load_batch{0};
  uint32_t threads = 1;

  bool null_engine() const { return engine->name == "null"; }
  uint64_t load_batch() const { return std::max<uint64_t>(1, options.load_batch); }
  bool shared_with_clients() const { return options.client_count > 1; }
  // The key number of a rank of the key choosers and the insert sequence: ranks below the loaded range's
  // end are the loaded records; the n-th insert of this client takes end + n x clients + client, so that
  // the clients' inserts never collide and each chooses among the loaded records and its own inserts.
  uint64_t KeyNumber(uint64_t rank) const {
    const uint64_t end = first + loaded;
    if (rank < end || options.client_count <= 1) return rank;
    return end + (rank - end) * options.client_count + options.client_index;
  }
};

uint64_t WorkerSeed(const YcsbShared& s, uint64_t phase, uint32_t thread) {
  SplitMix64 mix(s.options.seed * 0x9e3779b97f4a7c15ull + phase * 1000003 + thread);
  return mix.Next();
}

// Checks the exact row count after a phase; with other clients writing the same database, that it holds
// at least what this client knows is there. The null engine stores nothing: there is no count to check.
Status CheckCount(YcsbShared& s, uint64_t expected, std::string_view when) {
  if (s.null_engine()) return Status::Ok();
  auto session = s.adapter->NewSession();
  if (!session.ok()) return session.status();
  uint64_t count = 0;
  DBXB_RETURN_IF_ERROR(session.value()->Count(&count));
  if (count == expected || (s.shared_with_clients() && count > expected)) return Status::Ok();
  return Status::Corruption(fmt::format("{}: the store holds {} records, expected {}{}", when, count,
                                        s.shared_with_clients() ? "at least " : "", expected));
}

class LoadWorker final : public PhaseWorker {
 public:
  LoadWorker(YcsbShared* s, std::unique_ptr<Session> session, uint64_t seed)
      : s_(*s), session_(std::move(session)), codec_(s->w, seed) {}

  Status NextOp(uint32_t* op) override {
    *op = 0;
    const uint64_t batch = s_.load_batch();
    const uint64_t b = s_.next_load_batch.fetch_add(1, std::memory_order_relaxed);
    const uint64_t end = s_.load_from + s_.load_count;
    const uint64_t from = s_.load_from + b * batch;
    if (from >= end) return Status::Internal(fmt::format("load: batch {} is past the last record", b));
    const uint64_t to = std::min(end, from + batch);
    if (batch > 1) DBXB_RETURN_IF_ERROR(session_->Begin());
    uint64_t bytes = 0;
    for (uint64_t n = from; n < to; ++n) {
      YcsbKey(n, s_.w, &key_);
      codec_.BuildValue(key_, &value_);
      Status st = session_->Put(key_, value_);
      if (!st.ok()) {
        if (batch > 1) (void)session_->Abort();
        return st.WithContext(fmt::format("load: insert of {}", key_));
      }
      bytes += key_.size() + value_.size();
    }
    if (batch > 1) DBXB_RETURN_IF_ERROR(session_->Commit());
    written_.commits += batch > 1 ? 1 : to - from;
    written_.logical_bytes += bytes;
    return Status::Ok();
  }

  WriteTally written() const override { return written_; }

 private:
  YcsbShared& s_;
  std::unique_ptr<Session> session_;
  YcsbRecordCodec codec_;
  std::string key_, value_;
  WriteTally written_;
};

class YcsbLoadPhase final : public Phase {
 public:
  explicit YcsbLoadPhase(YcsbShared* s) : s_(*s) {
    spec_.name = "load";
    spec_.repeatable = false;  // it inserts the records once
    spec_.op_types = {s_.load_batch() > 1 ? "insert-batch" : "insert"};
    spec_.threads = s_.threads;
    spec_.operations = (s_.load_count + s_.load_batch() - 1) / s_.load_batch();
    spec_.rows_per_operation = s_.load_batch();
    spec_.parameters = {{"records", std::to_string(s_.loaded)},
                        {"load_batch", std::to_string(s_.load_batch())},
                        {"fieldcount", std::to_string(s_.w.field_count)},
                        {"fieldlength", std::to_string(s_.w.field_length)},
                        {"insertorder", s_.w.insert_order == YcsbWorkload::InsertOrder::kHashed ? "hashed" : "ordered"},
                        {"durability", std::string(DurabilityName(s_.options.engine_options.durability))},
                        {"cache_bytes", std::to_string(s_.options.engine_options.cache_bytes)}};
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status SetUp() override {
    s_.next_load_batch.store(0);
    return Status::Ok();
  }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t thread) override {
    auto session = s_.adapter->NewSession();
    if (!session.ok()) return session.status();
    return std::unique_ptr<PhaseWorker>(new LoadWorker(&s_, std::move(session.value()), WorkerSeed(s_, 1, thread)));
  }
  Status TearDown() override {
    return CheckCount(s_, s_.shared_with_clients() ? s_.load_count : s_.loaded, "after the load");
  }

 private:
  YcsbShared& s_;
  PhaseSpec spec_;
};

// The key numbers a run chooses from, as YCSB's CoreWorkload does (see ycsb_suite.h).
class RunKeys {
 public:
  static Result<RunKeys> Make(const YcsbShared& s, uint64_t seed) {
    RunKeys k;
    k.shared_ = &s;
    k.first_ = s.first;
    k.inserts_ = s.inserts.get();
    KeyChooserOptions o;
    o.seed = seed;
    o.hotspot_data_fraction = s.w.hotspot_data_fraction;
    o.hotspot_op_fraction = s.w.hotspot_op_fraction;
    o.item_count = s.loaded;
    std::string_view name = s.w.KeyChooserName();
    if (name == "scrambled_zipfian") {
      k.mode_ = Mode::kBelowLimit;
      o.item_count += static_cast<uint64_t>(static_cast<double>(s.run_operations) * s.w.insert_proportion * 2.0);
    } else if (name == "latest") {
      k.mode_ = Mode::kFollowInserts;
    }
    auto chooser = MakeKeyChooser(name, o);
    if (!chooser.ok()) return chooser.status();
    k.chooser_ = std::move(chooser.value());
    k.known_limit_ = s.first + s.loaded;
    return k;
  }

  uint64_t Next() { return shared_->KeyNumber(NextRank()); }

 private:
  uint64_t NextRank() {
    switch (mode_) {
      case Mode::kFixed:
        return first_ + chooser_->Next();
      case Mode::kBelowLimit: {
        const uint64_t limit = inserts_->Limit();
        uint64_t n = first_ + chooser_->Next();
        for (int tries = 0; n >= limit && tries < 1000; ++tries) n = first_ + chooser_->Next();
        return n < limit ? n : first_ + (n - first_) % (limit - first_);
      }
      case Mode::kFollowInserts: {
        const uint64_t limit = inserts_->Limit();
        if (limit != known_limit_) {
          chooser_->SetItemCount(limit - first_);
          known_limit_ = limit;
        }
        return first_ + chooser_->Next();
      }
    }
    return first_;
  }

  enum class Mode { kFixed, kBelowLimit, kFollowInserts };
  const YcsbShared* shared_ = nullptr;
  Mode mode_ = Mode::kFixed;
  uint64_t first_ = 0;
  uint64_t known_limit_ = 0;
  AcknowledgedCounter* inserts_ = nullptr;
  std::unique_ptr<KeyChooser> chooser_;
};

class RunWorker final : public PhaseWorker {
 public:
  RunWorker(YcsbShared* s, std::unique_ptr<Session> session, RunKeys keys, std::vector<std::pair<double, RunOp>> mix,
            uint64_t seed)
      : s_(*s),
        session_(std::move(session)),
        keys_(std::move(keys)),
        mix_(std::move(mix)),
        codec_(s->w, seed),
        rng_(seed + 1),
        scan_ranks_(s->w.max_scan_length - std::min(s->w.max_scan_length, s->w.min_scan_length) + 1) {
    value_.reserve(codec_.MaxValueSize());
    read_.reserve(codec_.MaxValueSize());
  }

  WriteTally written() const override { return written_; }

  Status NextOp(uint32_t* op) override {
    const double u = rng_.NextDouble();
    size_t i = 0;
    while (i + 1 < mix_.size() && u >= mix_[i].first) ++i;
    *op = static_cast<uint32_t>(i);
    switch (mix_[i].second) {
      case RunOp::kRead:
        return Read(keys_.Next());
      case RunOp::kUpdate:
        return s_.w.write_all_fields ? Write(keys_.Next()) : ReadModifyWrite(keys_.Next(), "update");
      case RunOp::kInsert:
        return Insert();
      case RunOp::kScan:
        return Scan(keys_.Next());
      case RunOp::kReadModifyWrite:
        return ReadModifyWrite(keys_.Next(), "read-modify-write");
    }
    return Status::Internal("unknown operation");
  }

 private:
  Status Get(uint64_t n, std::string_view what) {
    YcsbKey(n, s_.w, &key_);
    Status st = session_->Get(key_, &read_);
    if (st.IsNotFound()) return Status::Corruption(fmt::format("{}: key {} (key number {}) not found", what, key_, n));
    if (!st.ok()) return st.WithContext(fmt::format("{} of {}", what, key_));
    return codec_.Verify(key_, read_).WithContext(what);
  }

  Status Read(uint64_t n) { return Get(n, "read"); }

  Status Write(uint64_t n) {
    YcsbKey(n, s_.w, &key_);
    codec_.BuildValue(key_, &value_);
    return Put();
  }

  // One write outside a batch: a transaction of its own.
  Status Put() {
    DBXB_RETURN_IF_ERROR(session_->Put(key_, value_));
    ++written_.commits;
    written_.logical_bytes += key_.size() + value_.size();
    return Status::Ok();
  }

  Status ReadModifyWrite(uint64_t n, std::string_view what) {
    DBXB_RETURN_IF_ERROR(Get(n, what));
    const uint64_t field = s_.w.write_all_fields ? s_.w.field_count : codec_.RandomField();
    codec_.UpdateValue(key_, read_, field, &value_);
    return Put();
  }

  Status Insert() {
    const uint64_t n = s_.inserts->Next();
    Status st = Write(s_.KeyNumber(n));
    // Acknowledged even when it failed: the phase stops anyway, and a gap would stall the others.
    s_.inserts->Acknowledge(n);
    return st.WithContext("insert");
  }

  Status Scan(uint64_t n) {
    const uint64_t length = s_.w.scan_length_distribution == YcsbWorkload::ScanLengthDistribution::kUniform
                                ? s_.w.min_scan_length + rng_.Below(s_.w.max_scan_length - s_.w.min_scan_length + 1)
                                : s_.w.min_scan_length + scan_ranks_.Rank(rng_.NextDouble());
    YcsbKey(n, s_.w, &key_);
    uint64_t rows = 0;
    Status bad;
    Status st = session_->Scan(key_, length, [&](std::string_view k, std::string_view v) {
      if (rows == 0 && k != key_) {
        bad = Status::Corruption(fmt::format("scan: starts at {}, not at the existing start key {}", k, key_));
        return false;
      }
      ++rows;
      bad = codec_.Verify(k, v);
      return bad.ok();
    });
    if (!st.ok()) return st.WithContext(fmt::format("scan from {}", key_));
    if (!bad.ok()) return bad.WithContext("scan");
    if (rows == 0) return Status::Corruption(fmt::format("scan: no row from the existing key {}", key_));
    if (rows > length) return Status::Corruption(fmt::format("scan: {} rows for a limit of {}", rows, length));
    return Status::Ok();
  }

  YcsbShared& s_;
  std::unique_ptr<Session> session_;
  RunKeys keys_;
  std::vector<std::pair<double, RunOp>> mix_;  // cumulative proportion, operation
  YcsbRecordCodec codec_;
  Xoshiro256 rng_;
  ZipfianRanks scan_ranks_;
  std::string key_, value_, read_;
  WriteTally written_;
};

class YcsbRunPhase final : public Phase {
 public:
  explicit YcsbRunPhase(YcsbShared* s) : s_(*s) {
    const YcsbWorkload& w = s_.w;
    const std::pair<double, std::pair<RunOp, const char*>> all[] = {
        {w.read_proportion, {RunOp::kRead, "read"}},
        {w.update_proportion, {RunOp::kUpdate, "update"}},
        {w.insert_proportion, {RunOp::kInsert, "insert"}},
        {w.scan_proportion, {RunOp::kScan, "scan"}},
        {w.read_modify_write_proportion, {RunOp::kReadModifyWrite, "read-modify-write"}}};
    double sum = 0;
    for (const auto& [p, op] : all) {
      if (p <= 0) continue;
      sum += p;
      mix_.emplace_back(sum, op.first);
      spec_.op_types.push_back(op.second);
    }
    spec_.name = "run";
    spec_.settle = s_.options.settle && s_.options.client_index == 0;  // after the load; one settle per database
    spec_.threads = s_.threads;
    spec_.operations = s_.run_operations;
    spec_.duration_seconds = s_.options.duration_seconds;
    spec_.warmup_seconds = s_.options.warmup_seconds;
    spec_.target_rate = s_.options.target_rate;
    spec_.parameters = {{"records", std::to_string(s_.loaded)},
                        {"operations", std::to_string(s_.run_operations)},
                        {"requestdistribution", w.request_distribution},
                        {"readproportion", fmt::format("{}", w.read_proportion)},
                        {"updateproportion", fmt::format("{}", w.update_proportion)},
                        {"insertproportion", fmt::format("{}", w.insert_proportion)},
                        {"scanproportion", fmt::format("{}", w.scan_proportion)},
                        {"readmodifywriteproportion", fmt::format("{}", w.read_modify_write_proportion)},
                        {"fieldcount", std::to_string(w.field_count)},
                        {"fieldlength", std::to_string(w.field_length)},
                        {"readallfields", w.read_all_fields ? "true" : "false"},
                        {"writeallfields", w.write_all_fields ? "true" : "false"},
                        {"dataintegrity", w.data_integrity ? "true" : "false"},
                        {"durability", std::string(DurabilityName(s_.options.engine_options.durability))},
                        {"cache_bytes", std::to_string(s_.options.engine_options.cache_bytes)}};
    if (w.scan_proportion > 0) {
      spec_.parameters.emplace_back("minscanlength", std::to_string(w.min_scan_length));
      spec_.parameters.emplace_back("maxscanlength", std::to_string(w.max_scan_length));
    }
  }
  const PhaseSpec& spec() const override { return spec_; }
  Status Settle() override { return s_.adapter->Settle(); }
  Result<std::unique_ptr<PhaseWorker>> NewWorker(uint32_t thread) override {
    const uint64_t seed = WorkerSeed(s_, 2, thread);
    auto keys = RunKeys::Make(s_, seed);
    if (!keys.ok()) return keys.status();
    auto session = s_.adapter->NewSession();
    if (!session.ok()) return session.status();
    return std::unique_ptr<PhaseWorker>(
        new RunWorker(&s_, std::move(session.value()), std::move(keys.value()), mix_, seed + 7));
  }
  Status TearDown() override { return CheckCount(s_, s_.inserts->Limit() - s_.first, "after the run"); }

 private:
  YcsbShared& s_;
  PhaseSpec spec_;
  std::vector<std::pair<double, RunOp>> mix_;
};

std::string SafeName(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out;
}

class YcsbSequence final : public PhaseSequence {
 public:
  explicit YcsbSequence(std::unique_ptr<YcsbShared> s) : s_(std::move(s)) {}
  ~YcsbSequence() override { (void)Close(); }

  std::string workload() const override { return s_->name; }

  Status Open() override {
    YcsbShared& s = *s_;
    s.dir =
        (fs::path(s.options.work_dir) / fmt::format("ycsb-{}-{}", SafeName(s.name), SafeName(s.engine->name))).string();
    std::error_code ec;
    fs::create_directories(s.dir, ec);
    if (ec) return Status::IOError(fmt::format("cannot create {}: {}", s.dir, ec.message()));
    AdapterOptions o = s.options.engine_options;
    o.dir = s.dir;
    o.row_bytes_hint = YcsbKey(s.first, s.w).size() + YcsbRecordCodec(s.w, 0).MaxValueSize();
    if (s.null_engine()) {
      const uint64_t may_insert = s.w.insert_proportion > 0 ? s.run_operations : 0;
      o.reference = std::make_shared<YcsbReferenceData>(s.w, s.first, s.loaded + may_insert);
    }
    auto adapter = s.engine->open(o);
    if (!adapter.ok()) return adapter.status().WithContext(fmt::format("opening {}", s.engine->name));
    s.adapter = std::move(adapter.value());
    settings_ = s.adapter->NativeSettings();
    s.inserts = std::make_unique<AcknowledgedCounter>(s.first + s.loaded);
    return Status::Ok();
  }

  Result<std::unique_ptr<Phase>> NextPhase() override {
    switch (step_++) {
      case 0:
        return std::unique_ptr<Phase>(new YcsbLoadPhase(s_.get()));
      case 1:
        return std::unique_ptr<Phase>(new YcsbRunPhase(s_.get()));
      default:
        return std::unique_ptr<Phase>();
    }
  }

  Settings engine_settings() const override { return settings_; }

  Status Close() override {
    Status st;
    if (s_->adapter) {
      st = s_->adapter->Close();
      s_->adapter.reset();
    }
    if (!s_->dir.empty() && !s_->shared_with_clients()) {  // a shared database is the run's to remove
      std::error_code ec;
      fs::remove_all(s_->dir, ec);
      if (ec && st.ok()) st = Status::IOError(fmt::format("cannot remove {}: {}", s_->dir, ec.message()));
      s_->dir.clear();
    }
    return st;
  }

 private:
  std::unique_ptr<YcsbShared> s_;
  Settings settings_;
  int step_ = 0;
};

}  // namespace

void AcknowledgedCounter::Acknowledge(uint64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  acked_[n % kWindow] = 1;
  uint64_t limit = limit_.load(std::memory_order_relaxed);
  while (acked_[limit % kWindow] != 0) {
    acked_[limit % kWindow] = 0;
    ++limit;
  }
  limit_.store(limit, std::memory_order_release);
}

Result<YcsbWorkload> ApplyYcsbOverrides(YcsbWorkload w, const PhaseSuiteOptions& options) {
  const std::string name = w.source;
  if (options.records != 0) {
    const bool whole_rest = w.insert_count == w.record_count - w.insert_start;
    w.record_count = options.records;
    if (whole_rest && w.insert_start <= w.record_count) w.insert_count = w.record_count - w.insert_start;
    if (w.insert_start + w.insert_count > w.record_count)
      return Status::InvalidArgument(fmt::format("{}: insertstart {} + insertcount {} exceed --records {}", name,
                                                 w.insert_start, w.insert_count, w.record_count));
  }
  if (options.operations != 0) w.operation_count = options.operations;
  if (w.operation_count == 0 && !(options.duration_seconds > 0))
    return Status::InvalidArgument(
        fmt::format("{}: operationcount is 0 (unbounded in YCSB): give --operations or --duration", name));
  if (w.insert_count == 0) return Status::InvalidArgument(fmt::format("{}: no records to load (insertcount 0)", name));
  return w;
}

Result<std::unique_ptr<PhaseSequence>> MakeYcsbSequence(const YcsbWorkload& workload, const std::string& name,
                                                        const AdapterFactory& engine,
                                                        const PhaseSuiteOptions& options) {
  auto s = std::make_unique<YcsbShared>();
  s->w = workload;
  s->name = name;
  s->engine = &engine;
  s->options = options;
  s->first = workload.insert_start;
  s->loaded = workload.insert_count;
  // Client i of n loads [first + i x loaded / n, first + (i + 1) x loaded / n): YCSB's insertstart and
  // insertcount per client.
  const uint64_t clients = std::max<uint32_t>(1, options.client_count), client = options.client_index;
  s->load_from = s->first + s->loaded * client / clients;
  s->load_count = s->first + s->loaded * (client + 1) / clients - s->load_from;
  s->run_operations = workload.operation_count;
  s->threads = options.threads == 0 ? 1 : options.threads;
  if (s->null_engine() && workload.insert_proportion > 0 && (s->run_operations == 0 || options.warmup_seconds > 0))
    return Status::InvalidArgument(fmt::format(
        "{}: the null engine answers from reference data, which must hold every record the run inserts: give an "
        "operation count and no time-based warm-up",
        name));
  return std::unique_ptr<PhaseSequence>(new YcsbSequence(std::move(s)));
}

std::string YcsbWorkloadName(const std::string& path) {
  std::string stem = fs::path(path).filename().string();
  if (stem.size() > 11 && stem.ends_with(".properties")) stem.resize(stem.size() - 11);
  return stem.empty() ? path : stem;
}

}  // namespace dbxb
