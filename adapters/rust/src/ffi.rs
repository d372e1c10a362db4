//! The plain structs of include/dbxb_rust.h and the panic guard every entry point runs in.

use crate::engine::{Code, Durability, Error, OpenOptions, Result};
use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Once;

/// dbxb_rs_slice: bytes the caller lends for the duration of a call.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Slice {
    data: *const u8,
    len: usize,
}

impl Slice {
    /// # Safety
    /// `data` points to `len` readable bytes for the duration of the call (or `len` is 0).
    pub unsafe fn bytes<'a>(self) -> &'a [u8] {
        if self.len == 0 || self.data.is_null() {
            &[]
        } else {
            std::slice::from_raw_parts(self.data, self.len)
        }
    }

    unsafe fn utf8<'a>(self, what: &str) -> Result<&'a str> {
        std::str::from_utf8(self.bytes())
            .map_err(|_| Error::invalid(format!("{what} is not UTF-8")))
    }
}

/// dbxb_rs_sink.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Sink {
    func: Option<extern "C" fn(*mut c_void, *const u8, usize)>,
    ctx: *mut c_void,
}

impl Sink {
    pub fn none() -> Sink {
        Sink {
            func: None,
            ctx: std::ptr::null_mut(),
        }
    }
    pub fn send(&self, bytes: &[u8]) {
        if let Some(f) = self.func {
            f(self.ctx, bytes.as_ptr(), bytes.len());
        }
    }
}

/// dbxb_rs_pair_sink.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PairSink {
    func: Option<extern "C" fn(*mut c_void, *const u8, usize, *const u8, usize) -> i32>,
    ctx: *mut c_void,
}

impl PairSink {
    /// False when the receiver asked to stop (or there is none).
    pub fn send(&self, key: &[u8], value: &[u8]) -> bool {
        match self.func {
            Some(f) => {
                f(
                    self.ctx,
                    key.as_ptr(),
                    key.len(),
                    value.as_ptr(),
                    value.len(),
                ) != 0
            }
            None => false,
        }
    }
}

#[repr(C)]
pub struct RawOption {
    pub key: Slice,
    pub value: Slice,
}

/// dbxb_rs_option used as a row: a key and its value.
pub type RawPair = RawOption;

/// dbxb_rs_open_options.
#[repr(C)]
pub struct RawOpenOptions {
    pub engine: u32,
    dir: Slice,
    durability: u32,
    cache_bytes: u64,
    options: *const RawOption,
    option_count: usize,
}

impl RawOpenOptions {
    /// # Safety
    /// The slices and the options array are readable for the duration of the call.
    pub unsafe fn decode(&self) -> Result<OpenOptions> {
        let dir = self.dir.utf8("the directory")?;
        let raw = if self.option_count == 0 || self.options.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(self.options, self.option_count)
        };
        let mut native = Vec::with_capacity(raw.len());
        for o in raw {
            native.push((
                o.key.utf8("a native option key")?.to_string(),
                o.value.utf8("a native option value")?.to_string(),
            ));
        }
        Ok(OpenOptions {
            dir: PathBuf::from(dir),
            durability: Durability::from_u32(self.durability)?,
            cache_bytes: self.cache_bytes,
            native,
        })
    }
}

pub enum OpKind {
    Put,
    Delete,
}

/// dbxb_rs_op.
#[repr(C)]
pub struct RawOp {
    kind: u32,
    pub key: Slice,
    pub value: Slice,
}

impl RawOp {
    pub fn kind(&self) -> Result<OpKind> {
        match self.kind {
            0 => Ok(OpKind::Put),
            1 => Ok(OpKind::Delete),
            k => Err(Error::invalid(format!(
                "operation kind {k} is not 0 (put) or 1 (delete)"
            ))),
        }
    }
}

thread_local! {
    /// True while this thread runs inside a bridge call: the panic hook stays quiet, as the panic is
    /// returned to the caller as an error.
    static IN_BRIDGE_CALL: Cell<bool> = const { Cell::new(false) };
}

/// Panics inside a bridge call are reported through the call's status; panics on the engines' own
/// background threads still print as Rust's default hook does.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_BRIDGE_CALL.with(|c| c.get()) {
                default(info);
            }
        }));
    });
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `body`; an Err goes to `error` and its code is returned, a panic becomes DBXB_RS_PANIC.
pub fn guard(error: Sink, body: impl FnOnce() -> Result<Code>) -> i32 {
    install_panic_hook();
    let outer = IN_BRIDGE_CALL.with(|c| c.replace(true));
    let result = catch_unwind(AssertUnwindSafe(body));
    IN_BRIDGE_CALL.with(|c| c.set(outer));
    match result {
        Ok(Ok(code)) => code as i32,
        Ok(Err(e)) => {
            error.send(e.message.as_bytes());
            e.code as i32
        }
        Err(payload) => {
            let msg = format!(
                "Rust panic in the bridge: {}",
                panic_message(payload.as_ref())
            );
            error.send(msg.as_bytes());
            Code::Panic as i32
        }
    }
}
