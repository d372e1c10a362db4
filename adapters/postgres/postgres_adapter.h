// PostgreSQL behind the adapter interface: a real server, private to each database, or one the user
// runs (postgres.url).
//
// Private (the default): Open starts a PostgreSQL server of its own for AdapterOptions::dir
// (postgres_server.h: the cluster under <dir>/server, a copy of one initdb per process; the database's
// tables and indexes in the tablespace <dir>/tables; the postmaster a child of this process, under an
// orphan guard; its CPU, I/O, PSS, fsyncs and WAL counted for the resource meters). It listens on a Unix
// socket only a server's account can enter, and with postgres.listen=tcp on 127.0.0.1 too (a free port,
// SCRAM password; the sessions then use TCP). As root, the server runs as the unprivileged account
// postgres_internal::kServerUser (scripts/install-deps.sh creates it), and every directory above <dir>
// must be searchable by it. Starting happens in Open, outside every measurement; a server that does not
// accept connections within postgres.start_timeout_s (default 60; 0 gives up at once) fails Open with one
// line quoting its log's last line, and is stopped. Close, and the destructor (so also a failed or
// interrupted run), stops the server (fast shutdown) and keeps its files, so that a reopen sees the data;
// the harness removes the directory.
//
// Existing (postgres.url): Open connects to the user's server and works in one schema of its own
// (postgres_schema.h: created with the run's marker, joined by the clients of the same postgres.run_id,
// dropped at Close only while marked; an existing schema that is not the run's is refused). Nothing else
// on that server is touched. AdapterFactory::preflight finds an unreachable or refusing server, a wrong
// password and a schema that is not ours before a run starts.
//
// shared_buffers = cache_bytes (at least PostgreSQL's minimum of 128 kB; a private server only).
// Durability: none = fsync=off, synchronous_commit=off; normal = synchronous_commit=off (the WAL is
// flushed by the WAL writer within 3 x wal_writer_delay); full = synchronous_commit=on (a commit waits for
// its WAL flush). On an existing server, synchronous_commit is set per session and fsync is the server's.
// Settings are read back with SHOW.
//
// Each Session (and RowSession) owns one libpq connection with its statements prepared, parameters and
// results in binary format. Keys and values live in kv(k bytea PRIMARY KEY, v bytea); bytea compares
// bytewise, so scans are in bytewise key order. Begin..Commit is one transaction (READ COMMITTED);
// reads inside it see its own writes. A Put or Delete outside it is its own transaction. A Scan longer
// than one fetch (1000 rows) outside a batch runs in a REPEATABLE READ transaction, so it is consistent.
// The sqlite-vps table is native: rows(id bigint PRIMARY KEY, a bigint, b bigint, payload text) with
// the indexes rows_a(a, id) and rows_b(b, id).
//
// For `run --clients`, AdapterFactory::start_shared_server starts one private server the client
// processes reach through postgres.url (its password in their environment, never on a command line).
// Either way it decides the run id and owns the run's schema: made before the clients start (they join
// it, never drop it), made anew when every client closed a database (ClientsClosedDatabase), and at the
// end every schema of the run still there dropped over a connection of its own (a client killed). An adapter whose
// connection was lost drops its schema over a new one.
//
// Batches run in libpq's pipeline mode (postgres_connection.h): a batch's Puts, Deletes and InsertRows
// are sent without waiting, and Commit waits once for them all, so a batch is one round trip (plus one
// per 1000 statements) instead of one per row. Pipelining rather than a multi-row INSERT or COPY: a
// batch's writes are upserts and deletes in any mix, COPY cannot upsert, and a multi-row INSERT ... ON
// CONFLICT refuses a key twice in one statement; pipelining keeps each row's prepared statement and only
// removes the waiting between them (what pgbench's \startpipeline, psycopg 3's executemany and pgjdbc's
// executeBatch do). A write's error (a duplicate id) is then Commit's, and nothing of its batch stays.
//
// Empty keys, empty values and NUL bytes are all allowed.
#pragma once

#include "adapters/adapter.h"

namespace dbxb {

/// `postgres`: the release build of PostgreSQL's server (thirdparty/postgres.sh, from the cache entry
/// this dbx-bench was configured with; Open fails naming what to do when that entry is gone), or
/// Debian's when configured without it (-DDBXB_RELEASE_ENGINES without postgres; its provenance says so).
AdapterFactory PostgresAdapterFactory();

/// `postgres@debian`: the same adapter running Debian 12's PostgreSQL 15 server (DebianServerBuild).
AdapterFactory PostgresDebianAdapterFactory();

}  // namespace dbxb
