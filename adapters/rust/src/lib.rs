//! The Rust bridge of dbx-bench: sled, redb and dbx-core behind the C ABI of include/dbxb_rust.h.
//!
//! Every `extern "C"` function runs its body inside `guard`, which catches a panic and returns it as
//! DBXB_RS_PANIC with its message: no unwind ever crosses into C++. Data goes out only through the
//! caller's callbacks, during the call.

mod engine;
mod ffi;
mod seed;

#[cfg(feature = "dbx-core")]
mod dbx_core_engine;
#[cfg(feature = "redb")]
mod redb_engine;
#[cfg(feature = "sled")]
mod sled_engine;

use engine::{Code, Engine, Error, Op, OpenOptions, Result};
use ffi::{guard, OpKind, PairSink, RawOp, RawOpenOptions, Sink, Slice};

/// The owned handle behind dbxb_rs_db*.
pub struct Db {
    engine: Box<dyn Engine>,
}

fn engine_name(engine: u32) -> Result<&'static str> {
    match engine {
        0 => Ok("sled"),
        1 => Ok("redb"),
        2 => Ok("dbx-core"),
        _ => Err(Error::invalid(format!(
            "engine {engine} is not 0 (sled), 1 (redb) or 2 (dbx-core)"
        ))),
    }
}

fn not_built(name: &str) -> Error {
    Error::new(
        Code::NotSupported,
        format!("{name} was left out of this build (cargo feature off)"),
    )
}

fn version(engine: u32) -> Result<String> {
    match engine_name(engine)? {
        #[cfg(feature = "sled")]
        "sled" => Ok(sled_engine::version()),
        #[cfg(feature = "redb")]
        "redb" => Ok(redb_engine::version()),
        #[cfg(feature = "dbx-core")]
        "dbx-core" => Ok(dbx_core_engine::version()),
        other => Err(not_built(other)),
    }
}

fn check(engine: u32, options: &OpenOptions) -> Result<()> {
    match engine_name(engine)? {
        #[cfg(feature = "sled")]
        "sled" => sled_engine::check(options),
        #[cfg(feature = "redb")]
        "redb" => redb_engine::check(options),
        #[cfg(feature = "dbx-core")]
        "dbx-core" => dbx_core_engine::check(options),
        other => Err(not_built(other)),
    }
}

fn open(engine: u32, options: &OpenOptions) -> Result<Box<dyn Engine>> {
    match engine_name(engine)? {
        #[cfg(feature = "sled")]
        "sled" => sled_engine::open(options),
        #[cfg(feature = "redb")]
        "redb" => redb_engine::open(options),
        #[cfg(feature = "dbx-core")]
        "dbx-core" => dbx_core_engine::open(options),
        other => Err(not_built(other)),
    }
}

/// # Safety
/// `db` is null or a handle from dbxb_rs_open not yet closed.
unsafe fn db_ref<'a>(db: *mut Db) -> Result<&'a Db> {
    db.as_ref()
        .ok_or_else(|| Error::invalid("null database handle"))
}

#[no_mangle]
pub extern "C" fn dbxb_rs_library_version(engine: u32, out: Sink) -> i32 {
    guard(Sink::none(), || {
        let v = version(engine)?;
        out.send(v.as_bytes());
        Ok(Code::Ok)
    })
}

/// # Safety
/// `options` points to a valid dbxb_rs_open_options whose slices are readable during the call.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_check_options(options: *const RawOpenOptions, error: Sink) -> i32 {
    guard(error, || {
        let raw = options
            .as_ref()
            .ok_or_else(|| Error::invalid("null options"))?;
        check(raw.engine, &raw.decode()?)?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_check_options; `db` is writable.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_open(
    options: *const RawOpenOptions,
    db: *mut *mut Db,
    error: Sink,
) -> i32 {
    guard(error, || {
        let raw = options
            .as_ref()
            .ok_or_else(|| Error::invalid("null options"))?;
        if db.is_null() {
            return Err(Error::invalid("null output handle"));
        }
        let options = raw.decode()?;
        if options.dir.as_os_str().is_empty() {
            return Err(Error::invalid("empty directory"));
        }
        let engine = open(raw.engine, &options)?;
        *db = Box::into_raw(Box::new(Db { engine }));
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is a handle from dbxb_rs_open, used by no other call now or later.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_close(db: *mut Db, error: Sink) -> i32 {
    guard(error, || {
        if db.is_null() {
            return Err(Error::invalid("null database handle"));
        }
        let owned = Box::from_raw(db);
        owned.engine.close()?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is an open handle; the slices are readable during the call.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_put(db: *mut Db, key: Slice, value: Slice, error: Sink) -> i32 {
    guard(error, || {
        db_ref(db)?.engine.put(key.bytes(), value.bytes())?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_put.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_get(db: *mut Db, key: Slice, value: Sink, error: Sink) -> i32 {
    guard(error, || {
        let found = db_ref(db)?
            .engine
            .get(key.bytes(), &mut |v| value.send(v))?;
        Ok(if found { Code::Ok } else { Code::NotFound })
    })
}

/// # Safety
/// As dbxb_rs_put.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_delete(db: *mut Db, key: Slice, error: Sink) -> i32 {
    guard(error, || {
        db_ref(db)?.engine.delete(key.bytes())?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_put.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_scan(
    db: *mut Db,
    start: Slice,
    limit: u64,
    visit: PairSink,
    error: Sink,
) -> i32 {
    guard(error, || {
        db_ref(db)?
            .engine
            .scan(start.bytes(), limit, &mut |k, v| visit.send(k, v))?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is an open handle; `count` is writable.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_count(db: *mut Db, count: *mut u64, error: Sink) -> i32 {
    guard(error, || {
        let n = db_ref(db)?.engine.count()?;
        *count.as_mut().ok_or_else(|| Error::invalid("null count"))? = n;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_count.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_native_count(db: *mut Db, count: *mut u64, error: Sink) -> i32 {
    guard(error, || {
        let n = db_ref(db)?.engine.native_count()?;
        *count.as_mut().ok_or_else(|| Error::invalid("null count"))? = n;
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is an open handle; `ops` points to `count` operations whose slices are readable during the call.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_write_batch(
    db: *mut Db,
    ops: *const RawOp,
    count: usize,
    error: Sink,
) -> i32 {
    guard(error, || {
        let raw = if count == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(ops, count)
        };
        let mut decoded = Vec::with_capacity(raw.len());
        for op in raw {
            decoded.push(match op.kind()? {
                OpKind::Put => Op::Put(op.key.bytes(), op.value.bytes()),
                OpKind::Delete => Op::Delete(op.key.bytes()),
            });
        }
        db_ref(db)?.engine.write_batch(&decoded)?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is an open handle.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_settle(db: *mut Db, error: Sink) -> i32 {
    guard(error, || {
        db_ref(db)?.engine.settle()?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// `db` is an open handle.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_settings(db: *mut Db, out: PairSink, error: Sink) -> i32 {
    guard(error, || {
        for (k, v) in db_ref(db)?.engine.settings() {
            if !out.send(k.as_bytes(), v.as_bytes()) {
                break;
            }
        }
        Ok(Code::Ok)
    })
}

/// Panics inside the guard, for the test that no panic crosses the boundary (rust_bridge_test.cc).
#[no_mangle]
pub extern "C" fn dbxb_rs_test_panic(error: Sink) -> i32 {
    guard(error, || -> Result<Code> {
        panic!("deliberate test panic")
    })
}

/// # Safety
/// `dir` readable during the call; `rows` points to `count` (key, value) pairs readable during the call;
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_new(
    engine: u32,
    dir: Slice,
    rows: *const ffi::RawPair,
    count: usize,
    out: *mut *mut seed::Seed,
    error: Sink,
) -> i32 {
    guard(error, || {
        let name = engine_name(engine)?;
        let dir = std::str::from_utf8(dir.bytes())
            .map_err(|_| Error::invalid("the directory is not UTF-8"))?;
        let raw = if count == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(rows, count)
        };
        let data = raw
            .iter()
            .map(|p| (p.key.bytes().to_vec(), p.value.bytes().to_vec()))
            .collect();
        let s = seed::Seed::new(name, std::path::PathBuf::from(dir), data)?;
        *out.as_mut()
            .ok_or_else(|| Error::invalid("null output handle"))? = Box::into_raw(Box::new(s));
        Ok(Code::Ok)
    })
}

/// # Safety
/// `seed` is null or a handle from dbxb_rs_seed_new, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_free(seed: *mut seed::Seed, error: Sink) -> i32 {
    guard(error, || {
        if !seed.is_null() {
            drop(Box::from_raw(seed));
        }
        Ok(Code::Ok)
    })
}

/// # Safety
/// `seed` is a handle from dbxb_rs_seed_new.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_insert(seed: *mut seed::Seed, error: Sink) -> i32 {
    guard(error, || {
        seed.as_ref()
            .ok_or_else(|| Error::invalid("null seed handle"))?
            .insert()?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_seed_insert.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_load(seed: *mut seed::Seed, error: Sink) -> i32 {
    guard(error, || {
        seed.as_mut()
            .ok_or_else(|| Error::invalid("null seed handle"))?
            .load()?;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_seed_insert; `found` writable.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_get_all(
    seed: *mut seed::Seed,
    found: *mut u64,
    error: Sink,
) -> i32 {
    guard(error, || {
        let n = seed
            .as_ref()
            .ok_or_else(|| Error::invalid("null seed handle"))?
            .get_all()?;
        *found
            .as_mut()
            .ok_or_else(|| Error::invalid("null output"))? = n;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_seed_insert; `rows` writable.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_scan_all(
    seed: *mut seed::Seed,
    rows: *mut u64,
    error: Sink,
) -> i32 {
    guard(error, || {
        let n = seed
            .as_ref()
            .ok_or_else(|| Error::invalid("null seed handle"))?
            .scan_all()?;
        *rows.as_mut().ok_or_else(|| Error::invalid("null output"))? = n;
        Ok(Code::Ok)
    })
}

/// # Safety
/// As dbxb_rs_seed_insert.
#[no_mangle]
pub unsafe extern "C" fn dbxb_rs_seed_read_back(
    seed: *mut seed::Seed,
    visit: PairSink,
    error: Sink,
) -> i32 {
    guard(error, || {
        seed.as_ref()
            .ok_or_else(|| Error::invalid("null seed handle"))?
            .read_back(&mut |k, v| visit.send(k, v))?;
        Ok(Code::Ok)
    })
}
