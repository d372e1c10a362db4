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
// The map is sized once, at open, and never changes: to the size of the filesystem that holds the
// database (statvfs), as LMDB advises ("as large as possible", mdb_env_set_mapsize), or to
// lmdb.map_size. The environment is opened without MDB_WRITEMAP, so LMDB does not extend the file to the
// map: the file grows with the pages written, the map costs address space only, and it cannot fill
// before the disk does. Where the address space is smaller than the filesystem (a sanitizer's
// reservations, ulimit -v) the map is halved until it fits, and once more. Since no session can see the
// map change, reads and writes take no lock of the adapter's. A write that still finds the map full
// fails with IOError naming MDB_MAP_FULL and the map's size (a batch then fails as a whole). LMDB has no
// cache of its own (it reads through the OS page cache): cache_bytes is not used.
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
