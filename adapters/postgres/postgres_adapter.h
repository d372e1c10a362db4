// PostgreSQL behind the adapter interface: a real server, private to each database.
//
// Open starts a PostgreSQL server of its own for AdapterOptions::dir: initdb into <dir>/data (on first
// open; a copy of one initdb per process), then pg_ctl start with listen_addresses = '' (no TCP) and
// the Unix socket in the data directory (or, when that path is too long for a socket, in a private
// directory of the temporary directory, removed with the server). As root, the server runs as the
// unprivileged account postgres_internal::kServerUser (initdb refuses root; scripts/install-deps.sh
// creates it), and every directory above <dir> must be searchable by it. Starting happens in Open,
// outside every measurement. A server that does not accept connections within postgres.start_timeout_s
// (default 60; 0 gives up at once) fails Open with one line naming its log file, and is stopped.
// Close, and the destructor (so also a failed or interrupted run), stops the server with pg_ctl stop
// -m fast and keeps its files, so that a reopen sees the data; the harness removes the directory.
//
// shared_buffers = cache_bytes (at least PostgreSQL's minimum of 128 kB). Durability: none = fsync=off,
// synchronous_commit=off; normal = synchronous_commit=off (the WAL is flushed by the WAL writer within
// 3 x wal_writer_delay); full = synchronous_commit=on (a commit waits for its WAL flush). Settings are
// read back with SHOW.
//
// Each Session (and RowSession) owns one libpq connection with its statements prepared, parameters and
// results in binary format. Keys and values live in kv(k bytea PRIMARY KEY, v bytea); bytea compares
// bytewise, so scans are in bytewise key order. Begin..Commit is one transaction (READ COMMITTED);
// reads inside it see its own writes. A Put or Delete outside it is its own transaction. A Scan longer
// than one fetch (1000 rows) outside a batch runs in a REPEATABLE READ transaction, so it is consistent.
// The sqlite-vps table is native: rows(id bigint PRIMARY KEY, a bigint, b bigint, payload text) with
// the indexes rows_a(a, id) and rows_b(b, id).
//
// Empty keys, empty values and NUL bytes are all allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory PostgresAdapterFactory();

}  // namespace dbxb
