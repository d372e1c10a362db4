//! redb 2.x behind the bridge: one table `bench` of &[u8] -> &[u8] in `<dir>/data.redb`.
//!
//! Every write outside a batch is a write transaction of its own; a batch is one write transaction,
//! atomic (redb's MVCC: readers see all of it or none). redb runs one write transaction at a time:
//! writers of different sessions wait for each other. Every read runs in a read transaction of its own
//! (a snapshot).
//!
//! Durability (WriteTransaction::set_durability): none = Durability::None (the commit is in memory and
//! made durable only by a later durable commit; redb frees pages only at durable commits, so the file
//! grows until then); normal = Durability::Eventual, which on Linux syncs exactly as Immediate does
//! (fdatasync at every commit: redb has no background sync, so normal cannot promise less than full);
//! full = Durability::Immediate. Close commits an empty transaction with Immediate durability, so a
//! clean close keeps all data at every level.
//!
//! Count: ReadableTableMetadata::len, the table's stored length: exact.

use crate::engine::{
    check_known, parse_bool, Code, Durability, Engine, Error, Op, OpenOptions, Result,
};
use redb::{ReadableTableMetadata as _, TableDefinition};

pub const NAME: &str = "redb";
const KNOWN: &[&str] = &["two_phase_commit", "quick_repair"];
const TABLE: TableDefinition<&[u8], &[u8]> = TableDefinition::new("bench");
const FILE: &str = "data.redb";

pub fn version() -> String {
    format!("redb {}", env!("DBXB_REDB_VERSION"))
}

fn err(what: &str, e: impl Into<redb::Error>) -> Error {
    let e: redb::Error = e.into();
    let code = match &e {
        redb::Error::Corrupted(_) | redb::Error::UpgradeRequired(_) => Code::Corruption,
        redb::Error::ValueTooLarge(_) => Code::InvalidArgument,
        _ => Code::IoError,
    };
    Error::new(code, format!("redb {what}: {e}"))
}

pub fn check(options: &OpenOptions) -> Result<()> {
    check_known(NAME, &options.native, KNOWN)?;
    for key in KNOWN {
        if let Some(v) = options.native(key) {
            parse_bool(NAME, key, v)?;
        }
    }
    Ok(())
}

pub struct RedbEngine {
    db: redb::Database,
    durability: Durability,
    two_phase_commit: bool,
    quick_repair: bool,
    cache_bytes: u64,
}

pub fn open(options: &OpenOptions) -> Result<Box<dyn Engine>> {
    check(options)?;
    std::fs::create_dir_all(&options.dir)
        .map_err(|e| Error::io(&format!("create {}", options.dir.display()), e))?;
    let flag = |key: &str| options.native(key).map(|v| v == "true").unwrap_or(false);
    let cache = usize::try_from(options.cache_bytes)
        .map_err(|_| Error::invalid("cache_bytes does not fit usize"))?;
    let path = options.dir.join(FILE);
    let db = redb::Builder::new()
        .set_cache_size(cache)
        .create(&path)
        .map_err(|e| err(&format!("open {}", path.display()), e))?;
    let engine = RedbEngine {
        db,
        durability: options.durability,
        two_phase_commit: flag("two_phase_commit"),
        quick_repair: flag("quick_repair"),
        cache_bytes: options.cache_bytes,
    };
    engine.write(redb::Durability::Immediate, |_| Ok(()))?; // creates the table
    Ok(Box::new(engine))
}

impl RedbEngine {
    fn level(&self) -> redb::Durability {
        match self.durability {
            Durability::None => redb::Durability::None,
            Durability::Normal => redb::Durability::Eventual,
            Durability::Full => redb::Durability::Immediate,
        }
    }

    /// One write transaction: `body` on the table, then commit at `level`.
    fn write(
        &self,
        level: redb::Durability,
        body: impl FnOnce(&mut redb::Table<&[u8], &[u8]>) -> Result<()>,
    ) -> Result<()> {
        let mut txn = self.db.begin_write().map_err(|e| err("begin_write", e))?;
        txn.set_durability(level);
        txn.set_two_phase_commit(self.two_phase_commit);
        txn.set_quick_repair(self.quick_repair);
        {
            let mut table = txn.open_table(TABLE).map_err(|e| err("open_table", e))?;
            body(&mut table)?;
        }
        txn.commit().map_err(|e| err("commit", e))
    }

    fn read<T>(
        &self,
        body: impl FnOnce(&redb::ReadOnlyTable<&[u8], &[u8]>) -> Result<T>,
    ) -> Result<T> {
        let txn = self.db.begin_read().map_err(|e| err("begin_read", e))?;
        let table = txn.open_table(TABLE).map_err(|e| err("open_table", e))?;
        body(&table)
    }
}

impl Engine for RedbEngine {
    fn put(&self, key: &[u8], value: &[u8]) -> Result<()> {
        self.write(self.level(), |t| {
            t.insert(key, value)
                .map(|_| ())
                .map_err(|e| err("insert", e))
        })
    }

    fn get(&self, key: &[u8], found: &mut dyn FnMut(&[u8])) -> Result<bool> {
        self.read(|t| match t.get(key).map_err(|e| err("get", e))? {
            Some(v) => {
                found(v.value());
                Ok(true)
            }
            None => Ok(false),
        })
    }

    fn delete(&self, key: &[u8]) -> Result<()> {
        self.write(self.level(), |t| {
            t.remove(key).map(|_| ()).map_err(|e| err("remove", e))
        })
    }

    fn scan(
        &self,
        start: &[u8],
        limit: u64,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<()> {
        self.read(|t| {
            let mut seen = 0u64;
            for row in t.range::<&[u8]>(start..).map_err(|e| err("range", e))? {
                if limit != 0 && seen == limit {
                    break;
                }
                let (k, v) = row.map_err(|e| err("scan", e))?;
                seen += 1;
                if !visit(k.value(), v.value()) {
                    break;
                }
            }
            Ok(())
        })
    }

    fn count(&self) -> Result<u64> {
        self.read(|t| t.len().map_err(|e| err("len", e)))
    }

    fn native_count(&self) -> Result<u64> {
        self.count()
    }

    fn write_batch(&self, ops: &[Op]) -> Result<()> {
        self.write(self.level(), |t| {
            for op in ops {
                match *op {
                    Op::Put(k, v) => t.insert(k, v).map(|_| ()).map_err(|e| err("insert", e))?,
                    Op::Delete(k) => t.remove(k).map(|_| ()).map_err(|e| err("remove", e))?,
                }
            }
            Ok(())
        })
    }

    fn settle(&self) -> Result<()> {
        Ok(()) // no background work and no write buffer outside a transaction
    }

    fn settings(&self) -> Vec<(String, String)> {
        let level = match self.durability {
            Durability::None => "None",
            Durability::Normal => "Eventual (on Linux the same fdatasync per commit as Immediate)",
            Durability::Full => "Immediate",
        };
        vec![
            ("file".into(), FILE.into()),
            ("table".into(), "bench (&[u8] -> &[u8])".into()),
            ("commit_durability".into(), level.into()),
            ("two_phase_commit".into(), self.two_phase_commit.to_string()),
            ("quick_repair".into(), self.quick_repair.to_string()),
            ("cache_size".into(), self.cache_bytes.to_string()),
            (
                "transaction".into(),
                "one write transaction per write outside a batch; one per batch".into(),
            ),
            (
                "read".into(),
                "one read transaction (snapshot) per get, scan or count".into(),
            ),
            (
                "count".into(),
                "ReadableTableMetadata::len (stored length)".into(),
            ),
            (
                "close".into(),
                "an empty commit with Immediate durability".into(),
            ),
            (
                "settle".into(),
                "nothing to wait for (redb has no background work)".into(),
            ),
        ]
    }

    fn close(self: Box<Self>) -> Result<()> {
        self.write(redb::Durability::Immediate, |_| Ok(()))
    }
}
