// What differs between the RocksDB releases the adapter compiles against: the release build
// (thirdparty/rocksdb.sh, RocksDB 11) and Debian's package (RocksDB 7.8). Included only by the RocksDB
// adapter and its test.
#pragma once
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#if __has_include(<rocksdb/advanced_cache.h>)
#include <rocksdb/advanced_cache.h>  // RocksDB >= 8: Cache is defined here, cache.h only declares it
#endif

#include <memory>
#include <string>

namespace dbxb::rocks {

/// DB::Open into *db: RocksDB 11 takes a std::unique_ptr<DB>*, earlier releases a DB**.
template <class DB = rocksdb::DB>
rocksdb::Status Open(const rocksdb::Options& options, const std::string& dir, std::unique_ptr<DB>* db) {
  if constexpr (requires(DB * *raw) { DB::Open(options, dir, raw); }) {
    DB* raw = nullptr;
    rocksdb::Status s = DB::Open(options, dir, &raw);
    db->reset(raw);
    return s;
  } else {
    return DB::Open(options, dir, db);
  }
}

/// DB::OpenForReadOnly into *db, as Open.
template <class DB = rocksdb::DB>
rocksdb::Status OpenForReadOnly(const rocksdb::Options& options, const std::string& dir, std::unique_ptr<DB>* db) {
  if constexpr (requires(DB * *raw) { DB::OpenForReadOnly(options, dir, raw); }) {
    DB* raw = nullptr;
    rocksdb::Status s = DB::OpenForReadOnly(options, dir, &raw);
    db->reset(raw);
    return s;
  } else {
    return DB::OpenForReadOnly(options, dir, db);
  }
}

}  // namespace dbxb::rocks
