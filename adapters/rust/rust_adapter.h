// sled, redb and dbx-core (the original Rust DBX) behind the adapter interface, through the Rust bridge
// (adapters/rust/src, its C ABI in adapters/rust/include/dbxb_rust.h).
//
// One adapter serves the three engines. The Adapter owns the bridge's database handle, shared by every
// session (each engine's handle is thread-safe). A Session holds only its batch: Begin starts an empty
// list, Put and Delete append to it (copied into the session), Commit hands it to the bridge in one
// call (dbxb_rs_write_batch) and Abort drops it; reads inside a batch see the database, not the batch.
// No pointer into memory Rust owns outlives a call: values, rows and settings arrive through callbacks
// and are copied.
//
// What each engine promises (batch atomicity, how Count counts, the durability mapping, which levels it
// refuses) is written beside its code: adapters/rust/src/{sled,redb,dbx_core}_engine.rs, and reported
// by NativeSettings(). In short:
//   sled      none: no periodic flush; normal: flush every 500 ms; full: Db::flush after every commit.
//             Batches atomic for point reads. Count iterates (exact).
//   redb      none: Durability::None; normal: Eventual (= Immediate on Linux); full: Immediate.
//             Batches are one write transaction (atomic). Count is the table's stored length.
//   dbx-core  none: DurabilityLevel::None; normal: Lazy; full is refused (NotSupported: its Full only
//             queues the fsync). Batches are not atomic for readers. Count counts the rows of a scan
//             (Database::count is inexact); every Scan reads the whole table.
#pragma once

#include <cstdint>

#include "adapters/adapter.h"

namespace dbxb {

AdapterFactory SledAdapterFactory();
AdapterFactory RedbAdapterFactory();
AdapterFactory DbxCoreAdapterFactory();

/// The count the engine's own count call gives (dbx-core's Database::count may differ from the exact
/// Session::Count), for the tests that show it. REQUIRES: `adapter` was opened by one of the factories
/// above.
Status RustNativeCount(Adapter* adapter, uint64_t* count);

/// Makes the bridge panic inside its guard and returns what came back (tests: no panic crosses).
Status RustBridgePanicForTest();

}  // namespace dbxb
