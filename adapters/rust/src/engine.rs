//! What every engine of the bridge implements, and the options and errors they share.

use std::fmt::Display;
use std::path::PathBuf;

/// dbxb_rs_code, as in include/dbxb_rust.h.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Code {
    Ok = 0,
    NotFound = 1,
    InvalidArgument = 2,
    NotSupported = 3,
    IoError = 4,
    Corruption = 5,
    Panic = 6,
}

/// An error with the code the C++ side turns into a Status.
#[derive(Debug)]
pub struct Error {
    pub code: Code,
    pub message: String,
}

impl Error {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::new(Code::InvalidArgument, message)
    }
    pub fn io(what: &str, err: impl Display) -> Self {
        Error::new(Code::IoError, format!("{what}: {err}"))
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// The adapter interface's Durability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    None,
    Normal,
    Full,
}

impl Durability {
    pub fn from_u32(d: u32) -> Result<Durability> {
        match d {
            0 => Ok(Durability::None),
            1 => Ok(Durability::Normal),
            2 => Ok(Durability::Full),
            _ => Err(Error::invalid(format!(
                "durability {d} is not 0 (none), 1 (normal) or 2 (full)"
            ))),
        }
    }
}

/// What dbxb_rs_open was given, decoded.
pub struct OpenOptions {
    pub dir: PathBuf,
    pub durability: Durability,
    pub cache_bytes: u64,
    /// This engine's native options, without the "<engine>." prefix, in the order given.
    pub native: Vec<(String, String)>,
}

impl OpenOptions {
    /// The value of native option `key`, the last one given.
    pub fn native(&self, key: &str) -> Option<&str> {
        self.native
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Fails on a native option key not in `known`.
pub fn check_known(engine: &str, native: &[(String, String)], known: &[&str]) -> Result<()> {
    for (key, _) in native {
        if !known.contains(&key.as_str()) {
            return Err(Error::invalid(format!(
                "unknown native option '{engine}.{key}'"
            )));
        }
    }
    Ok(())
}

/// Parses a true/false option value.
pub fn parse_bool(engine: &str, key: &str, value: &str) -> Result<bool> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Error::invalid(format!(
            "{engine}.{key}: '{value}' is not true or false"
        ))),
    }
}

/// Visits the rows of `rows` (key order, from the start key), at most `limit` (0 = all), until `visit`
/// returns false; an error of the iterator stops the scan and is returned.
pub fn visit_limited<K: AsRef<[u8]>, V: AsRef<[u8]>, E>(
    rows: impl Iterator<Item = std::result::Result<(K, V), E>>,
    limit: u64,
    visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    err: impl Fn(E) -> Error,
) -> Result<()> {
    let mut seen = 0u64;
    for row in rows {
        if limit != 0 && seen == limit {
            break;
        }
        let (k, v) = row.map_err(&err)?;
        seen += 1;
        if !visit(k.as_ref(), v.as_ref()) {
            break;
        }
    }
    Ok(())
}

/// One operation of a write batch; the slices are the caller's, valid during the call.
pub enum Op<'a> {
    Put(&'a [u8], &'a [u8]),
    Delete(&'a [u8]),
}

/// One open database. Shared by every session of the adapter: all methods take &self and may run
/// concurrently; close runs last.
pub trait Engine: Send + Sync {
    fn put(&self, key: &[u8], value: &[u8]) -> Result<()>;
    /// Calls `found` with the value and returns true, or returns false when the key is absent.
    fn get(&self, key: &[u8], found: &mut dyn FnMut(&[u8])) -> Result<bool>;
    fn delete(&self, key: &[u8]) -> Result<()>;
    /// Rows with key >= start in key order, at most `limit` (0 = all), until `visit` returns false.
    fn scan(
        &self,
        start: &[u8],
        limit: u64,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<()>;
    /// The exact number of live keys.
    fn count(&self) -> Result<u64>;
    /// The engine's own count call, exact or not.
    fn native_count(&self) -> Result<u64>;
    fn write_batch(&self, ops: &[Op]) -> Result<()>;
    fn settle(&self) -> Result<()>;
    /// The native settings as applied.
    fn settings(&self) -> Vec<(String, String)>;
    /// Flushes and closes.
    fn close(self: Box<Self>) -> Result<()>;
}
