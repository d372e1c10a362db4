// RocksDB behind the adapter interface.
//
// One DB (default column family, bytewise comparator) in AdapterOptions::dir, opened with RocksDB's
// default options except for the block cache: cache_bytes becomes an LRU block cache of that capacity.
// The DB is thread-safe, so sessions share it; each Session holds only its WriteBatch. Begin starts an
// empty WriteBatch, Put/Delete add to it, Commit writes it atomically, Abort drops it; reads inside a
// batch see the DB, not the batch. Scans use a fresh iterator (a consistent snapshot) per call; Count
// iterates over every key, since RocksDB's key-count property is only an estimate.
//
// Durability: none = WriteOptions::disableWAL (no log: a crash loses everything not yet flushed),
// normal = WAL written without sync (the OS flushes it), full = WriteOptions::sync (the WAL is synced
// before a write returns). Close flushes the memtables first when the WAL is off, so with any durability
// a clean Close keeps all committed data.
//
// Empty keys, empty values and NUL bytes are all allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory RocksdbAdapterFactory();

}  // namespace dbxb
