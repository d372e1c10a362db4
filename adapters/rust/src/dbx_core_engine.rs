//! The original Rust DBX (crate dbx-core 0.2.2) behind the bridge: one key/value table (`bench`, as
//! the seed's benchmark names it) of a file-backed Database::open_with_durability in the directory.
//!
//! What dbx-core's calls do (read in its source, src/engine/{crud,utilities,constructors}.rs):
//! - insert/insert_batch write the main WAL (unless DurabilityLevel::None), then the Delta store (an
//!   in-memory skip list per table). When the Delta holds 10,000 entries, the writing call moves it to
//!   the file WOS (per-table `.wal` appended and fsynced, compacted into an SSTable later).
//! - insert_batch writes one Batch record to the WAL (so a batch is atomic across a crash), but puts its
//!   rows into the Delta one by one (in parallel from 1,000 rows): readers see a batch while it is
//!   being applied. Batches here are not atomic for readers; deletes in a batch are separate calls.
//! - get reads the Delta, then the WOS.
//! - delete removes the key from the Delta and the WOS, writes a WAL Delete record, and (feature mvcc,
//!   on by default) inserts a versioned tombstone row `key ++ ts ++ DB 58` with value `00 02`.
//! - scan(table) returns every row of both tiers, decoded: keys of 10 bytes or more ending in DB 58
//!   lose their last 10 bytes, values starting 00 01 lose those two bytes, values starting 00 02
//!   (tombstones) are dropped. range() returns the rows undecoded (tombstones included), so this adapter
//!   scans with scan() and skips to the start key: every Scan reads the whole table.
//! - count(table) adds the Delta's and the WOS's entry counts: a key in both tiers counts twice and
//!   tombstones count, so it is not exact. Count here counts the rows of scan() instead.
//! - DurabilityLevel::Full appends to the WAL and sends a sync request to a background thread: the
//!   write returns before the fsync. No level of dbx-core waits for stable storage, so durability full
//!   is refused (NotSupported); none = DurabilityLevel::None (no WAL); normal = Lazy (WAL written with
//!   write(2) per record, never synced by the WAL; the OS writes it back).
//! - Nothing is flushed when the Database is dropped: Close calls flush() (Delta -> WOS, fsynced), so a
//!   clean close keeps all data at every level.
//!
//! Keys and values dbx-core cannot store faithfully (its scan would change them, see above) are
//! refused with InvalidArgument: a key of 10 bytes or more ending in DB 58, a value starting 00 01 or
//! 00 02.

use crate::engine::{check_known, Code, Durability, Engine, Error, Op, OpenOptions, Result};
use dbx_core::{Database, DbxError, DurabilityLevel};
use std::sync::Arc;

pub const NAME: &str = "dbx-core";
const KNOWN: &[&str] = &["table", "durability_level"];
const DEFAULT_TABLE: &str = "bench";
const MVCC_KEY_SUFFIX: [u8; 2] = [0xDB, 0x58];

pub fn version() -> String {
    format!("dbx-core {}", env!("DBXB_DBX_CORE_VERSION"))
}

fn err(what: &str, e: DbxError) -> Error {
    let code = match e {
        DbxError::Io { .. } => Code::IoError,
        DbxError::Storage(_) | DbxError::Wal(_) => Code::Corruption,
        _ => Code::IoError,
    };
    Error::new(code, format!("dbx-core {what}: {e}"))
}

fn parse_level(value: &str) -> Result<DurabilityLevel> {
    match value {
        "none" => Ok(DurabilityLevel::None),
        "lazy" => Ok(DurabilityLevel::Lazy),
        "full" => Ok(DurabilityLevel::Full),
        _ => Err(Error::invalid(format!(
            "dbx-core.durability_level: '{value}' is not none, lazy or full"
        ))),
    }
}

pub fn check(options: &OpenOptions) -> Result<()> {
    check_known(NAME, &options.native, KNOWN)?;
    if let Some(v) = options.native("durability_level") {
        parse_level(v)?;
    }
    if let Some(t) = options.native("table") {
        if t.is_empty()
            || t.len() > 64
            || !t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(Error::invalid(format!(
                "dbx-core.table: '{t}' is not 1 to 64 letters, digits or _"
            )));
        }
    }
    if options.durability == Durability::Full {
        return Err(Error::new(
            Code::NotSupported,
            "dbx-core cannot honour durability full: its DurabilityLevel::Full queues the WAL fsync to a \
             background thread and returns before it",
        ));
    }
    Ok(())
}

pub struct DbxCoreEngine {
    db: Arc<Database>,
    table: String,
    level: DurabilityLevel,
}

pub fn open(options: &OpenOptions) -> Result<Box<dyn Engine>> {
    check(options)?;
    let level = match options.native("durability_level") {
        Some(v) => parse_level(v)?,
        None if options.durability == Durability::None => DurabilityLevel::None,
        None => DurabilityLevel::Lazy,
    };
    let db = Database::open_with_durability(&options.dir, level)
        .map_err(|e| err(&format!("open {}", options.dir.display()), e))?;
    let table = options.native("table").unwrap_or(DEFAULT_TABLE).to_string();
    Ok(Box::new(DbxCoreEngine { db, table, level }))
}

fn check_storable(key: &[u8], value: Option<&[u8]>) -> Result<()> {
    if key.len() >= 10 && key.ends_with(&MVCC_KEY_SUFFIX) {
        return Err(Error::invalid(
            "dbx-core cannot store a key of 10 bytes or more ending in DB 58: its scan reads it as an MVCC versioned key",
        ));
    }
    if let Some(v) = value {
        if v.len() >= 2 && v[0] == 0x00 && (v[1] == 0x01 || v[1] == 0x02) {
            return Err(Error::invalid(
                "dbx-core cannot store a value starting 00 01 or 00 02: its scan reads it as an MVCC header",
            ));
        }
    }
    Ok(())
}

impl Engine for DbxCoreEngine {
    fn put(&self, key: &[u8], value: &[u8]) -> Result<()> {
        check_storable(key, Some(value))?;
        self.db
            .insert(&self.table, key, value)
            .map_err(|e| err("insert", e))
    }

    fn get(&self, key: &[u8], found: &mut dyn FnMut(&[u8])) -> Result<bool> {
        match self.db.get(&self.table, key).map_err(|e| err("get", e))? {
            Some(v) => {
                found(&v);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn delete(&self, key: &[u8]) -> Result<()> {
        self.db
            .delete(&self.table, key)
            .map(|_| ())
            .map_err(|e| err("delete", e))
    }

    fn scan(
        &self,
        start: &[u8],
        limit: u64,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<()> {
        let rows = self.db.scan(&self.table).map_err(|e| err("scan", e))?;
        let first = rows.partition_point(|(k, _)| k.as_slice() < start);
        let end = if limit == 0 {
            rows.len()
        } else {
            rows.len().min(first.saturating_add(limit as usize))
        };
        for (k, v) in &rows[first..end] {
            if !visit(k, v) {
                break;
            }
        }
        Ok(())
    }

    fn count(&self) -> Result<u64> {
        Ok(self.db.scan(&self.table).map_err(|e| err("scan", e))?.len() as u64)
    }

    fn native_count(&self) -> Result<u64> {
        Ok(self.db.count(&self.table).map_err(|e| err("count", e))? as u64)
    }

    fn write_batch(&self, ops: &[Op]) -> Result<()> {
        for op in ops {
            if let Op::Put(k, v) = *op {
                check_storable(k, Some(v))?;
            }
        }
        let mut i = 0;
        while i < ops.len() {
            match ops[i] {
                Op::Delete(k) => {
                    self.delete(k)?;
                    i += 1;
                }
                Op::Put(..) => {
                    let mut rows = Vec::new();
                    while let Some(Op::Put(k, v)) = ops.get(i) {
                        rows.push((k.to_vec(), v.to_vec()));
                        i += 1;
                    }
                    self.db
                        .insert_batch(&self.table, rows)
                        .map_err(|e| err("insert_batch", e))?;
                }
            }
        }
        Ok(())
    }

    fn settle(&self) -> Result<()> {
        self.db.flush().map_err(|e| err("flush", e))
    }

    fn settings(&self) -> Vec<(String, String)> {
        let level = match self.level {
            DurabilityLevel::None => "None (no WAL)",
            DurabilityLevel::Lazy => "Lazy (WAL written per record, never synced by the WAL)",
            DurabilityLevel::Full => "Full (WAL fsync queued to a background thread, not awaited)",
        };
        vec![
            ("open".into(), "Database::open_with_durability (file-backed)".into()),
            ("table".into(), self.table.clone()),
            ("durability_level".into(), level.into()),
            ("features".into(), "wal, mvcc, index (the crate's defaults)".into()),
            ("delta_flush_threshold".into(), "10000 entries (DeltaStore's default; flush fsyncs the WOS)".into()),
            ("batch".into(), "Database::insert_batch per run of puts, Database::delete per delete: not atomic for readers".into()),
            ("scan".into(), "Database::scan of the whole table, then the start key and limit".into()),
            ("count".into(), "rows of Database::scan (Database::count adds the tiers' counts: inexact)".into()),
            ("close".into(), "Database::flush (Delta -> WOS); nothing is flushed on drop".into()),
            ("settle".into(), "Database::flush (Delta -> WOS)".into()),
            ("cache".into(), "none configurable (cache_bytes not applied)".into()),
        ]
    }

    fn close(self: Box<Self>) -> Result<()> {
        self.db.flush().map_err(|e| err("flush at close", e))
    }
}
