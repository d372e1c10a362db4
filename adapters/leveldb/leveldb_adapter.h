// LevelDB behind the adapter interface.
//
// One leveldb::DB (bytewise comparator) in AdapterOptions::dir, with LevelDB's default options except
// for the block cache and the filter: cache_bytes becomes an LRU block cache of that capacity, and a
// bloom filter of 10 bits per key (LevelDB's own recommendation; RocksDB's filter_policy setting is
// reported beside it). The DB is thread-safe, so sessions share it; each Session holds only its
// WriteBatch. Begin starts an empty WriteBatch, Put/Delete add to it, Commit writes it atomically,
// Abort drops it; reads inside a batch see the DB, not the batch. Scans and Count read from one
// iterator, which is a consistent snapshot; Count iterates over every key (LevelDB keeps no count).
//
// Durability: LevelDB always writes its log, and has no switch to turn it off. none and normal both
// write the log without sync (the OS flushes it), so none cannot promise less than normal; full =
// WriteOptions::sync (the log is synced before a write returns). With any durability, a clean Close
// keeps all committed data (the log is replayed on the next open).
//
// Empty keys, empty values and NUL bytes are all allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory LeveldbAdapterFactory();

}  // namespace dbxb
