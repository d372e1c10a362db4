#include "adapters/wiredtiger/wiredtiger_adapter.h"

#include <wiredtiger.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#if !defined(DBXB_LIB_BUILD) || !defined(DBXB_LIB_SOURCE) || !defined(DBXB_LIB_FLAGS) || !defined(DBXB_LIB_RELEASE_DATE)
#error "DBXB_LIB_* must describe the WiredTiger build linked (set by cmake/thirdparty.cmake)"
#endif

namespace dbxb {
namespace {

constexpr char kSettle[] = "WT_SESSION::checkpoint (eviction and log work of the load written out)";

constexpr char kTable[] = "table:kv";
constexpr char kTableFile[] = "file:kv.wt";  // the table's one file: its metadata holds the stored configuration
// Raw bytes, ordered bytewise. Everything else is WiredTiger's default for WT_SESSION::create, as the
// other engines run with theirs, and is read back from the metadata (TableSettings): block_compressor
// none (MongoDB picks snappy; WiredTiger itself compresses nothing unless told), leaf_page_max 32KB,
// internal_page_max 4KB, allocation_size 4KB (its page-size guide gives these for small keys and values
// and larger pages for large values or table scans out of cache; the suites' keys and values are small).
constexpr char kTableConfig[] = "key_format=u,value_format=u";
// The stored configuration keys NativeSettings reports, under "table.<key>".
constexpr const char* kTableKeys[] = {"block_compressor", "allocation_size", "internal_page_max", "leaf_page_max",
                                      "leaf_value_max",   "memory_page_max", "checksum"};
constexpr uint64_t kMinCacheBytes = 1ull << 20;  // wiredtiger_open rejects a smaller cache_size
// A single auto-commit write that loses a write-write conflict is retried: it has no batch to undo.
constexpr int kConflictRetries = 10'000;

Status FromWt(int rc, std::string_view what) {
  if (rc == 0) return Status::Ok();
  std::string msg = std::string(what) + ": " + wiredtiger_strerror(rc);
  if (rc == WT_NOTFOUND) return Status::NotFound(msg);
  if (rc == WT_ROLLBACK) return Status::Conflict(msg);
  if (rc == EINVAL) return Status::InvalidArgument(msg);
  if (rc == ENOTSUP) return Status::NotSupported(msg);
  return Status::IOError(msg);
}

WT_ITEM ToItem(std::string_view s) {
  WT_ITEM item{};
  item.data = s.data();
  item.size = s.size();
  return item;
}

std::string_view ToView(const WT_ITEM& item) {
  return std::string_view(static_cast<const char*>(item.data), item.size);
}

class WiredtigerSession final : public Session {
 public:
  static Result<std::unique_ptr<Session>> Open(WT_CONNECTION* conn) {
    std::unique_ptr<WiredtigerSession> s(new WiredtigerSession());
    DBXB_RETURN_IF_ERROR(FromWt(conn->open_session(conn, nullptr, "isolation=snapshot", &s->session_), "open_session"));
    DBXB_RETURN_IF_ERROR(
        FromWt(s->session_->open_cursor(s->session_, kTable, nullptr, nullptr, &s->cursor_), "open_cursor"));
    return std::unique_ptr<Session>(std::move(s));
  }

  ~WiredtigerSession() override {
    if (session_ != nullptr) (void)session_->close(session_, nullptr);  // closes the cursor, rolls back
  }

  Status Put(std::string_view key, std::string_view value) override {
    if (key.empty()) return Status::InvalidArgument("Put: WiredTiger does not permit an empty key");
    return Write("Put", [&] {
      WT_ITEM k = ToItem(key), v = ToItem(value);
      cursor_->set_key(cursor_, &k);
      cursor_->set_value(cursor_, &v);
      return cursor_->insert(cursor_);  // overwrite=true (the default): insert replaces
    });
  }

  Status Get(std::string_view key, std::string* value) override {
    if (key.empty()) return Status::NotFound();  // cannot be stored
    WT_ITEM k = ToItem(key), v{};
    cursor_->set_key(cursor_, &k);
    int rc = cursor_->search(cursor_);
    if (rc == 0) rc = cursor_->get_value(cursor_, &v);
    if (rc == 0) value->assign(ToView(v));
    (void)cursor_->reset(cursor_);  // releases the page the cursor points at
    if (rc == WT_NOTFOUND) return Status::NotFound();
    return FromWt(rc, "Get");
  }

  Status Delete(std::string_view key) override {
    if (key.empty()) return Status::Ok();  // cannot be stored, so it is absent
    return Write("Delete", [&] {
      WT_ITEM k = ToItem(key);
      cursor_->set_key(cursor_, &k);
      int rc = cursor_->remove(cursor_);  // overwrite=true: removing an absent key succeeds
      return rc == WT_NOTFOUND ? 0 : rc;
    });
  }

  Status Scan(std::string_view start, uint64_t limit, ScanVisitor visitor) override {
    const bool own_txn = !in_batch();
    if (own_txn) DBXB_RETURN_IF_ERROR(FromWt(session_->begin_transaction(session_, nullptr), "Scan begin"));
    int rc;
    if (start.empty()) {
      rc = cursor_->next(cursor_);  // an empty key cannot be set: the first key is the one to start at
    } else {
      WT_ITEM k = ToItem(start);
      cursor_->set_key(cursor_, &k);
      int exact = 0;
      rc = cursor_->search_near(cursor_, &exact);
      if (rc == 0 && exact < 0) rc = cursor_->next(cursor_);
    }
    for (uint64_t seen = 0; rc == 0 && (limit == 0 || seen < limit); ++seen) {
      WT_ITEM key{}, value{};
      rc = cursor_->get_key(cursor_, &key);
      if (rc == 0) rc = cursor_->get_value(cursor_, &value);
      if (rc != 0 || !visitor(ToView(key), ToView(value))) break;
      rc = cursor_->next(cursor_);
    }
    (void)cursor_->reset(cursor_);
    if (own_txn) (void)session_->rollback_transaction(session_, nullptr);  // read-only: nothing to undo
    return rc == WT_NOTFOUND ? Status::Ok() : FromWt(rc, "Scan");
  }

  Status Count(uint64_t* count) override {
    const bool own_txn = !in_batch();
    if (own_txn) DBXB_RETURN_IF_ERROR(FromWt(session_->begin_transaction(session_, nullptr), "Count begin"));
    uint64_t n = 0;
    int rc;
    while ((rc = cursor_->next(cursor_)) == 0) ++n;
    (void)cursor_->reset(cursor_);
    if (own_txn) (void)session_->rollback_transaction(session_, nullptr);
    if (rc != WT_NOTFOUND) return FromWt(rc, "Count");
    *count = n;
    return Status::Ok();
  }

  Status DoBegin() override { return FromWt(session_->begin_transaction(session_, nullptr), "begin_transaction"); }

  // A failed commit is rolled back by WiredTiger itself.
  Status DoCommit() override {
    (void)cursor_->reset(cursor_);
    return FromWt(session_->commit_transaction(session_, nullptr), "commit_transaction");
  }

  Status DoAbort() override {
    (void)cursor_->reset(cursor_);
    return FromWt(session_->rollback_transaction(session_, nullptr), "rollback_transaction");
  }

 private:
  WiredtigerSession() = default;

  // Runs one cursor write. Outside a batch it is an auto-commit operation, retried on a write-write
  // conflict; inside a batch a conflict is the batch's (the caller must Abort).
  template <typename Op>
  Status Write(const char* what, Op op) {
    int rc = op();
    for (int retry = 0; !in_batch() && rc == WT_ROLLBACK && retry < kConflictRetries; ++retry) {
      std::this_thread::yield();
      rc = op();
    }
    (void)cursor_->reset(cursor_);
    return FromWt(rc, what);
  }

  WT_SESSION* session_ = nullptr;
  WT_CURSOR* cursor_ = nullptr;
};

// The connection configuration for a durability level; reported as run. WiredTiger 3.2 and 11.3 take it
// alike (transaction_sync and commit_transaction's sync= are both still there in 11.3: its
// tune_durability page). What it leaves out is WiredTiger's default at both versions:
// - eviction=(threads_min=1,threads_max=8), eviction_target 80%, eviction_trigger 95%, dirty 5%/20%:
//   its tuning guide moves them for a cache under pressure from many threads; the suites' data sets fit
//   --cache-size or measure exactly that pressure, which an engine meets with its own defaults.
// - checkpoint=(wait=0,log_size=0): no checkpoint in the background. A timed one would fsync while a
//   phase runs at every level (then `none` would sync, against what it means for every engine); the
//   harness checkpoints at each settle and Close checkpoints.
std::string ConnectionConfig(Durability durability, uint64_t cache_bytes) {
  // create: a new database in an empty directory. cache_size: the one memory budget every engine gets
  // (--cache-size; WiredTiger's default is 100MB). statistics=(fast): MongoDB's setting, so that the cache
  // size is read back (WiredTiger's default keeps no statistics).
  std::string config = "create,statistics=(fast),cache_size=" + std::to_string(cache_bytes);
  switch (durability) {
    case Durability::kNone:
      config += ",log=(enabled=false)";
      break;
    case Durability::kNormal:
      config += ",log=(enabled=true),transaction_sync=(enabled=false)";
      break;
    case Durability::kFull:
      config += ",log=(enabled=true),transaction_sync=(enabled=true,method=fsync)";
      break;
  }
  return config;
}

class WiredtigerAdapter final : public Adapter {
 public:
  static Result<std::unique_ptr<Adapter>> Open(const AdapterOptions& options) {
    std::error_code ec;
    std::filesystem::create_directories(options.dir, ec);
    if (ec) return Status::IOError("create directory " + options.dir + ": " + ec.message());
    std::unique_ptr<WiredtigerAdapter> adapter(new WiredtigerAdapter());
    adapter->durability_ = options.durability;
    adapter->config_ = ConnectionConfig(options.durability, std::max(options.cache_bytes, kMinCacheBytes));
    DBXB_RETURN_IF_ERROR(
        FromWt(wiredtiger_open(options.dir.c_str(), nullptr, adapter->config_.c_str(), &adapter->conn_),
               "wiredtiger_open " + options.dir));
    WT_SESSION* session = nullptr;
    DBXB_RETURN_IF_ERROR(
        FromWt(adapter->conn_->open_session(adapter->conn_, nullptr, nullptr, &session), "open_session"));
    int rc = session->create(session, kTable, kTableConfig);
    (void)session->close(session, nullptr);
    DBXB_RETURN_IF_ERROR(FromWt(rc, std::string("create ") + kTable));
    return std::unique_ptr<Adapter>(std::move(adapter));
  }

  ~WiredtigerAdapter() override { (void)Close(); }

  Result<std::unique_ptr<Session>> NewSession() override {
    if (conn_ == nullptr) return Status::InvalidArgument("NewSession: adapter is closed");
    return WiredtigerSession::Open(conn_);
  }

  Settings NativeSettings() override {
    Settings s;
    if (conn_ == nullptr) return s;
    s.emplace_back("wiredtiger_open", config_);
    s.emplace_back("log.enabled", durability_ == Durability::kNone ? "false" : "true");
    s.emplace_back("transaction_sync.enabled", durability_ == Durability::kFull ? "true" : "false");
    s.emplace_back("cache_size", ReadStatistic(WT_STAT_CONN_CACHE_BYTES_MAX));
    s.emplace_back("eviction", "WiredTiger's default (threads_min=1,threads_max=8, target 80%, trigger 95%)");
    s.emplace_back("checkpoint", "none in the background (WiredTiger's default wait=0); at settle and Close");
    s.emplace_back("table", std::string(kTable) + " " + kTableConfig + " (row store)");
    for (auto& setting : TableSettings()) s.push_back(std::move(setting));
    s.emplace_back("isolation", "snapshot");
    s.emplace_back("batch", "one transaction from Begin to Commit");
    s.emplace_back("settle", kSettle);
    return s;
  }

  Status Settle() override {
    if (conn_ == nullptr) return Status::InvalidArgument("Settle: adapter is closed");
    WT_SESSION* session = nullptr;
    DBXB_RETURN_IF_ERROR(FromWt(conn_->open_session(conn_, nullptr, nullptr, &session), "Settle: open_session"));
    int rc = session->checkpoint(session, nullptr);
    int close_rc = session->close(session, nullptr);
    return FromWt(rc != 0 ? rc : close_rc, "Settle: checkpoint");
  }

  // WT_CONNECTION::close checkpoints every table: with logging off that is what keeps the data.
  Status Close() override {
    if (conn_ == nullptr) return Status::Ok();
    int rc = conn_->close(conn_, nullptr);
    conn_ = nullptr;
    return FromWt(rc, "close");
  }

 private:
  WiredtigerAdapter() = default;

  // A connection statistic's value as text, or "unavailable: <reason>".
  std::string ReadStatistic(int key) {
    WT_SESSION* session = nullptr;
    if (conn_->open_session(conn_, nullptr, nullptr, &session) != 0) return "unavailable: no session";
    WT_CURSOR* stats = nullptr;
    std::string out;
    int rc = session->open_cursor(session, "statistics:", nullptr, nullptr, &stats);
    if (rc == 0) {
      stats->set_key(stats, key);
      rc = stats->search(stats);
      const char* desc = nullptr;
      const char* printable = nullptr;
      int64_t value = 0;
      if (rc == 0) rc = stats->get_value(stats, &desc, &printable, &value);
      if (rc == 0) out = std::to_string(value);
    }
    if (rc != 0) out = std::string("unavailable: ") + wiredtiger_strerror(rc);
    (void)session->close(session, nullptr);
    return out;
  }

  // The table file's configuration as WiredTiger stored it (its defaults filled in), one ("table.<key>",
  // value) per kTableKeys entry; an empty block_compressor is "none".
  Settings TableSettings() {
    Settings out;
    WT_SESSION* session = nullptr;
    if (conn_->open_session(conn_, nullptr, nullptr, &session) != 0) return out;
    WT_CURSOR* metadata = nullptr;
    const char* stored = nullptr;
    int rc = session->open_cursor(session, "metadata:", nullptr, nullptr, &metadata);
    if (rc == 0) {
      metadata->set_key(metadata, kTableFile);
      rc = metadata->search(metadata);
      if (rc == 0) rc = metadata->get_value(metadata, &stored);
    }
    WT_CONFIG_PARSER* parser = nullptr;
    if (rc == 0) rc = wiredtiger_config_parser_open(session, stored, std::strlen(stored), &parser);
    for (const char* key : kTableKeys) {
      WT_CONFIG_ITEM item{};
      std::string value;
      if (rc != 0) {
        value = std::string("unavailable: ") + wiredtiger_strerror(rc);
      } else if (parser->get(parser, key, &item) != 0) {
        value = "unavailable: not in the metadata";
      } else {
        value.assign(item.str, item.len);
        if (value.empty() && std::string_view(key) == "block_compressor") value = "none";
      }
      out.emplace_back(std::string("table.") + key, value);
    }
    if (parser != nullptr) (void)parser->close(parser);
    (void)session->close(session, nullptr);  // closes the metadata cursor
    return out;
  }

  WT_CONNECTION* conn_ = nullptr;
  Durability durability_ = Durability::kNormal;
  std::string config_;
};

}  // namespace

AdapterFactory WiredtigerAdapterFactory() {
  AdapterFactory f;
  f.name = "wiredtiger";
  f.description = "WiredTiger: B-tree row store, a transaction per batch, snapshot isolation, its own cache";
  f.library_version = [] {
    int major = 0, minor = 0, patch = 0;
    (void)wiredtiger_version(&major, &minor, &patch);
    return "WiredTiger " + std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  };
  f.library_build = [] { return std::string(DBXB_LIB_BUILD); };
  f.library_source = DBXB_LIB_SOURCE;
  f.library_flags = DBXB_LIB_FLAGS;
  f.library_release_date = DBXB_LIB_RELEASE_DATE;
  f.allows_empty_key = false;
  f.durability = {{
      {"`log=(enabled=false)` (data reaches disk at checkpoints)",
       {{"log.enabled", "false"}, {"transaction_sync.enabled", "false"}},
       0},
      {"`log=(enabled=true)`, `transaction_sync=(enabled=false)`",
       {{"log.enabled", "true"}, {"transaction_sync.enabled", "false"}},
       0},
      {"`transaction_sync=(enabled=true,method=fsync)`",
       {{"log.enabled", "true"}, {"transaction_sync.enabled", "true"}},
       1},
  }};
  f.settle = kSettle;
  f.debian_packages = {"libwiredtiger-dev"};
  f.open = [](const AdapterOptions& options) { return WiredtigerAdapter::Open(options); };
  return f;
}

}  // namespace dbxb
