// SQLite behind the adapter interface.
//
// One database file, <dir>/kv.sqlite, holding one table `kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID`,
// so rows live in the primary-key B-tree and scans come out in bytewise key order (BLOBs compare with
// memcmp). Each Session has its own connection (opened SQLITE_OPEN_NOMUTEX: a session is used by one
// thread) with its statements prepared once; concurrent writers wait on the write lock (busy_timeout)
// instead of failing. A batch is `BEGIN IMMEDIATE` .. `COMMIT`/`ROLLBACK`; inside it the session's own
// reads see its own writes.
//
// Durability (always journal_mode=WAL): none = synchronous=OFF, normal = synchronous=NORMAL,
// full = synchronous=FULL. Every commit is handed to the OS before it returns, so with any durability a
// clean Close (or even a process crash) keeps all committed data; only an OS crash or power loss can lose
// it under none/normal.
//
// cache_bytes becomes `PRAGMA cache_size=-<KiB>`; SQLite's page cache is per connection, so each session
// gets that budget (NativeSettings reports this as cache_scope).
//
// Empty keys, empty values and NUL bytes are all allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory SqliteAdapterFactory();

}  // namespace dbxb
