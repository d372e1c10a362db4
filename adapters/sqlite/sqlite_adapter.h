// SQLite behind the adapter interface.
//
// One database file, <dir>/kv.sqlite, holding one table kv(k BLOB PRIMARY KEY, v BLOB) in one of two
// layouts, as SQLite's documentation advises ("When to use WITHOUT ROWID": the average row should be
// smaller than about 1/20 of a page):
//   without-rowid  `kv(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID`: the rows live in the key's B-tree.
//                  Chosen when AdapterOptions::row_bytes_hint is known and below page_size / 20
//                  (204 B at the default 4096-byte page), e.g. dbx-micro's 31-byte rows.
//   rowid          `kv(k BLOB PRIMARY KEY NOT NULL, v BLOB)`: an ordinary rowid table with a unique index
//                  on the key; a read finds the rowid in the index, then the row in the table. Chosen
//                  otherwise (YCSB's 1 KB records, or a row size that is unknown); Put is an UPSERT that
//                  updates a row in place.
// The native option sqlite.layout=without-rowid|rowid forces one. The layout is fixed when the table is
// created: reopening keeps the table's own, and forcing another is InvalidArgument. NativeSettings
// reports `layout` and `layout_reason`. Scans come out in bytewise key order (BLOBs compare with
// memcmp) in both layouts. Each Session has its own connection (opened SQLITE_OPEN_NOMUTEX: a session is used by one
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
// 60000), applied to every connection and read back by NativeSettings(); sqlite.layout (above).
//
// Settle: PRAGMA wal_checkpoint(TRUNCATE), so a measured phase starts with an empty WAL.
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
