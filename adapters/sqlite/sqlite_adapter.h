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
//
// Native options (AdapterOptions::native_options): sqlite.page_size (512..65536, a power of two; fixed
// when the file is created: opening an existing database made with another page size is InvalidArgument),
// sqlite.mmap_size (bytes), sqlite.temp_store (default|file|memory) and sqlite.busy_timeout_ms (default
// 60000), applied to every connection and read back by NativeSettings().
//
// Rows (Adapter::NewRowSession): a native table rows(id INTEGER PRIMARY KEY, a INTEGER NOT NULL,
// b INTEGER NOT NULL, payload TEXT NOT NULL) with indexes rows_a(a) and rows_b(b) (SQLite appends the
// rowid to each index record, so they are ordered by (a, id) and (b, id)), created on first use in the
// same file; one connection per row session, statements prepared once. Begin..Commit is
// BEGIN IMMEDIATE .. COMMIT; UpdateRow is an UPDATE that leaves the index on a alone when a keeps its
// value (outside a transaction, an autocommit statement).
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory SqliteAdapterFactory();

}  // namespace dbxb
