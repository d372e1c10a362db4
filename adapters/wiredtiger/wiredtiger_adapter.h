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
// Durability: none = logging off (log=(enabled=false); data reaches disk only at checkpoints),
// normal = logging on with transaction_sync=(enabled=false) (the log is written, not synced, at commit),
// full = transaction_sync=(enabled=true,method=fsync) (the log is fsynced before a commit returns). The
// configuration string is reported as run. Close checkpoints, so with any durability a clean Close
// keeps all committed data.
//
// Empty values and NUL bytes are allowed. WiredTiger does not permit an empty key: Put of one is
// InvalidArgument, Get is NotFound and Delete is OK (it cannot be stored).
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory WiredtigerAdapterFactory();

}  // namespace dbxb
