// LMDB behind the adapter interface.
//
// One environment per database (the data.mdb/lock.mdb pair in AdapterOptions::dir), opened MDB_NOTLS so
// a session's read transaction is not tied to a thread, holding LMDB's unnamed main database (keys in
// bytewise order). Each Session keeps one read transaction that is renewed before and reset after every
// Get/Scan/Count, so an idle session pins no snapshot. Writes take LMDB's single write transaction:
// a Put/Delete outside a batch is its own transaction; Begin..Commit is one transaction (a Begin waits
// while another session's batch holds the writer lock). Inside a batch, the session's own reads go
// through the write transaction and so see its own writes.
//
// Map growth: the memory map starts at 2 x cache_bytes (at least 1 MiB), so a tiny cache_bytes gives a
// tiny map; LMDB has no cache of its own (it reads through the OS page cache), so cache_bytes is used
// only for this. When a write fails with MDB_MAP_FULL the transaction is aborted, the map is doubled
// (while no transaction of this process is active) and the write is retried; a batch keeps a copy of
// its writes until Commit so it can be replayed into the grown map. Data never hits a fixed ceiling.
//
// Durability: none = MDB_NOSYNC|MDB_NOMETASYNC, normal = MDB_NOMETASYNC, full = default flags (fsync
// of data and meta page per commit). Every commit is written to the file before it returns, and Close
// forces an fsync, so with any durability a clean Close keeps all committed data.
//
// Key limits (LMDB's, reported as InvalidArgument by Put): a key must not be empty and must be at most
// mdb_env_get_maxkeysize() bytes (511 in Debian's build). Get of such a key is NotFound and Delete of
// it is OK, since it cannot be stored. Values may be empty or large (1 MiB and more); NUL bytes are
// fine in both.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory LmdbAdapterFactory();

}  // namespace dbxb
