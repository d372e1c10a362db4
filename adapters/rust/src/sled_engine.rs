//! sled 0.34 behind the bridge: one sled::Db (its default tree) in the directory.
//!
//! Durability: sled writes every update into its in-memory log buffers, and makes them durable with a
//! flush (write + fsync). It syncs every buffer it writes out (sync_file_range with a wait, whether a
//! buffer filled or a flush wrote it), at any setting: `none` cannot mean "never synced" for sled, only
//! "no sync asked for per commit" (AdapterFactory::syncs_buffers_at_none). none = no periodic flusher (flush_every_ms off; the buffers reach the disk
//! when they fill or at close); normal = sled's default background flush every 500 ms; full = a
//! Db::flush after every write or batch, before it returns (sled's documented way to wait for
//! durability). Close flushes at every level, so a clean close keeps all data.
//!
//! Batches: a sled::Batch applied with Tree::apply_batch, which takes sled's write concurrency lock:
//! point reads (which take its read lock) see all of a batch or none; an iterator takes that lock per
//! step, so a scan running across the commit may see the rows of the batch after its position.
//!
//! Count: Tree::len, which iterates over every key (sled keeps no count): exact.

use crate::engine::{
    check_known, visit_limited, Code, Durability, Engine, Error, Op, OpenOptions, Result,
};

pub const NAME: &str = "sled";
const KNOWN: &[&str] = &["flush_every_ms", "mode"];

pub fn version() -> String {
    format!("sled {}", env!("DBXB_SLED_VERSION"))
}

fn err(what: &str, e: sled::Error) -> Error {
    let code = match e {
        sled::Error::Corruption { .. } => Code::Corruption,
        sled::Error::Unsupported(_) => Code::NotSupported,
        sled::Error::ReportableBug(_) => Code::Corruption,
        _ => Code::IoError,
    };
    Error::new(code, format!("sled {what}: {e}"))
}

fn parse_flush_every_ms(value: &str) -> Result<Option<u64>> {
    if value == "off" {
        return Ok(None);
    }
    match value.parse::<u64>() {
        Ok(ms) if ms >= 1 => Ok(Some(ms)),
        _ => Err(Error::invalid(format!(
            "sled.flush_every_ms: '{value}' is not a number of milliseconds >= 1 or off"
        ))),
    }
}

fn parse_mode(value: &str) -> Result<sled::Mode> {
    match value {
        "low_space" => Ok(sled::Mode::LowSpace),
        "high_throughput" => Ok(sled::Mode::HighThroughput),
        _ => Err(Error::invalid(format!(
            "sled.mode: '{value}' is not low_space or high_throughput"
        ))),
    }
}

pub fn check(options: &OpenOptions) -> Result<()> {
    check_known(NAME, &options.native, KNOWN)?;
    if let Some(v) = options.native("flush_every_ms") {
        parse_flush_every_ms(v)?;
    }
    if let Some(v) = options.native("mode") {
        parse_mode(v)?;
    }
    Ok(())
}

pub struct SledEngine {
    db: sled::Db,
    config: sled::Config,
    flush_each_commit: bool,
}

pub fn open(options: &OpenOptions) -> Result<Box<dyn Engine>> {
    check(options)?;
    // sled takes a directory without its `conf` for a new database and writes over any `db` file there.
    if options.dir.join("db").exists() && !options.dir.join("conf").exists() {
        return Err(Error::new(
            Code::Corruption,
            format!("{} holds a file db but no sled conf: not a sled database (sled would write over it)", options.dir.display()),
        ));
    }
    let default_flush = match options.durability {
        Durability::Normal => Some(500),
        Durability::None | Durability::Full => None,
    };
    let flush_every_ms = match options.native("flush_every_ms") {
        Some(v) => parse_flush_every_ms(v)?,
        None => default_flush,
    };
    let mut config = sled::Config::new()
        .path(&options.dir)
        .cache_capacity(options.cache_bytes)
        .flush_every_ms(flush_every_ms);
    if let Some(v) = options.native("mode") {
        config = config.mode(parse_mode(v)?);
    }
    let db = open_waiting_for_lock(&config)
        .map_err(|e| err(&format!("open {}", options.dir.display()), e))?;
    Ok(Box::new(SledEngine {
        db,
        config,
        flush_each_commit: options.durability == Durability::Full,
    }))
}

/// Config::open, retried for up to 5 s while the file lock is held ("could not acquire lock").
/// A Db of this process that was just dropped can hold it a moment longer: its background work ends after
/// the drop returns, so a close followed at once by an open of the same path (a benchmark's
/// open-per-iteration, a reopen test) failed about 1 time in 50 under load. Another process holding the
/// database still fails, after the 5 s.
fn open_waiting_for_lock(config: &sled::Config) -> sled::Result<sled::Db> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match config.open() {
            // sled wraps the lock's WouldBlock in an error of its own kind, named by its message.
            Err(sled::Error::Io(e))
                if e.to_string().starts_with("could not acquire lock")
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

impl SledEngine {
    fn committed(&self) -> Result<()> {
        if self.flush_each_commit {
            self.db.flush().map_err(|e| err("flush", e))?;
        }
        Ok(())
    }
}

impl Engine for SledEngine {
    fn put(&self, key: &[u8], value: &[u8]) -> Result<()> {
        self.db.insert(key, value).map_err(|e| err("insert", e))?;
        self.committed()
    }

    fn get(&self, key: &[u8], found: &mut dyn FnMut(&[u8])) -> Result<bool> {
        match self.db.get(key).map_err(|e| err("get", e))? {
            Some(v) => {
                found(&v);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn delete(&self, key: &[u8]) -> Result<()> {
        self.db.remove(key).map_err(|e| err("remove", e))?;
        self.committed()
    }

    fn scan(
        &self,
        start: &[u8],
        limit: u64,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<()> {
        visit_limited(self.db.range(start..), limit, visit, |e| err("scan", e))
    }

    fn count(&self) -> Result<u64> {
        let mut n = 0u64;
        for row in self.db.iter().keys() {
            row.map_err(|e| err("count", e))?;
            n += 1;
        }
        Ok(n)
    }

    fn native_count(&self) -> Result<u64> {
        Ok(self.db.len() as u64)
    }

    fn write_batch(&self, ops: &[Op]) -> Result<()> {
        let mut batch = sled::Batch::default();
        for op in ops {
            match *op {
                Op::Put(k, v) => batch.insert(k, v),
                Op::Delete(k) => batch.remove(k),
            }
        }
        self.db
            .apply_batch(batch)
            .map_err(|e| err("apply_batch", e))?;
        self.committed()
    }

    fn settle(&self) -> Result<()> {
        self.db.flush().map_err(|e| err("flush", e))?;
        Ok(())
    }

    fn settings(&self) -> Vec<(String, String)> {
        let c = &self.config;
        let flush = match c.flush_every_ms {
            Some(ms) => format!("{ms}"),
            None => "off".to_string(),
        };
        vec![
            ("flush_every_ms".into(), flush),
            ("flush_each_commit".into(), self.flush_each_commit.to_string()),
            (
                "log_buffer_sync".into(),
                "every log buffer sled writes is synced (sync_file_range with a wait), at every durability".into(),
            ),
            ("cache_capacity".into(), c.cache_capacity.to_string()),
            ("mode".into(), format!("{:?}", c.mode)),
            ("segment_size".into(), c.segment_size.to_string()),
            ("use_compression".into(), c.use_compression.to_string()),
            ("tree".into(), "the default tree of sled::Db".into()),
            ("batch".into(), "sled::Batch by Tree::apply_batch (point reads see all or none of it; scans are not isolated)".into()),
            ("count".into(), "iteration over every key (sled keeps no count)".into()),
            ("settle".into(), "Db::flush (writes the dirty buffers, fsync)".into()),
            ("size_on_disk_at_settings".into(), self.db.size_on_disk().map(|n| n.to_string()).unwrap_or_else(|e| format!("unknown ({e})"))),
        ]
    }

    fn close(self: Box<Self>) -> Result<()> {
        self.db.flush().map_err(|e| err("flush at close", e))?;
        Ok(())
    }
}
