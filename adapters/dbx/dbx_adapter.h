// DBX, the in-tree engine (engine/), behind the adapter interface.
//
// One dbx::DB per AdapterOptions::dir. Sessions are thin: every engine call is thread-safe, so a
// Session holds only its open batch. Begin..Commit collects Puts and Deletes in a dbx::WriteBatch
// applied atomically by DB::Write at Commit (one WAL record, one apply under the commit pipeline);
// reads inside a batch do not see the batch's own writes. Plain WriteBatches never conflict, so
// concurrent batches of different sessions both commit (last writer wins per key).
//
// Durability: none = no WAL (data is made durable by Close, which flushes everything to segment
// files); normal = WAL written on every commit and fsynced in the background every
// wal_sync_interval_ms; full = every commit waits for its WAL fsync (group commit shares fsyncs).
// cache_bytes is the block cache (the read cache every engine gets: RocksDB's block cache, SQLite's
// page cache) and the engine's memory budget (dbx::Options::memory_budget_bytes) for the other tiers:
// columnar cache 1/8, WOS 1/8, delta store 1/16, writers stalled past 7/16 of it in the write tiers;
// NativeSettings() reports the sizes the engine resolved. Empty keys and values, NUL bytes and large values are
// allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory DbxAdapterFactory();

}  // namespace dbxb
