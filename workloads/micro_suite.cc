#include "workloads/micro_suite.h"

#include <fmt/format.h>

#include <filesystem>
#include <numeric>

#include "common/disk_usage.h"
#include "common/fnv.h"
#include "common/interrupt.h"
#include "common/prng.h"
#include "common/thread_team.h"

namespace dbxb {
namespace {

namespace fs = std::filesystem;

std::string Printable(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes.substr(0, 64))
    out += (c >= 0x20 && c < 0x7f) ? std::string(1, c) : fmt::format("\\x{:02x}", c);
  if (bytes.size() > 64) out += "...";
  return out;
}

Status RemoveTree(const std::string& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (ec) return Status::IOError(fmt::format("cannot remove {}: {}", dir, ec.message()));
  return Status::Ok();
}

// An open engine with one session, in a directory this object created and removes.
class OpenDb {
 public:
  Status Open(const AdapterFactory& engine, AdapterOptions options) {
    std::error_code ec;
    fs::create_directories(options.dir, ec);
    if (ec) return Status::IOError(fmt::format("cannot create {}: {}", options.dir, ec.message()));
    dir_ = options.dir;
    auto adapter = engine.open(options);
    if (!adapter.ok()) return adapter.status().WithContext("open " + engine.name);
    adapter_ = std::move(adapter).value();
    auto session = adapter_->NewSession();
    if (!session.ok()) return session.status().WithContext("session " + engine.name);
    session_ = std::move(session).value();
    settings_ = adapter_->NativeSettings();
    return Status::Ok();
  }

  Status Close() {
    Status st;
    session_.reset();
    if (adapter_) st = adapter_->Close();
    adapter_.reset();
    if (!dir_.empty()) {
      closed_disk_bytes_ = DirectoryBytes(dir_);
      Status rm = RemoveTree(dir_);
      if (st.ok()) st = rm;
      dir_.clear();
    }
    return st;
  }

  Session* session() { return session_.get(); }
  Adapter* adapter() { return adapter_.get(); }
  const Settings& settings() const { return settings_; }
  /// The open database's allocated bytes, or, once closed, what it held just before its removal.
  uint64_t disk_bytes() const { return dir_.empty() ? closed_disk_bytes_ : DirectoryBytes(dir_); }

 private:
  std::string dir_;
  uint64_t closed_disk_bytes_ = 0;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  Settings settings_;
};

// Key + value bytes of the whole data set.
uint64_t LogicalBytes(const Dataset& data) {
  uint64_t total = 0;
  for (uint64_t i = 0; i < data.size(); ++i) total += data.key(i).size() + data.value(i).size();
  return total;
}

// Writes rows [0, n) in batches of `batch` rows; Interrupted at a batch boundary after Ctrl-C.
Status Load(Session* s, const Dataset& data, uint64_t batch) {
  for (uint64_t i = 0; i < data.size();) {
    if (InterruptRequested()) return Status::Interrupted("loading the data set");
    DBXB_RETURN_IF_ERROR(s->Begin());
    uint64_t end = std::min(data.size(), i + batch);
    for (; i < end; ++i) DBXB_RETURN_IF_ERROR(s->Put(data.key(i), data.value(i)));
    DBXB_RETURN_IF_ERROR(s->Commit());
  }
  return Status::Ok();
}

// Reads the whole store in key order and checks it is exactly the data set. Returns the FNV digest.
Status VerifyAll(Session* s, const Dataset& data, std::string* checksum) {
  uint64_t i = 0;
  RowDigest digest;
  Status mismatch;
  DBXB_RETURN_IF_ERROR(s->Scan("", 0, [&](std::string_view k, std::string_view v) {
    if (i % kRowsPerInterruptCheck == 0 && InterruptRequested()) {
      mismatch = Status::Interrupted("verifying the data set");
      return false;
    }
    if (i >= data.size()) {
      mismatch = Status::Corruption(fmt::format("scan returned an extra row '{}'", Printable(k)));
      return false;
    }
    if (k != data.key(i) || v != data.value(i)) {
      mismatch =
          Status::Corruption(fmt::format("row {}: expected '{}' = '{}', got '{}' = '{}'", i, Printable(data.key(i)),
                                         Printable(data.value(i)), Printable(k), Printable(v)));
      return false;
    }
    digest.Add(k, v);
    ++i;
    return true;
  }));
  DBXB_RETURN_IF_ERROR(mismatch);
  if (i != data.size()) return Status::Corruption(fmt::format("scan returned {} rows, expected {}", i, data.size()));
  uint64_t count = 0;
  DBXB_RETURN_IF_ERROR(s->Count(&count));
  if (count != data.size()) return Status::Corruption(fmt::format("count is {}, expected {}", count, data.size()));
  *checksum = digest.ToString();
  return Status::Ok();
}

// What one thread of an iteration keeps: its buffers and its verdict, on a cache line of its own.
struct alignas(64) ThreadSlot {
  Session* session = nullptr;
  std::string key;
  std::string value;
  Status status;
};

// Base for the benchmarks that load the data set once and then only read. With config.threads > 1 it
// holds one session per thread and the team that runs each iteration's slices.
class LoadedBenchmark : public MicroBenchmark {
 public:
  LoadedBenchmark(const AdapterFactory& engine, const MicroConfig& config, std::string name)
      : engine_(engine), config_(config), data_(*config.dataset), name_(std::move(name)) {}

  uint64_t elements_per_iteration() const override { return data_.size(); }
  Status SetUp() override {
    AdapterOptions options = config_.engine_options;
    options.dir = fmt::format("{}/{}-{}", config_.work_dir, engine_.name, name_);
    options.reference = config_.dataset;
    DBXB_RETURN_IF_ERROR(db_.Open(engine_, options));
    DBXB_RETURN_IF_ERROR(Load(db_.session(), data_, config_.load_batch).WithContext("load"));
    DBXB_RETURN_IF_ERROR(VerifyAll(db_.session(), data_, &checksum_).WithContext("verify after load"));
    return OpenThreads();
  }
  bool settles() const override { return config_.settle; }
  Adapter* adapter() override { return db_.adapter(); }
  Status Settle() override { return db_.adapter()->Settle(); }
  Status TearDown() override {
    team_.reset();
    sessions_.clear();  // before the adapter closes
    slots_.clear();
    return db_.Close();
  }
  const Settings& engine_settings() const override { return db_.settings(); }
  std::string checksum() const override { return checksum_; }
  uint64_t live_logical_bytes() const override { return LogicalBytes(data_); }
  uint64_t disk_bytes() const override { return db_.disk_bytes(); }

 protected:
  uint32_t threads() const { return static_cast<uint32_t>(slots_.size()); }
  // Rows [first, second) of `n`: thread t's slice, the first n % threads slices one row longer.
  std::pair<uint64_t, uint64_t> SliceOf(uint32_t t, uint64_t n) const {
    const uint64_t k = threads();
    return {t * (n / k) + std::min<uint64_t>(t, n % k), (t + 1) * (n / k) + std::min<uint64_t>(t + 1, n % k)};
  }
  // Runs read(t, slot) on every thread (on this one alone when there is one) and returns the first failure.
  template <typename Read>
  Status RunSlices(Read read) {
    if (team_ == nullptr) return read(0, slots_[0]);
    team_->Run([&](uint32_t t) { slots_[t].status = read(t, slots_[t]); });
    for (ThreadSlot& slot : slots_)
      if (!slot.status.ok()) return slot.status.WithContext(fmt::format("thread {}", &slot - slots_.data()));
    return Status::Ok();
  }

  const AdapterFactory& engine_;
  MicroConfig config_;
  const Dataset& data_;
  std::string name_;
  OpenDb db_;
  std::string checksum_;
  std::vector<ThreadSlot> slots_;  // one per thread; slot 0 uses db_'s session

 private:
  Status OpenThreads() {
    const uint32_t threads = std::max<uint32_t>(1, config_.threads);
    slots_.assign(threads, ThreadSlot());
    slots_[0].session = db_.session();
    for (uint32_t t = 1; t < threads; ++t) {
      auto session = db_.adapter()->NewSession();
      if (!session.ok()) return session.status().WithContext(fmt::format("session of thread {}", t));
      sessions_.push_back(std::move(session).value());
      slots_[t].session = sessions_.back().get();
    }
    if (threads > 1) team_ = std::make_unique<ThreadTeam>(threads);
    return Status::Ok();
  }

  std::vector<std::unique_ptr<Session>> sessions_;  // threads 1..n-1
  std::unique_ptr<ThreadTeam> team_;                // null on one thread
};

class InsertBenchmark final : public MicroBenchmark {
 public:
  InsertBenchmark(const AdapterFactory& engine, const MicroConfig& config)
      : engine_(engine), config_(config), data_(*config.dataset) {}

  uint64_t elements_per_iteration() const override { return data_.size(); }
  Status SetUp() override {
    // One verified iteration up front: the data an insert leaves behind must be exactly the data set.
    DBXB_RETURN_IF_ERROR(PrepareIteration());
    DBXB_RETURN_IF_ERROR(RunIteration());
    settings_ = db_.settings();
    DBXB_RETURN_IF_ERROR(VerifyAll(db_.session(), data_, &checksum_).WithContext("verify after insert"));
    return FinishIteration();
  }
  bool fresh_state_per_iteration() const override { return true; }
  Status PrepareIteration() override {
    AdapterOptions options = config_.engine_options;
    options.dir = fmt::format("{}/{}-insert-{}", config_.work_dir, engine_.name, iteration_++);
    options.reference = config_.dataset;
    return db_.Open(engine_, options);
  }
  Status RunIteration() override {
    Session* s = db_.session();
    DBXB_RETURN_IF_ERROR(s->Begin());
    const uint64_t n = data_.size();
    // In blocks, the flag looked at between them: the loop over a block is the measured one.
    for (uint64_t block = 0; block < n; block += kRowsPerInterruptCheck) {
      const uint64_t end = std::min(n, block + kRowsPerInterruptCheck);
      for (uint64_t i = block; i < end; ++i) DBXB_RETURN_IF_ERROR(s->Put(data_.key(i), data_.value(i)));
      if (InterruptRequested()) [[unlikely]] {
        (void)s->Abort();
        return Status::Interrupted("inserting the data set");
      }
    }
    return s->Commit();
  }
  Status FinishIteration() override {
    // Every iteration's result is checked by its exact count (cheap); the first was fully verified.
    uint64_t count = 0;
    Status st = db_.session()->Count(&count);
    if (st.ok() && count != data_.size())
      st = Status::Corruption(fmt::format("count after insert is {}, expected {}", count, data_.size()));
    Status closed = db_.Close();
    return st.ok() ? closed : st;
  }
  Status TearDown() override { return db_.Close(); }
  Adapter* adapter() override { return db_.adapter(); }
  const Settings& engine_settings() const override { return settings_; }
  std::string checksum() const override { return checksum_; }
  WriteTally written_per_iteration() const override { return {1, LogicalBytes(data_)}; }
  uint64_t live_logical_bytes() const override { return LogicalBytes(data_); }
  uint64_t disk_bytes() const override { return db_.disk_bytes(); }

 private:
  const AdapterFactory& engine_;
  MicroConfig config_;
  const Dataset& data_;
  OpenDb db_;
  uint64_t iteration_ = 0;
  Settings settings_;
  std::string checksum_;
};

class GetBenchmark final : public LoadedBenchmark {
 public:
  GetBenchmark(const AdapterFactory& engine, const MicroConfig& config)
      : LoadedBenchmark(engine, config, "get"), rows_(data_), order_(MicroGetOrder(data_.size(), config.seed)) {}

  Status RunIteration() override {
    return RunSlices([this](uint32_t t, ThreadSlot& slot) {
      const auto [begin, end] = SliceOf(t, order_.size());
      return ReadRows(slot, begin, end);
    });
  }

 private:
  // Reads the rows order_[begin, end) through slot.session, verifying each value.
  Status ReadRows(ThreadSlot& slot, uint64_t begin, uint64_t end) {
    Session* s = slot.session;
    std::string& key = slot.key;
    std::string& value = slot.value;
    // In blocks, the flag looked at between them (an iteration over 10^8 rows takes minutes).
    for (uint64_t block = begin; block < end; block += kRowsPerInterruptCheck) {
      const uint64_t stop = std::min<uint64_t>(end, block + kRowsPerInterruptCheck);
      for (uint64_t n = block; n < stop; ++n) {
        const uint64_t i = order_[n];
        Status st = s->Get(rows_.KeyInto(i, &key), &value);
        if (!st.ok()) {
          if (st.IsNotFound())
            return Status::Corruption(fmt::format("get: key '{}' not found", Printable(rows_.key(i))));
          return st;
        }
        if (!rows_.ValueEquals(i, value))
          return Status::Corruption(
              fmt::format("get: wrong value for '{}': '{}'", Printable(rows_.key(i)), Printable(value)));
      }
      if (InterruptRequested()) [[unlikely]]
        return Status::Interrupted("reading the data set");
    }
    return Status::Ok();
  }

 private:
  // The rows through their interface, as the engines' native loops read them (adapters/native_loop.h),
  // so that the two loops `calibrate` compares are the same code around the get. With the row
  // arithmetic inlined, perf put twice the native loop's samples on the value check's memcmp, right
  // behind the engine's copy of the value (about 7 % of DBX's get); through the interface, the same.
  // Each key is built from its row number (KeyInto) and each value checked against the bytes rebuilt
  // from it (ValueEquals), as db_bench builds its keys: a fetch of the stored row in random order was a
  // cache and TLB miss per read (16 MB of keys, 100 MB of values at 1M rows) that no engine's own
  // benchmark pays (perf: RocksDB's copy of the key into its lookup key took 8 % of a 1M get).
  const ReferenceData& rows_;
  std::vector<uint64_t> order_;  // a seeded random permutation of the rows
};

class ScanBenchmark final : public LoadedBenchmark {
 public:
  using LoadedBenchmark::LoadedBenchmark;

  Status RunIteration() override {
    if (expected_bytes_.empty()) ComputeExpectedBytes();
    return RunSlices([this](uint32_t t, ThreadSlot& slot) {
      const auto [begin, end] = SliceOf(t, data_.size());
      return ScanRows(*slot.session, begin, end, expected_bytes_[t]);
    });
  }

 private:
  // Touches every key and value of rows [begin, end) (all of them from the start on one thread): counts
  // the rows and their bytes and checks both against the data set.
  Status ScanRows(Session& session, uint64_t begin, uint64_t end, uint64_t expected_bytes) {
    const bool whole = threads() == 1;
    if (!whole && begin == end) return Status::Ok();  // more threads than rows
    uint64_t rows = 0, bytes = 0;
    bool interrupted = false;
    const std::string_view start = whole ? std::string_view() : data_.key(begin);
    DBXB_RETURN_IF_ERROR(session.Scan(start, whole ? 0 : end - begin, [&](std::string_view k, std::string_view v) {
      ++rows;
      bytes += k.size() + v.size() + static_cast<unsigned char>(k.back()) +
               (v.empty() ? 0 : static_cast<unsigned char>(v.back()));
      // The flag every block of rows (kRowsPerInterruptCheck is a power of two): one predicted branch a row.
      if (rows % kRowsPerInterruptCheck == 0 && InterruptRequested()) [[unlikely]] {
        interrupted = true;
        return false;
      }
      return true;
    }));
    if (interrupted) return Status::Interrupted("scanning the data set");
    if (rows != end - begin) return Status::Corruption(fmt::format("scan: {} rows, expected {}", rows, end - begin));
    if (bytes != expected_bytes) return Status::Corruption("scan: the bytes read differ from the data set");
    return Status::Ok();
  }

  // The byte sum each thread's slice must read, once.
  void ComputeExpectedBytes() {
    expected_bytes_.assign(threads(), 0);
    for (uint32_t t = 0; t < threads(); ++t) {
      const auto [begin, end] = SliceOf(t, data_.size());
      for (uint64_t i = begin; i < end; ++i) {
        std::string_view k = data_.key(i), v = data_.value(i);
        expected_bytes_[t] +=
            k.size() + v.size() + static_cast<unsigned char>(k.back()) + static_cast<unsigned char>(v.back());
      }
    }
  }
  std::vector<uint64_t> expected_bytes_;
};

class CountBenchmark final : public LoadedBenchmark {
 public:
  using LoadedBenchmark::LoadedBenchmark;
  uint64_t elements_per_iteration() const override { return 1; }  // one exact count per iteration
  Status RunIteration() override {
    uint64_t count = 0;
    DBXB_RETURN_IF_ERROR(db_.session()->Count(&count));
    if (count != data_.size()) return Status::Corruption(fmt::format("count: {}, expected {}", count, data_.size()));
    return Status::Ok();
  }
};

}  // namespace

void RowDigest::Add(std::string_view key, std::string_view value) { h_ = Fnv1a64(value, Fnv1a64(key, h_)); }
std::string RowDigest::ToString() const { return fmt::format("fnv1a64:{:016x}", h_); }

std::vector<uint64_t> MicroGetOrder(uint64_t n, uint64_t seed) {
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Fisher-Yates on SplitMix64 reduced modulo i (not Xoshiro256::Below): the key order recorded
  // results were measured with, kept bit for bit. The bias of `% i` is below i / 2^64.
  SplitMix64 mix(seed);
  for (uint64_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[mix.Next() % i]);
  return order;
}

bool MicroWorkloadTakesThreads(std::string_view workload) { return workload == "get" || workload == "scan"; }

const std::vector<std::string>& MicroWorkloadNames() {
  static const std::vector<std::string> names = {"insert", "get", "scan", "count"};
  return names;
}

Result<std::unique_ptr<MicroBenchmark>> MakeMicroBenchmark(std::string_view workload, const AdapterFactory& engine,
                                                           const MicroConfig& config) {
  if (!config.dataset) return Status::InvalidArgument("dbx-micro: no data set");
  MicroConfig c = config;
  c.engine_options.row_bytes_hint = c.dataset->shape().key_size + c.dataset->shape().value_size;
  if (workload == "insert") return std::unique_ptr<MicroBenchmark>(new InsertBenchmark(engine, c));
  if (workload == "get") return std::unique_ptr<MicroBenchmark>(new GetBenchmark(engine, c));
  if (workload == "scan") return std::unique_ptr<MicroBenchmark>(new ScanBenchmark(engine, c, "scan"));
  if (workload == "count") return std::unique_ptr<MicroBenchmark>(new CountBenchmark(engine, c, "count"));
  return Status::InvalidArgument(
      fmt::format("unknown dbx-micro workload '{}' (known: insert, get, scan, count)", workload));
}

}  // namespace dbxb
