// WiredTiger behind the adapter interface.
//
// One WT_CONNECTION per database (home = AdapterOptions::dir) with cache_size = cache_bytes (at least
// WiredTiger's minimum of 1 MB) and statistics=(fast), MongoDB's setting, so the cache size is read back
// from the engine. The data lives in one row-store table, "table:kv" with key_format=u,value_format=u
// (raw bytes, ordered bytewise). Each Session owns one WT_SESSION (snapshot isolation) and one cursor on
// the table. Begin..Commit is one transaction; a Put/Delete outside it is its own (auto-commit)
// operation, retried when it loses a write-write conflict with another session. Reads inside a batch
// see the batch's own writes. A Scan outside a batch runs in a snapshot transaction of its own, so it
// is consistent; Count walks every key with the cursor (WiredTiger's entry-count statistic is not
// exact under concurrent transactions).
//
// Durability, the same configuration for WiredTiger 3.2 (Debian's) and 11.3 (the release; its
// tune_durability page keeps every one of these settings): none = logging off (log=(enabled=false); data
// reaches disk only at checkpoints), normal = logging on with transaction_sync=(enabled=false) (the log is
// written into its buffer, not synced, at commit), full = transaction_sync=(enabled=true,method=fsync)
// (the log is fsynced before a commit returns). The configuration string is reported as run. No
// checkpoint runs in the background (WiredTiger's default); Settle and Close checkpoint, so with any
// durability a clean Close keeps all committed data. The table's stored configuration (compressor, page
// sizes) is read back from WiredTiger's metadata.
//
// Empty values and NUL bytes are allowed. WiredTiger does not permit an empty key (3.2 fails the call,
// 11.3 panics the connection from WT_CURSOR::set_key), so one never reaches it: Put of one is
// InvalidArgument, Get is NotFound and Delete is OK (it cannot be stored).
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory WiredtigerAdapterFactory();

}  // namespace dbxb
