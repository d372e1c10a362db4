#include "adapters/leveldb/leveldb_adapter.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <thread>

namespace dbxb {
namespace {

constexpr int kBloomBitsPerKey = 10;

Status FromLeveldb(const leveldb::Status& s, std::string_view what) {
  if (s.ok()) return Status::Ok();
  std::string msg = std::string(what) + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsNotSupportedError()) return Status::NotSupported(msg);
  return Status::IOError(msg);
}

leveldb::Slice ToSlice(std::string_view s) { return leveldb::Slice(s.data(), s.size()); }
std::string_view ToView(const leveldb::Slice& s) { return std::string_view(s.data(), s.size()); }

class LeveldbSession final : public Session {
 public:
  LeveldbSession(leveldb::DB* db, const leveldb::WriteOptions* write_options)
      : db_(db), write_options_(write_options) {}

  Status Put(std::string_view key, std::string_view value) override {
    if (in_batch()) {
      batch_.Put(ToSlice(key), ToSlice(value));
      return Status::Ok();
    }
    return FromLeveldb(db_->Put(*write_options_, ToSlice(key), ToSlice(value)), "Put");
  }

  Status Get(std::string_view key, std::string* value) override {
    leveldb::Status s = db_->Get(leveldb::ReadOptions(), ToSlice(key), value);
    if (s.IsNotFound()) return Status::NotFound();
    return FromLeveldb(s, "Get");
  }

  Status Delete(std::string_view key) override {
    if (in_batch()) {
      batch_.Delete(ToSlice(key));
      return Status::Ok();
    }
    return FromLeveldb(db_->Delete(*write_options_, ToSlice(key)), "Delete");
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(leveldb::ReadOptions()));
    uint64_t seen = 0;
    for (it->Seek(ToSlice(start)); it->Valid(); it->Next()) {
      if (limit != 0 && seen == limit) break;
      ++seen;
      if (!visitor(ToView(it->key()), ToView(it->value()))) break;
    }
    return FromLeveldb(it->status(), "Scan");
  }

  Status Count(uint64_t* count) override {
    leveldb::ReadOptions ro;
    ro.fill_cache = false;  // a full pass would otherwise evict the workload's cached blocks
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro));
    uint64_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    DBXB_RETURN_IF_ERROR(FromLeveldb(it->status(), "Count"));
    *count = n;
    return Status::Ok();
  }

  Status DoBegin() override {
    batch_.Clear();
    return Status::Ok();
  }

  Status DoCommit() override {
    Status s = FromLeveldb(db_->Write(*write_options_, &batch_), "Commit");
    batch_.Clear();
    return s;
  }

  Status DoAbort() override {
    batch_.Clear();
    return Status::Ok();
  }

 private:
  leveldb::DB* db_;
  const leveldb::WriteOptions* write_options_;
  leveldb::WriteBatch batch_;
};

std::string Bool(bool b) { return b ? "true" : "false"; }

std::string CompressionName(leveldb::CompressionType type) {
  switch (type) {
    case leveldb::kNoCompression:
      return "none";
    case leveldb::kSnappyCompression:
      return "snappy";
  }
  return std::to_string(static_cast<int>(type));
}

constexpr uint64_t kL0CompactionTrigger = 4;  // LevelDB's config::kL0_CompactionTrigger

// What Settle does, as NativeSettings reports it.
std::string SettleText() {
  return "DB::CompactRange over the whole key range (the memtable written out first), then until level 0 holds "
         "fewer than " +
         std::to_string(kL0CompactionTrigger) +
         " files (its compaction trigger; LevelDB has no query for pending work)";
}

class LeveldbAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());

    std::unique_ptr<LeveldbAdapter> adapter(new LeveldbAdapter(options.durability));
    adapter->capacity_ = options.cache_bytes;
    adapter->cache_.reset(leveldb::NewLRUCache(options.cache_bytes));
    adapter->filter_.reset(leveldb::NewBloomFilterPolicy(kBloomBitsPerKey));
    adapter->options_.create_if_missing = true;
    adapter->options_.block_cache = adapter->cache_.get();
    adapter->options_.filter_policy = adapter->filter_.get();

    leveldb::DB* db = nullptr;
    DBXB_RETURN_IF_ERROR(FromLeveldb(leveldb::DB::Open(adapter->options_, options.dir, &db), "open " + options.dir));
    adapter->db_.reset(db);
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~LeveldbAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (db_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return std::unique_ptr<Session>(new LeveldbSession(db_.get(), &write_options_));
  }

  // LevelDB cannot report its Options back: these are the Options the DB was opened with (it keeps
  // them unchanged; the cache capacity is the one it was created with) and the WriteOptions of every write.
  Settings NativeSettings() override {
    Settings s;
    if (db_ == nullptr) return s;
    s.emplace_back("log", "always written (LevelDB has no switch to turn it off)");
    s.emplace_back("write_options.sync", Bool(write_options_.sync));
    s.emplace_back("block_cache_capacity", std::to_string(capacity_));
    s.emplace_back("block_cache", "leveldb.NewLRUCache");
    s.emplace_back("filter_policy", std::string(options_.filter_policy->Name()) + " (" +
                                        std::to_string(kBloomBitsPerKey) + " bits per key)");
    s.emplace_back("block_size", std::to_string(options_.block_size));
    s.emplace_back("block_restart_interval", std::to_string(options_.block_restart_interval));
    s.emplace_back("compression", CompressionName(options_.compression));
    s.emplace_back("write_buffer_size", std::to_string(options_.write_buffer_size));
    s.emplace_back("max_file_size", std::to_string(options_.max_file_size));
    s.emplace_back("max_open_files", std::to_string(options_.max_open_files));
    s.emplace_back("paranoid_checks", Bool(options_.paranoid_checks));
    s.emplace_back("reuse_logs", Bool(options_.reuse_logs));
    std::string memory;
    if (db_->GetProperty("leveldb.approximate-memory-usage", &memory))
      s.emplace_back("approximate_memory_usage_at_open", memory);
    s.emplace_back("batch", "WriteBatch written by DB::Write at Commit");
    s.emplace_back("settle", SettleText());
    return s;
  }

  // As RocksDB's and DBX's settles, the whole key range compacted (CompactRange over everything, which
  // writes the memtable out first): the read-optimal layout. LevelDB 1.23 exposes no "compaction pending"
  // property, so the level-0 file count against its compaction trigger (config::kL0_CompactionTrigger = 4)
  // is then waited for too, in case writes arrived meanwhile.
  Status Settle() override {
    if (db_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    db_->CompactRange(nullptr, nullptr);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(600);
    for (;;) {
      std::string files;
      if (!db_->GetProperty("leveldb.num-files-at-level0", &files))
        return Status::IOError("Settle: leveldb.num-files-at-level0 is not available");
      if (std::strtoull(files.c_str(), nullptr, 10) < kL0CompactionTrigger) return Status::Ok();
      if (std::chrono::steady_clock::now() > deadline)
        return Status::IOError("Settle: level 0 still holds " + files + " files after 600 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  Status Close() override {
    db_.reset();  // LevelDB closes in its destructor; the log holds what the memtable did not flush
    return Status::Ok();
  }

 private:
  explicit LeveldbAdapter(Durability durability) { write_options_.sync = durability == Durability::kFull; }

  leveldb::Options options_;
  leveldb::WriteOptions write_options_;
  uint64_t capacity_ = 0;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;  // declared last: closed before the cache and filter it uses
};

}  // namespace

AdapterFactory LeveldbAdapterFactory() {
  AdapterFactory f;
  f.name = "leveldb";
  f.description = "LevelDB: LSM tree with an always-on log, WriteBatch per batch, LRU block cache, bloom filter";
  f.library_version = [] {
    return "LevelDB " + std::to_string(leveldb::kMajorVersion) + "." + std::to_string(leveldb::kMinorVersion);
  };
  f.library_build = [] { return std::string("debian-package"); };
  f.library_source = "Debian 12 package libleveldb-dev";
  f.library_release_date = "2021-02-23";
  f.durability = {{
      {"log written, no sync (LevelDB cannot turn its log off, so `none` = `normal`)",
       {{"write_options.sync", "false"}},
       0},
      {"log written, no sync", {{"write_options.sync", "false"}}, 0},
      {"`WriteOptions::sync`", {{"write_options.sync", "true"}}, 1},
  }};
  f.settle = SettleText();
  f.debian_packages = {"libleveldb-dev"};
  f.open = [](const AdapterOptions& options) { return LeveldbAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
