//! The boundary shared by calibrank's two WebAssembly modules (`wasm/core`, `wasm/lab`).
//!
//! The boundary carries data only. The package's JavaScript (js/wire.js) reads the
//! caller's values, writes one input buffer (typed sections, one UTF-8 table of all the
//! strings of the call, JSON text for configurations: [`wire`], [`json`]) into this
//! module's memory and makes **one** call; Rust reads that buffer, calls the core, and
//! writes one output buffer that the JavaScript turns into the objects users get. Rust
//! never sees a JavaScript value, and no caller code (a getter, a Proxy trap, a
//! callback) can run while a wasm frame is on the stack.
//!
//! The exports every module has (made by [`export_io!`]):
//!
//! * `cr_reserve(bytes, room) -> ptr`: makes the input buffer at least `bytes` long and
//!   returns its address (memory may grow: views must be re-made after the call); a
//!   `room` asked for (bytes of the call's tables) grows the memory for the whole call
//!   in one step (`make_room`);
//! * `cr_call(op, bytes) -> ptr`: runs operation `op` on the first `bytes` of the
//!   input and returns the address of the output: a header (`status`: 0 success, 1 a
//!   `ScoreError`, whose code, field and message are the output's three texts; the
//!   length of the sections after the header), then the sections;
//! * `cr_out_of_memory() -> bytes`: the size of the last request the heap could not meet
//!   during the current (or last) call, 0 for none (the JavaScript's `INPUT_TOO_LARGE`
//!   for a call past wasm32's 4 GiB).

#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod alloc;
pub mod decode;
pub mod heap;
pub mod json;
pub mod jsonw;
pub mod options;
pub mod wire;

use calibrank::error::{ErrorCode, Result, ScoreError};
use std::cell::Cell;
use wire::{Reader, Writer};

/// The global allocator of both modules (see [`alloc`]): single-threaded wasm32 only
/// (its lists are not synchronized).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOC: alloc::Cached<heap::Heap> = alloc::Cached::new(heap::Heap::new());

// Cells, not `RefCell`s: each buffer is taken out while in use and put back (no borrow
// to check, and so no panic path of `RefCell`'s in the modules).
thread_local! {
    static INPUT: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    static OUTPUT: Cell<Writer> = const { Cell::new(Writer::new()) };
}

/// `cr_reserve`: grows the input buffer to at least `bytes` and returns its address.
/// The buffer never shrinks (wasm memory cannot), and growing it zero-fills only the
/// new part. A `room` the JavaScript asks for (bytes of tables the call will make: the
/// columnar calls' documents) is made first, with the input's bytes (`make_room`).
pub fn reserve(bytes: u32, room: u32) -> u32 {
    let bytes = bytes as usize;
    if room > 0 {
        make_room(bytes.saturating_add(room as usize));
    }
    // A call begins here (the JavaScript reserves, writes, then calls): a request failed
    // in an earlier call without a trap (a fallible allocation) is not this call's, nor
    // is a room that could not be had.
    OUT_OF_MEMORY.store(0, std::sync::atomic::Ordering::Relaxed);
    let mut b = INPUT.take();
    let words = bytes.div_ceil(8);
    if b.len() < words {
        b.resize(words, 0);
    }
    let ptr = b.as_ptr() as usize as u32;
    INPUT.set(b);
    ptr
}

/// Makes room for `bytes` of a call's tables before it makes them, when the memory is
/// smaller than that: a block of that size, allocated and freed at once, so that the
/// memory grows in one step and the tables are then made without growing it again. Each
/// growth of the memory costs a full collection of the caller's JavaScript heap in V8
/// (external memory pressure): with 730 MB of objects in the heap, the first
/// `runColumnar` of 3 x 1,000,000 entries took 10 to 15 s (four collections of 1.3 to
/// 3.8 s) where the next took 0.2 s (docs/performance-history.md, "Growing the memory"). The
/// pages grown are not touched (no resident memory), and the block goes back to the
/// heap's free top. A memory of that size already is left as it is (the call's tables
/// fit in what earlier calls freed, unless those keep much of it: then it grows as it
/// goes, as any call); below 4 MiB nothing is done (a few growths of a small memory cost
/// little). Nor when the block cannot be had: 2 GiB or more (a vector's most on
/// wasm32; made as 2 GiB, such a room came on top of the memory earlier calls left, and
/// the calls at the columnar ceiling ended at 3,875 MiB against 3,524), or too near
/// 4 GiB (`reserve` clears the failed request's note: the call may not need it all).
fn make_room(bytes: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        let have = core::arch::wasm32::memory_size(0).saturating_mul(heap::PAGE);
        if bytes < 4 << 20 || have >= bytes {
            return;
        }
        let mut room: Vec<u8> = Vec::new();
        if room.try_reserve_exact(bytes).is_ok() {
            // Seen, so that the allocation and its release are not optimized away.
            std::hint::black_box(&mut room);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = bytes;
}

/// The limits table of `DEFAULT_LIMITS` (both modules): the names, the common defaults,
/// the ceilings, then the functions with an entry budget of their own and those budgets.
pub fn write_limit_table(w: &mut Writer) {
    use calibrank::limits::{Limits, ENTRY_BUDGETS};
    let d = Limits::default();
    let c = Limits::CEILING;
    w.strs(d.fields().iter().map(|(name, _)| *name));
    w.f64s(&d.fields().map(|(_, v)| f64::from(v)));
    w.f64s(&c.fields().map(|(_, v)| f64::from(v)));
    w.strs(ENTRY_BUDGETS.iter().map(|(f, _)| f.name()));
    w.f64s(&ENTRY_BUDGETS.map(|(_, n)| f64::from(n)));
}

/// Operations every module has (the same numbers in js/core/shared.js and js/lab/shared.js): 1 the
/// version, 2 the error codes, 3 the limits table. `None` for any other operation.
pub fn common_op(op: u32, w: &mut Writer) -> Option<Result<()>> {
    match op {
        1 => w.text(env!("CARGO_PKG_VERSION")),
        2 => w.strs(ErrorCode::ALL.iter().map(|c| c.as_str())),
        3 => write_limit_table(w),
        _ => return None,
    }
    Some(Ok(()))
}

/// Writes `v` as JSON text with serde_json (the lab module's outputs; the core module
/// writes its own with [`jsonw::write_json`], without serde).
pub fn write_json<T: serde::Serialize>(w: &mut Writer, v: &T) -> Result<()> {
    let text = serde_json::to_string(v)
        .map_err(|e| ScoreError::new(ErrorCode::Internal, "", format!("encode: {e}")))?;
    w.text(&text);
    Ok(())
}

/// The JSON of an error, as the modules sent it until 2026-11-29 (its code, field and
/// message now cross as three texts: js/wire/module.js). For tests and native tools
/// that print it.
pub fn error_json(e: &ScoreError) -> String {
    let mut s = String::with_capacity(64 + e.message.len());
    s.push_str("{\"code\":");
    push_json_string(&mut s, e.code.as_str());
    s.push_str(",\"field\":");
    push_json_string(&mut s, &e.field);
    s.push_str(",\"message\":");
    push_json_string(&mut s, &e.message);
    s.push('}');
    s
}

/// Appends `v` as a JSON string literal, escaped as serde_json escapes it: `\"`, `\\`,
/// `\b`, `\t`, `\n`, `\f`, `\r`, the other characters below U+0020 as `\u00xx`.
pub fn push_json_string(out: &mut String, v: &str) {
    out.push('"');
    let mut rest = v;
    while let Some(at) = rest.find(|c: char| c < ' ' || c == '"' || c == '\\') {
        let (plain, tail) = rest.split_at_checked(at).unwrap_or((rest, ""));
        out.push_str(plain);
        let mut chars = tail.chars();
        let c = chars.next().unwrap_or_default();
        rest = chars.as_str();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                for d in [c as usize >> 4, c as usize & 15] {
                    out.push(char::from(HEX.get(d).copied().unwrap_or(b'0')));
                }
            }
        }
    }
    out.push_str(rest);
    out.push('"');
}

/// Input and output buffers up to this size are kept between calls (no allocation per
/// call); larger ones are given back to the allocator after use. Kept, a call's 200 MB
/// input and 600 MB output sat in memory under the next call's own allocations, which
/// then grew the module past wasm32's 4 GiB at the documented ceilings (two
/// `rrfColumnar` calls of 50 million entries: an out-of-memory trap).
pub const KEEP_BYTES: usize = 16 << 20;

/// The size of the last request the heap could not meet during the current call (0:
/// none; cleared by [`reserve`], with which the JavaScript begins every call). Rust
/// aborts on a failed allocation, which in wasm is a trap; the package's JavaScript reads
/// this (`cr_out_of_memory`) before it restarts the instance, to report a call that
/// needed more than wasm32's 4 GiB as `INPUT_TOO_LARGE` rather than as a bug.
static OUT_OF_MEMORY: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Notes a request of `bytes` the heap could not meet (see [`out_of_memory`]).
pub fn note_out_of_memory(bytes: usize) {
    let b = u32::try_from(bytes).unwrap_or(u32::MAX).max(1);
    OUT_OF_MEMORY.store(b, std::sync::atomic::Ordering::Relaxed);
}

/// `cr_out_of_memory`: the size of the last request the heap could not meet during the
/// current (or last) call, 0 for none.
pub fn out_of_memory() -> u32 {
    OUT_OF_MEMORY.load(std::sync::atomic::Ordering::Relaxed)
}

/// `cr_call`: runs `op` on the first `bytes` of the input buffer with `f`, the module's
/// operation table, and returns the address of the output: a header of two `u32`
/// (status: 0 success, 1 a `ScoreError`, whose code, field and message are the output's
/// three texts; the length of the sections that follow), then the sections.
pub fn call(
    op: u32,
    bytes: u32,
    f: impl FnOnce(u32, &mut Reader<'_>, &mut Writer) -> Result<()>,
) -> u32 {
    // The input is taken out of its cell for the call, so that an operation may reserve
    // or call again without a double borrow; it is put back afterwards.
    let mut input = INPUT.take();
    let mut out = OUTPUT.take();
    // The last call's output (read by then) is given back first when large, so that the
    // operation can use its memory.
    out.clear_to(KEEP_BYTES);
    out.header();
    let all: &[u8] = bytemuck::cast_slice(&input);
    let result = match all.get(..bytes as usize) {
        Some(buf) => f(op, &mut Reader::new(buf), &mut out),
        None => Err(ScoreError::new(
            ErrorCode::Internal,
            "",
            "wire: input length",
        )),
    };
    let status = match result {
        Ok(()) => 0,
        Err(e) => {
            out.clear();
            out.header();
            out.text(e.code.as_str());
            out.text(&e.field);
            out.text(&e.message);
            1
        }
    };
    out.finish(status);
    let ptr = out.ptr() as u32;
    // A large input buffer is given back too (the next call reserves what it needs).
    wire::release_above(&mut input, KEEP_BYTES);
    INPUT.set(input);
    OUTPUT.set(out);
    ptr
}

/// An unknown operation number (a mismatch between the JavaScript and the module).
pub fn unknown_op(op: u32) -> ScoreError {
    ScoreError::new(
        ErrorCode::Internal,
        "",
        format!("wire: unknown operation {op}"),
    )
}

/// Objects that live in wasm memory between calls (a `Pipeline`, a `Run`), addressed by
/// a handle: `index + 1` (0 is never a handle). A freed slot is reused.
pub struct Slab<T> {
    slots: Vec<Option<T>>,
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Slab<T> {
    /// An empty slab (a `const fn`: a thread-local slab then needs no lazy initialization).
    pub const fn new() -> Self {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<T> Slab<T> {
    /// Stores `v` and returns its handle.
    pub fn insert(&mut self, v: T) -> u32 {
        if let Some(h) = self.free.pop() {
            if let Some(slot) = self.slots.get_mut(h as usize - 1) {
                *slot = Some(v);
                return h;
            }
        }
        self.slots.push(Some(v));
        self.slots.len() as u32
    }

    /// The object of handle `h`.
    pub fn get(&self, h: u32) -> Result<&T> {
        h.checked_sub(1)
            .and_then(|i| self.slots.get(i as usize))
            .and_then(Option::as_ref)
            .ok_or_else(freed)
    }

    /// Frees handle `h` (a freed or unknown handle is ignored).
    pub fn remove(&mut self, h: u32) -> Option<T> {
        let v = h
            .checked_sub(1)
            .and_then(|i| self.slots.get_mut(i as usize))
            .and_then(Option::take);
        if v.is_some() {
            self.free.push(h);
        }
        v
    }

    /// Live objects.
    pub fn live(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }
}

fn freed() -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidType,
        "this",
        "the object was freed (free() or Symbol.dispose) and cannot be used any more",
    )
}

/// The bytes of a word buffer (a section the JavaScript writes into memory the module
/// allocated, read back with a [`wire::Reader`], which wants 8-byte alignment).
pub fn words_as_bytes(words: &[u64]) -> &[u8] {
    bytemuck::cast_slice(words)
}

/// Defines the `cr_*` exports of a module whose operation table is `$dispatch`
/// (`fn(u32, &mut Reader, &mut Writer) -> Result<()>`).
#[macro_export]
macro_rules! export_io {
    ($dispatch:path) => {
        #[allow(unsafe_code)]
        #[no_mangle]
        pub extern "C" fn cr_reserve(bytes: u32, room: u32) -> u32 {
            $crate::reserve(bytes, room)
        }
        #[allow(unsafe_code)]
        #[no_mangle]
        pub extern "C" fn cr_call(op: u32, bytes: u32) -> u32 {
            $crate::call(op, bytes, $dispatch)
        }
        #[allow(unsafe_code)]
        #[no_mangle]
        pub extern "C" fn cr_out_of_memory() -> u32 {
            $crate::out_of_memory()
        }
    };
}

/// Native only (benchmarks and tests): puts `bytes` in the input buffer as the package's
/// JavaScript writes it before `cr_call`, and reads the status of the last output.
#[cfg(not(target_family = "wasm"))]
#[doc(hidden)]
pub mod native {
    /// Copies `bytes` into the input buffer (grown as `cr_reserve` grows it, not
    /// cleared: a replayed call costs what the JavaScript's write leaves to the module).
    pub fn set_input(bytes: &[u8]) {
        let mut b = super::INPUT.take();
        let words = bytes.len().div_ceil(8);
        if b.len() < words {
            b.resize(words, 0);
        }
        let all: &mut [u8] = bytemuck::cast_slice_mut(&mut b);
        if let Some(dst) = all.get_mut(..bytes.len()) {
            dst.copy_from_slice(bytes);
        }
        super::INPUT.set(b);
    }

    /// The last output's status (0 success, 1 an error) and its bytes after the header.
    pub fn output() -> (u32, Vec<u8>) {
        let o = super::OUTPUT.take();
        let b = o.bytes();
        let status = b.first().copied().map_or(u32::MAX, u32::from);
        let out = (status, b.get(8..).unwrap_or_default().to_vec());
        super::OUTPUT.set(o);
        out
    }
}
