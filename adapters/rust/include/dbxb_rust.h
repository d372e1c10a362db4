// The C ABI of the Rust bridge (adapters/rust/src): sled, redb and dbx-core behind one set of plain
// functions. Only adapters/rust/rust_adapter.cc includes this header.
//
// Ownership: a dbxb_rs_db is an owned handle, created by dbxb_rs_open and released by dbxb_rs_close;
// the caller never looks inside it. Every byte string Rust hands over (values, rows, settings, error
// messages) is passed to a callback and is valid only during that callback: the C++ side copies what it
// keeps. Every byte string the caller passes in is read only during the call.
//
// Errors: every function returns a dbxb_rs_code; on anything but OK/NOT_FOUND the message goes to the
// `error` sink once, before the function returns. A Rust panic is caught at the boundary and returned
// as DBXB_RS_PANIC with its message; none unwinds into C++.
//
// Thread-safety: one dbxb_rs_db may be used from several threads at once (each engine's handle is
// shared by all sessions); dbxb_rs_close must be the last call on it.
#ifndef DBXB_ADAPTERS_RUST_INCLUDE_DBXB_RUST_H_
#define DBXB_ADAPTERS_RUST_INCLUDE_DBXB_RUST_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  DBXB_RS_OK = 0,
  DBXB_RS_NOT_FOUND = 1,
  DBXB_RS_INVALID_ARGUMENT = 2,
  DBXB_RS_NOT_SUPPORTED = 3,
  DBXB_RS_IO_ERROR = 4,
  DBXB_RS_CORRUPTION = 5,
  DBXB_RS_PANIC = 6,
} dbxb_rs_code;

typedef enum {
  DBXB_RS_SLED = 0,
  DBXB_RS_REDB = 1,
  DBXB_RS_DBX_CORE = 2,
} dbxb_rs_engine;

/// The adapter interface's Durability, by value: 0 none, 1 normal, 2 full.
typedef uint32_t dbxb_rs_durability;

typedef struct {
  const uint8_t* data;
  size_t len;
} dbxb_rs_slice;

/// Receives one byte string (valid only during the call).
typedef struct {
  void (*fn)(void* ctx, const uint8_t* data, size_t len);
  void* ctx;
} dbxb_rs_sink;

/// Receives one key/value pair (valid only during the call). Returns 0 to stop.
typedef struct {
  int (*fn)(void* ctx, const uint8_t* key, size_t key_len, const uint8_t* value, size_t value_len);
  void* ctx;
} dbxb_rs_pair_sink;

typedef struct {
  dbxb_rs_slice key;
  dbxb_rs_slice value;
} dbxb_rs_option;

typedef struct {
  dbxb_rs_engine engine;
  dbxb_rs_slice dir;  ///< directory of the database, created if missing
  dbxb_rs_durability durability;
  uint64_t cache_bytes;
  const dbxb_rs_option* options;  ///< this engine's native options, without the "<engine>." prefix
  size_t option_count;
} dbxb_rs_open_options;

typedef enum {
  DBXB_RS_PUT = 0,
  DBXB_RS_DELETE = 1,
} dbxb_rs_op_kind;

typedef struct {
  dbxb_rs_op_kind kind;
  dbxb_rs_slice key;
  dbxb_rs_slice value;  ///< ignored for DBXB_RS_DELETE
} dbxb_rs_op;

typedef struct dbxb_rs_db dbxb_rs_db;

/// The engine's library and version, e.g. "sled 0.34.7" (from Cargo.lock, as linked), to `out`.
dbxb_rs_code dbxb_rs_library_version(dbxb_rs_engine engine, dbxb_rs_sink out);
/// Checks `options->options` as dbxb_rs_open would apply them, without opening anything.
dbxb_rs_code dbxb_rs_check_options(const dbxb_rs_open_options* options, dbxb_rs_sink error);
/// Opens (creating if missing) the database. On OK, *db owns it until dbxb_rs_close.
dbxb_rs_code dbxb_rs_open(const dbxb_rs_open_options* options, dbxb_rs_db** db, dbxb_rs_sink error);
/// Flushes what the engine holds in memory (as its own close would) and releases the handle, whatever
/// the result. REQUIRES: no other call on `db` is running or follows.
dbxb_rs_code dbxb_rs_close(dbxb_rs_db* db, dbxb_rs_sink error);

dbxb_rs_code dbxb_rs_put(dbxb_rs_db* db, dbxb_rs_slice key, dbxb_rs_slice value, dbxb_rs_sink error);
/// OK with the value to `value`, or NOT_FOUND.
dbxb_rs_code dbxb_rs_get(dbxb_rs_db* db, dbxb_rs_slice key, dbxb_rs_sink value, dbxb_rs_sink error);
/// Deleting an absent key is OK.
dbxb_rs_code dbxb_rs_delete(dbxb_rs_db* db, dbxb_rs_slice key, dbxb_rs_sink error);
/// Rows with key >= start in ascending bytewise order, at most `limit` (0 = all), until `visit` returns 0.
dbxb_rs_code dbxb_rs_scan(dbxb_rs_db* db, dbxb_rs_slice start, uint64_t limit, dbxb_rs_pair_sink visit,
                          dbxb_rs_sink error);
/// The exact number of live keys (see each engine's notes in src/: how it is counted).
dbxb_rs_code dbxb_rs_count(dbxb_rs_db* db, uint64_t* count, dbxb_rs_sink error);
/// The engine's own count call as it answers (may be inexact: dbx-core's Database::count), for tests.
dbxb_rs_code dbxb_rs_native_count(dbxb_rs_db* db, uint64_t* count, dbxb_rs_sink error);
/// Applies the operations in order as one write batch (atomic or not as the engine's notes say).
dbxb_rs_code dbxb_rs_write_batch(dbxb_rs_db* db, const dbxb_rs_op* ops, size_t count, dbxb_rs_sink error);
/// Adapter::Settle: moves buffered writes into the engine's store where it has a way to.
dbxb_rs_code dbxb_rs_settle(dbxb_rs_db* db, dbxb_rs_sink error);
/// The native settings as applied, one (key, value) pair per setting, in order.
dbxb_rs_code dbxb_rs_settings(dbxb_rs_db* db, dbxb_rs_pair_sink out, dbxb_rs_sink error);
/// The DBX team's official comparison as its code does it (src/seed.rs), for sled, redb and dbx-core.
typedef struct dbxb_rs_seed dbxb_rs_seed;
/// Copies `count` rows (key, value) into a new replica for `engine`, whose stores go under `dir`.
dbxb_rs_code dbxb_rs_seed_new(dbxb_rs_engine engine, dbxb_rs_slice dir, const dbxb_rs_option* rows, size_t count,
                              dbxb_rs_seed** seed, dbxb_rs_sink error);
/// Releases the replica and the store it loaded.
dbxb_rs_code dbxb_rs_seed_free(dbxb_rs_seed* seed, dbxb_rs_sink error);
/// The seed's insert closure: a fresh store, every row inserted as the seed does, the store dropped.
dbxb_rs_code dbxb_rs_seed_insert(dbxb_rs_seed* seed, dbxb_rs_sink error);
/// Loads the store the get and scan closures read, as the seed's setup does.
dbxb_rs_code dbxb_rs_seed_load(dbxb_rs_seed* seed, dbxb_rs_sink error);
/// The seed's get closure (every key once); *found = how many were found. REQUIRES: loaded.
dbxb_rs_code dbxb_rs_seed_get_all(dbxb_rs_seed* seed, uint64_t* found, dbxb_rs_sink error);
/// The seed's scan closure (every row collected into a vector); *rows = its length. REQUIRES: loaded.
dbxb_rs_code dbxb_rs_seed_scan_all(dbxb_rs_seed* seed, uint64_t* rows, dbxb_rs_sink error);
/// Every row of the loaded store in key order (untimed verification). REQUIRES: loaded.
dbxb_rs_code dbxb_rs_seed_read_back(dbxb_rs_seed* seed, dbxb_rs_pair_sink visit, dbxb_rs_sink error);

/// Panics inside the bridge's guard: returns DBXB_RS_PANIC with the panic's message (tests only).
dbxb_rs_code dbxb_rs_test_panic(dbxb_rs_sink error);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // DBXB_ADAPTERS_RUST_INCLUDE_DBXB_RUST_H_
